#pragma once
// MAX_POOL_2D and AVERAGE_POOL_2D with TensorFlow Lite Micro's arithmetic (reference/pooling.h,
// reference/integer_ops/pooling.h) over NHWC tensors. Only the taps of a window that lie inside
// the input count.
//   max:     the largest tap, starting from the type's lowest value, then clamped to the
//            activation range (int8, int16, float32).
//   average: the int32 sum of the raw taps divided by their count, rounded half away from zero,
//            then clamped (int8 and int16; input and output share their quantization).
// Freestanding.

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

// Every window must cover at least one input element (poolWindowsCoverInput). `acc` is scratch
// for in_c int32 accumulators, used by the optimized library's kernels of the same signature (the
// reference kernel sums one channel at a time, as TFLite Micro's does).
void averagePoolInt8(const PoolParams& p, const int8_t* input, int32_t* acc, int8_t* output);
void averagePoolInt16(const PoolParams& p, const int16_t* input, int32_t* acc, int16_t* output);

// sum / count rounded half away from zero (C++ division truncates, so half the count is added
// with the sum's sign); count > 0.
inline int32_t roundedAverage(int32_t sum, int32_t count) {
  return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

// Whether every pooling window of `g` has at least one tap inside the input.
bool poolWindowsCoverInput(const WindowGeometry& g);

}  // namespace hilsim::kernels
