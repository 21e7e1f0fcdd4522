#pragma once
// SOFTMAX over the last dimension, TensorFlow Lite Micro's arithmetic (softmax_common.cc,
// reference/softmax.h):
//   float32: per row, max, then exp((x - max) * beta) and their sum in float32, then each exp
//     divided by the sum;
//   int8 -> int8 / int16: gemmlowp fixed point: the difference from the row max scaled by
//     input_multiplier << input_left_shift into Q5.26, exp in Q0 (differences below diff_min
//     give 0), the sum in Q12.19 wrapping in 32 bits, its reciprocal, and each output
//     reciprocal * exp shifted to the output width, offset to the type's minimum and clamped.
//   int16 -> int16: per row, the difference from the row max times input_multiplier
//     (MultiplyByQuantizedMultiplier, so [-65535, 0] maps to [-10, 0] in beta * scale units)
//     offset by 32767 and saturated to int16 is looked up in the exp table (Q0.15); the int32 sum
//     of those is normalised to its leading bit, offset into [-32768, 32767] and looked up in the
//     1/(1 + x) table; each output is exp * reciprocal rounded and shifted back, clamped to
//     [0, 32767]. Both tables have kInt16LutEntries entries and are filled at prepare time
//     (the runtime's int16 LUT generation); lookups interpolate as lutLookupInt16 describes.
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

struct SoftmaxInt16Params {
  int32_t rows = 0;
  int32_t depth = 0;             // at most kSoftmaxInt16MaxDepth, so the sum of exps fits int32
  int32_t input_multiplier = 0;  // input scale * beta / (10 / 65535) as a Q31 multiplier ...
  int32_t input_left_shift = 0;  // ... and its shift (positive: left)
};

// 512 intervals over the int16 range plus the end of the last one.
constexpr int32_t kInt16LutEntries = 513;
// Every exp is at most 32767, so a row of up to 65538 of them sums within int32.
constexpr int32_t kSoftmaxInt16MaxDepth = 65538;

// TensorFlow Lite's int16 table lookup: the top 9 bits of `value` (offset by 256) pick the
// interval, its low 7 bits interpolate linearly to the next entry, rounding half up; the slope
// between two entries is taken in int16 as TFLite does.
inline int16_t lutLookupInt16(int16_t value, const int16_t* lut) {
  const int32_t index = 256 + (int32_t{value} >> 7);
  const int32_t offset = int32_t{value} & 0x7f;
  const int16_t base = lut[index];
  const int16_t slope = static_cast<int16_t>(lut[index + 1] - lut[index]);
  const int32_t delta = (int32_t{slope} * offset + 64) >> 7;
  return static_cast<int16_t>(base + delta);
}

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

// `exp_lut`: exp over [-10, 0]; `reciprocal_lut`: 1 / (1 + x) over [0, 1]; both map their
// input range onto [-32768, 32767] and their output range [-1, 1] onto int16.
void softmaxInt16(const SoftmaxInt16Params& p, const int16_t* input, const int16_t* exp_lut,
                  const int16_t* reciprocal_lut, int16_t* output);

}  // namespace hilsim::kernels
