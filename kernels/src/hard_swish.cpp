#include "hilsim/kernels/hard_swish.h"

#include <algorithm>
#include <limits>

namespace hilsim::kernels {
namespace {

constexpr int32_t kInt16Min = std::numeric_limits<int16_t>::min();
constexpr int32_t kInt16Max = std::numeric_limits<int16_t>::max();

int16_t toInt16Wrapping(int32_t x) {
  return static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint32_t>(x)));
}

// gemmlowp's SaturatingRoundingDoublingHighMul on int16 values.
int16_t roundingDoublingHighMul16(int16_t a, int16_t b) {
  if (a == kInt16Min && b == kInt16Min) return static_cast<int16_t>(kInt16Max);
  const int32_t ab = int32_t{a} * int32_t{b};
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return toInt16Wrapping((ab + nudge) / (1 << 15));
}

// The same, truncating instead of rounding (ARM's SQDMULH).
int16_t doublingHighMul16(int16_t a, int16_t b) {
  if (a == kInt16Min && b == kInt16Min) return static_cast<int16_t>(kInt16Max);
  return toInt16Wrapping((int32_t{a} * int32_t{b}) / (1 << 15));
}

// gemmlowp's RoundingDivideByPOT evaluated in int16, exponent in [0, 31]: for exponents of 16 and
// more the int16 mask wraps to -1, so the result is 1 for x >= 0 and -1 for x < 0, as there.
int16_t roundingDivideByPOT16(int16_t x, int32_t exponent) {
  const int32_t mask = toInt16Wrapping(static_cast<int32_t>((int64_t{1} << exponent) - 1));
  const int32_t remainder = toInt16Wrapping(x & mask);
  const int32_t threshold = toInt16Wrapping((mask >> 1) + (x < 0 ? 1 : 0));
  return toInt16Wrapping((int32_t{x} >> exponent) + (remainder > threshold ? 1 : 0));
}

int16_t saturatingLeftShift16(int16_t value, int32_t amount) {
  const int64_t shifted = int64_t{value} * (int64_t{1} << amount);
  return static_cast<int16_t>(std::clamp<int64_t>(shifted, kInt16Min, kInt16Max));
}

}  // namespace

void hardSwishInt8(const HardSwishParams& p, const int8_t* input, int8_t* output) {
  for (int32_t i = 0; i < p.count; ++i) {
    const int16_t centered = toInt16Wrapping(int32_t{input[i]} - p.input_zero_point);
    const int16_t hires = toInt16Wrapping(int32_t{centered} * (1 << 7));
    const int16_t preshift_output =
        roundingDoublingHighMul16(hires, p.output_multiplier_fixedpoint_int16);

    // Rescale to the reluish scale; in the left-shift case all but the last bit of the shift
    // come first, so that only the last one can saturate.
    int16_t reluish = hires;
    if (p.reluish_multiplier_exponent > 0)
      reluish = saturatingLeftShift16(reluish, p.reluish_multiplier_exponent - 1);
    reluish = roundingDoublingHighMul16(reluish, p.reluish_multiplier_fixedpoint_int16);
    if (p.reluish_multiplier_exponent > 0) reluish = saturatingLeftShift16(reluish, 1);
    if (p.reluish_multiplier_exponent < 0)
      reluish = roundingDivideByPOT16(reluish, -p.reluish_multiplier_exponent);
    // [-1, 1] -> [0, 1].
    reluish = toInt16Wrapping((int32_t{reluish} + (1 << 15)) >> 1);

    const int16_t preshift_product = doublingHighMul16(reluish, preshift_output);
    int16_t value = roundingDivideByPOT16(preshift_product, -p.output_multiplier_exponent);
    value = toInt16Wrapping(int32_t{value} + p.output_zero_point);
    output[i] = static_cast<int8_t>(std::clamp<int32_t>(value, -128, 127));
  }
}

void hardSwishFloat(int32_t count, const float* input, float* output) {
  for (int32_t i = 0; i < count; ++i) {
    const float x = input[i];
    output[i] = x * std::min(6.0f, std::max(0.0f, x + 3.0f)) / 6.0f;
  }
}

}  // namespace hilsim::kernels
