#pragma once
// SOFTMAX over the last dimension, TensorFlow Lite Micro's arithmetic (softmax_common.cc,
// reference/softmax.h):
//   float32: per row, max, then exp((x - max) * beta) and their sum in float32, then each exp
//     divided by the sum;
//   int8 -> int8 / int16: gemmlowp fixed point: the difference from the row max scaled by
//     input_multiplier << input_left_shift into Q5.26, exp in Q0 (differences below diff_min
//     give 0), the sum in Q12.19 wrapping in 32 bits, its reciprocal, and each output
//     reciprocal * exp shifted to the output width, offset to the type's minimum and clamped.
// Freestanding: a row whose sum of exps leaves the Q12.19 format is reported, not thrown.

#include <cstdint>

namespace hilsim::kernels {

struct SoftmaxFloatParams {
  int32_t rows = 0;
  int32_t depth = 0;  // the last dimension
  float beta = 0.0f;
};

struct SoftmaxInt8Params {
  int32_t rows = 0;
  int32_t depth = 0;
  int32_t input_multiplier = 0;  // beta * input scale * 2^26 as a Q31 multiplier ...
  int32_t input_left_shift = 0;  // ... and its left shift
  int32_t diff_min = 0;          // differences from the row max below this give exactly 0
};

enum class SoftmaxStatus : uint8_t {
  kOk,
  kSumOfExpsOverflow,  // a row's sum of exps overflowed Q12.19 (TFLite Micro stops there too)
};

void softmaxFloat(const SoftmaxFloatParams& p, const float* input, float* output);

// On kSumOfExpsOverflow, *failed_row is the row and rows from it on are not (fully) written.
[[nodiscard]] SoftmaxStatus softmaxInt8ToInt8(const SoftmaxInt8Params& p, const int8_t* input,
                                              int8_t* output, int32_t* failed_row);
[[nodiscard]] SoftmaxStatus softmaxInt8ToInt16(const SoftmaxInt8Params& p, const int8_t* input,
                                               int16_t* output, int32_t* failed_row);

}  // namespace hilsim::kernels
