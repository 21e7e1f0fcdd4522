#pragma once
// STRIDED_SLICE as TensorFlow Lite Micro's reference StridedSlice: the input is viewed as 5
// dimensions (leading ones added) and, per dimension, the indices start, start + stride, ...
// while before stop (stride > 0) or after it (stride < 0) are visited in row-major order; the
// elements are written to the output one after another. Start and stop are resolved in prepare
// (masks, negative indices, clamping). Elements are moved as bit patterns of their size.
// Freestanding.

#include <cstdint>

namespace hilsim::kernels {

constexpr int32_t kStridedSliceDims = 5;

struct StridedSliceParams {
  int32_t input_dims[kStridedSliceDims] = {1, 1, 1, 1, 1};
  int32_t start[kStridedSliceDims] = {};  // in [0, dim] for stride > 0, [-1, dim - 1] otherwise
  int32_t stop[kStridedSliceDims] = {1, 1, 1, 1, 1};    // same ranges as start
  int32_t stride[kStridedSliceDims] = {1, 1, 1, 1, 1};  // non-zero
};

void stridedSlice8(const StridedSliceParams& p, const uint8_t* input, uint8_t* output);
void stridedSlice16(const StridedSliceParams& p, const uint16_t* input, uint16_t* output);
void stridedSlice32(const StridedSliceParams& p, const uint32_t* input, uint32_t* output);

}  // namespace hilsim::kernels
