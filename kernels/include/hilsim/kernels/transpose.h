#pragma once
// TRANSPOSE as TensorFlow Lite Micro's reference Transpose: output[i0..in] =
// input[i_perm^-1...], written in output order. Elements are moved as bit patterns of their size,
// so one function serves every type of that size. Freestanding.

#include <cstdint>

namespace hilsim::kernels {

constexpr int32_t kTransposeMaxDims = 6;

struct TransposeParams {
  int32_t rank = 1;  // 1 .. kTransposeMaxDims
  int32_t output_dims[kTransposeMaxDims] = {};
  // Elements the input pointer moves when output index d grows by one: the row-major stride of
  // input dimension perm[d].
  int32_t input_strides[kTransposeMaxDims] = {};
};

void transpose8(const TransposeParams& p, const uint8_t* input, uint8_t* output);
void transpose16(const TransposeParams& p, const uint16_t* input, uint16_t* output);
void transpose32(const TransposeParams& p, const uint32_t* input, uint32_t* output);

}  // namespace hilsim::kernels
