#pragma once
// PAD and PADV2 with TensorFlow Lite Micro's layout (reference/pad.h): the tensor is viewed as 5
// dimensions (leading ones added), and every output element outside [left, dim - right) in some
// dimension takes the pad value; the others take the input elements in order. Freestanding.

#include <cstdint>

namespace hilsim::kernels {

constexpr int32_t kPadDims = 5;

struct PadParams {
  int32_t output_dims[kPadDims] = {1, 1, 1, 1, 1};  // right-aligned, leading ones
  int32_t left[kPadDims] = {};                      // padding before, per dimension, >= 0
  int32_t right[kPadDims] = {};                     // padding after, per dimension, >= 0
};

void padInt8(const PadParams& p, const int8_t* input, int8_t pad_value, int8_t* output);
void padInt16(const PadParams& p, const int16_t* input, int16_t pad_value, int16_t* output);
void padInt32(const PadParams& p, const int32_t* input, int32_t pad_value, int32_t* output);
void padFloat32(const PadParams& p, const float* input, float pad_value, float* output);

}  // namespace hilsim::kernels
