#pragma once
// The output stage shared by the optimized kernels: TensorFlow Lite Micro's requantization of a
// biased int32 accumulator (MultiplyByQuantizedMultiplier with gemmlowp rounding), the output
// zero point and the activation clamp. Freestanding.

#include <cstdint>

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
#endif

namespace hilsim::kernels::opt {

// MultiplyByQuantizedMultiplier(acc, multiplier, shift), shift in [-31, 31], without branches
// on the sign of the product. gemmlowp's SaturatingRoundingDoublingHighMul adds 2^30 to a
// non-negative product and 1 - 2^30 to a negative one, then divides by 2^31 rounding toward
// zero; for a negative dividend n, truncation is floor((n + 2^31 - 1) / 2^31), so both cases
// are floor((product + 2^30) / 2^31): one 64-bit add and an arithmetic shift. The only
// saturating case, INT32_MIN * INT32_MIN, is kept. requantizeShifts takes the shift split into
// left = max(shift, 0) and right = max(-shift, 0), for loops that requantize many values with
// one shift; requantize takes the shift.
inline int32_t requantizeShifts(int32_t acc, int32_t multiplier, int32_t left, int32_t right) {
  const int32_t x = static_cast<int32_t>(static_cast<uint32_t>(acc) << left);
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  // (product + 2^30) >> 31 is twice the upper word plus the lower word's top bit. The upper
  // word lies in [-2^30, 2^30], and 2^30 only for INT32_MIN * INT32_MIN: QADD doubles it with
  // saturation, which gives that case's INT32_MAX without a compare.
  const uint64_t sum = static_cast<uint64_t>(int64_t{x} * int64_t{multiplier} + (int64_t{1} << 30));
  const int32_t upper = static_cast<int32_t>(static_cast<uint32_t>(sum >> 32));
  const int32_t high = static_cast<int32_t>(static_cast<uint32_t>(__qadd(upper, upper)) |
                                            (static_cast<uint32_t>(sum) >> 31));
#else
  int32_t high;
  if (x == INT32_MIN && multiplier == INT32_MIN) {
    high = INT32_MAX;
  } else {
    high = static_cast<int32_t>((int64_t{x} * int64_t{multiplier} + (int64_t{1} << 30)) >> 31);
  }
#endif
  // Rounding right shift, half away from zero (gemmlowp's RoundingDivideByPOT).
  const int32_t mask = static_cast<int32_t>((uint32_t{1} << right) - 1u);
  const int32_t remainder = high & mask;
  const int32_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
  return (high >> right) + (remainder > threshold ? 1 : 0);
}

// The shift's two parts in bit operations (max(shift, 0) and max(-shift, 0)): written as
// conditionals, compilers split the whole output stage into a branch per sign of the shift.
inline int32_t requantize(int32_t acc, int32_t multiplier, int32_t shift) {
  const int32_t negative = shift >> 31;  // all ones when shift < 0
  const int32_t left = shift & ~negative;
  const int32_t right = static_cast<int32_t>(0u - static_cast<uint32_t>(shift)) & negative;
  return requantizeShifts(acc, multiplier, left, right);
}

inline int8_t requantizeToInt8(int32_t acc, int32_t multiplier, int32_t shift,
                               int32_t output_offset, int32_t act_min, int32_t act_max) {
  int32_t v = requantize(acc, multiplier, shift);
  v = static_cast<int32_t>(static_cast<uint32_t>(v) + static_cast<uint32_t>(output_offset));
  v = v < act_min ? act_min : v;
  v = v > act_max ? act_max : v;
  return static_cast<int8_t>(v);
}

}  // namespace hilsim::kernels::opt
