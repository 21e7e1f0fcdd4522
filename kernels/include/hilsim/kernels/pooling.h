#pragma once
// MAX_POOL_2D with TensorFlow Lite Micro's arithmetic (reference/pooling.h,
// reference/integer_ops/pooling.h) over NHWC tensors: the largest of the window's taps that lie
// inside the input, starting from the type's lowest value, then clamped to the activation range
// (int8, int16, float32). Freestanding.

#include <cstdint>

#include "hilsim/kernels/conv_window.h"

namespace hilsim::kernels {

struct PoolParams {
  WindowGeometry geo;   // filter = pooling window, out_c = in_c, no dilation
  int32_t act_min = 0;  // integer types: activation range in the output type
  int32_t act_max = 0;
  float act_min_f = 0.0f;  // float32
  float act_max_f = 0.0f;
};

void maxPoolInt8(const PoolParams& p, const int8_t* input, int8_t* output);
void maxPoolInt16(const PoolParams& p, const int16_t* input, int16_t* output);
void maxPoolFloat32(const PoolParams& p, const float* input, float* output);

}  // namespace hilsim::kernels
