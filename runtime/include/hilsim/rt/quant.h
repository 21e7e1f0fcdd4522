#pragma once
// Fixed-point helpers with TensorFlow Lite Micro's exact arithmetic (gemmlowp double rounding).

#include <cstdint>

namespace hilsim::rt {

struct QuantizedMultiplier {
  int32_t multiplier = 0;  // Q31 mantissa in [2^30, 2^31), or 0
  int shift = 0;           // positive: left shift
};

// TFLite's QuantizeMultiplier: frexp, round to Q31, renormalise 2^31, flush below 2^-31 to zero.
// Throws ModelError for a multiplier that is negative, not finite or 2^31 or more (no int32
// left shift can apply it; such scales come only from corrupt quantization parameters).
QuantizedMultiplier quantizeMultiplier(double real_multiplier);

// int32 addition that wraps modulo 2^32 the way TFLite Micro's accumulators do on the machines it
// runs on, instead of overflowing (undefined behaviour) when a corrupt or extreme model makes a
// sum leave the int32 range.
inline int32_t wrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

inline int32_t saturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  const int64_t ab = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  return static_cast<int32_t>((ab + nudge) / (int64_t{1} << 31));
}

// Rounds half away from zero: x / 2^exponent, exponent in [0, 31].
inline int32_t roundingDivideByPOT(int32_t x, int exponent) {
  const int32_t mask = static_cast<int32_t>((int64_t{1} << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

inline int32_t multiplyByQuantizedMultiplier(int32_t x, int32_t multiplier, int shift) {
  const int left_shift = shift > 0 ? shift : 0;
  const int right_shift = shift > 0 ? 0 : -shift;
  // The left shift is done in 32 bits like TFLite (wraps for out-of-range inputs).
  const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << left_shift);
  return roundingDivideByPOT(saturatingRoundingDoublingHighMul(shifted, multiplier), right_shift);
}

}  // namespace hilsim::rt
