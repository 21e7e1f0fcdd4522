#pragma once
// Integer requantization with TensorFlow Lite Micro's exact arithmetic (gemmlowp double rounding).
// Freestanding: used by the host runtime and cross-compiled into the firmware.

#include <cstdint>

namespace hilsim::kernels {

// int32 addition that wraps modulo 2^32 the way TFLite Micro's accumulators do on the machines it
// runs on, instead of overflowing (undefined behaviour) when a corrupt or extreme model makes a
// sum leave the int32 range.
inline int32_t wrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

// gemmlowp's form: the product and its rounding are computed before the one overflowing case is
// selected.
inline int32_t saturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  const bool overflow = a == b && a == INT32_MIN;
  const int64_t ab = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int32_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
  const auto high = static_cast<int32_t>((ab + nudge) / (int64_t{1} << 31));
  return overflow ? INT32_MAX : high;
}

// Rounds half away from zero: x / 2^exponent, exponent in [0, 31].
inline int32_t roundingDivideByPOT(int32_t x, int exponent) {
  const int32_t mask = static_cast<int32_t>((int64_t{1} << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

// TFLite's MultiplyByQuantizedMultiplier(int32_t x, int32_t multiplier, int shift).
inline int32_t multiplyByQuantizedMultiplier(int32_t x, int32_t multiplier, int shift) {
  const int left_shift = shift > 0 ? shift : 0;
  const int right_shift = shift > 0 ? 0 : -shift;
  // The left shift is done in 32 bits like TFLite (wraps for out-of-range inputs).
  const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << left_shift);
  return roundingDivideByPOT(saturatingRoundingDoublingHighMul(shifted, multiplier), right_shift);
}

// multiplyByQuantizedMultiplier as a function of its own translation unit
// (kernels/src/quant_math.cpp), so a kernel calls it instead of inlining it: the per-output
// requantization of the reference CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED, whose cost then
// includes the call, as TFLite Micro's does (its MultiplyByQuantizedMultiplier lives in common.cc).
int32_t multiplyByQuantizedMultiplierCall(int32_t x, int32_t multiplier, int shift);

// TFLite's MultiplyByQuantizedMultiplierSmallerThanOneExp: multiplyByQuantizedMultiplier for a
// shift <= 0 (no left shift), inline, as the quantized ADD and SUB use it.
inline int32_t multiplyByQuantizedMultiplierSmallerThanOne(int32_t x, int32_t multiplier,
                                                           int shift) {
  return roundingDivideByPOT(saturatingRoundingDoublingHighMul(x, multiplier), -shift);
}

// TFLite's MultiplyByQuantizedMultiplier(int64_t x, int32_t multiplier, int shift), used by the
// int16 kernels: the multiplier reduced to 16 bits, one 64-bit product and a single
// round-half-up shift, the result truncated to 32 bits. Meant for |x| < 2^47, shift in [-31, 7].
inline int32_t multiplyByQuantizedMultiplier64(int64_t x, int32_t multiplier, int shift) {
  const int32_t reduced_multiplier =
      multiplier < 0x7FFF0000 ? ((multiplier + (1 << 15)) >> 16) : 0x7FFF;
  const int total_shift = 15 - shift;
  const int64_t round = int64_t{1} << (total_shift - 1);
  // Wrapping arithmetic: out-of-range inputs from corrupt models must not be undefined.
  const uint64_t product =
      static_cast<uint64_t>(x) * static_cast<uint64_t>(int64_t{reduced_multiplier});
  const int64_t result =
      static_cast<int64_t>(product + static_cast<uint64_t>(round)) >> total_shift;
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(result)));
}

}  // namespace hilsim::kernels
