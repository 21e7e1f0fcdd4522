#pragma once
// gemmlowp's scalar fixed-point arithmetic (fixedpoint/fixedpoint.h) on raw int32 values, as
// TensorFlow Lite Micro's quantized SOFTMAX uses it. A value with I integer bits stands for
// raw / 2^(31 - I); "Q0" values lie in [-1, 1) and their "one" saturates to INT32_MAX.
// Every function reproduces gemmlowp's rounding and saturation exactly. Freestanding.

#include <cstdint>
#include <limits>

#include "hilsim/kernels/quant_math.h"

namespace hilsim::kernels::fixed_point {

constexpr int32_t kRawMax = std::numeric_limits<int32_t>::max();
constexpr int32_t kRawMin = std::numeric_limits<int32_t>::min();

// Product of two fixed-point values; the integer bits of the result are the sum of both.
inline int32_t mul(int32_t a, int32_t b) {
  return saturatingRoundingDoublingHighMul(a, b);
}

// (a + b) / 2 rounded half away from zero.
inline int32_t roundingHalfSum(int32_t a, int32_t b) {
  const int64_t sum = int64_t{a} + int64_t{b};
  const int64_t sign = sum >= 0 ? 1 : -1;
  return static_cast<int32_t>((sum + sign) / 2);
}

// x * 2^exponent: a saturating left shift for exponent > 0, a rounding right shift (half away
// from zero) for exponent < 0. exponent in [-31, 31].
inline int32_t saturatingRoundingMultiplyByPOT(int32_t x, int exponent) {
  if (exponent == 0) return x;
  if (exponent < 0) return roundingDivideByPOT(x, -exponent);
  const int32_t threshold = static_cast<int32_t>((int64_t{1} << (31 - exponent)) - 1);
  if (x > threshold) return kRawMax;
  if (x < -threshold) return kRawMin;
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}

// Changes the number of integer bits of a value from src_bits to dst_bits.
inline int32_t rescale(int32_t x, int src_bits, int dst_bits) {
  return saturatingRoundingMultiplyByPOT(x, src_bits - dst_bits);
}

// exp(a) for a Q0 value a in [-1/4, 0): Taylor expansion around -1/8. Returns Q0.
inline int32_t expOnIntervalBetweenNegativeOneQuarterAnd0Excl(int32_t a) {
  constexpr int32_t kExpMinusOneEighth = 1895147668;  // exp(-1/8) in Q0
  constexpr int32_t kOneThird = 715827883;            // 1/3 in Q0
  constexpr int32_t kOneEighth = int32_t{1} << 28;    // 1/8 in Q0
  const int32_t x = a + kOneEighth;
  const int32_t x2 = mul(x, x);
  const int32_t x3 = mul(x2, x);
  const int32_t x4 = mul(x2, x2);
  const int32_t x4_over_4 = saturatingRoundingMultiplyByPOT(x4, -2);
  const int32_t poly = saturatingRoundingMultiplyByPOT(mul(x4_over_4 + x3, kOneThird) + x2, -1);
  return kExpMinusOneEighth + mul(kExpMinusOneEighth, x + poly);
}

// exp(a) for a <= 0 given with kIntegerBits integer bits. Returns Q0 (exp(0) is INT32_MAX).
template <int kIntegerBits>
int32_t expOnNegativeValues(int32_t a) {
  static_assert(kIntegerBits >= 0 && kIntegerBits < 31, "bad integer bits");
  constexpr int kFractionalBits = 31 - kIntegerBits;
  constexpr int32_t kOneQuarter = int32_t{1} << (kFractionalBits - 2);
  const int32_t a_mod_quarter_minus_one_quarter = (a & (kOneQuarter - 1)) - kOneQuarter;
  int32_t result = expOnIntervalBetweenNegativeOneQuarterAnd0Excl(
      rescale(a_mod_quarter_minus_one_quarter, kIntegerBits, 0));
  const int32_t remainder = a_mod_quarter_minus_one_quarter - a;

  // Multiply in exp(-2^k) for every bit k of the remainder, k = -2 .. 4.
  constexpr int32_t kExpOfMinusPowerOfTwo[] = {1672461947, 1302514674, 790015084, 290630308,
                                               39332535,   720401,     242};
  for (int k = -2; k <= 4; ++k) {
    if (kIntegerBits > k && (remainder & (int32_t{1} << (kFractionalBits + k))) != 0)
      result = mul(result, kExpOfMinusPowerOfTwo[k + 2]);
  }
  if constexpr (kIntegerBits > 5) {
    constexpr int32_t kMinusThirtyTwo = -(int32_t{1} << (36 - kIntegerBits));
    if (a < kMinusThirtyTwo) result = 0;
  }
  return a == 0 ? kRawMax : result;
}

// 1 / (1 + a) for a Q0 value a in [0, 1): three Newton-Raphson steps. Returns Q0.
inline int32_t oneOverOnePlusXForXIn0To1(int32_t a) {
  constexpr int32_t kFortyEightOverSeventeen = 1515870810;       // Q2
  constexpr int32_t kMinusThirtyTwoOverSeventeen = -1010580540;  // Q2
  constexpr int32_t kOneQ2 = int32_t{1} << 29;
  const int32_t half_denominator = roundingHalfSum(a, kRawMax);
  int32_t x = kFortyEightOverSeventeen + mul(half_denominator, kMinusThirtyTwoOverSeventeen);
  for (int i = 0; i < 3; ++i) {
    const int32_t one_minus_half_denominator_times_x = kOneQ2 - mul(half_denominator, x);
    x = x + rescale(mul(x, one_minus_half_denominator_times_x), 4, 2);
  }
  // x / 2, taken from two integer bits (viewed as one) back to Q0.
  return rescale(x, 1, 0);
}

// Number of leading zero bits of x (32 for 0).
inline int countLeadingZeros(uint32_t x) {
  return x == 0 ? 32 : __builtin_clz(x);
}

// Reciprocal of a positive value x with x_integer_digits integer bits, as TFLite's
// GetReciprocal: returns 1 / x scaled into Q0 and the power of two it was scaled by
// (*num_bits_over_unit: 1 / x = result * 2^-num_bits_over_unit).
inline int32_t getReciprocal(int32_t x, int x_integer_digits, int* num_bits_over_unit) {
  const int headroom_plus_one = countLeadingZeros(static_cast<uint32_t>(x));
  *num_bits_over_unit = x_integer_digits - headroom_plus_one;
  const int32_t shifted_minus_one =
      static_cast<int32_t>((static_cast<uint32_t>(x) << headroom_plus_one) - (uint32_t{1} << 31));
  return oneOverOnePlusXForXIn0To1(shifted_minus_one);
}

// TFLite's MultiplyByQuantizedMultiplierGreaterThanOne (double rounding variant): one
// rounding doubling high multiply after an exact left shift.
inline int32_t multiplyByQuantizedMultiplierGreaterThanOne(int32_t x, int32_t multiplier,
                                                           int left_shift) {
  const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << left_shift);
  return saturatingRoundingDoublingHighMul(shifted, multiplier);
}

}  // namespace hilsim::kernels::fixed_point
