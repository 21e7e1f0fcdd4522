// The fixed-point helpers at their edges. Every expected value is worked out by hand from the
// arithmetic in ../shared/golden/README.md (noted beside it), not by calling the code under test.
// The core's independent requantization (datapath/) must agree on every case.

#include <gtest/gtest.h>

#include <climits>
#include <cmath>

#include "hilsim/core/datapath.h"
#include "hilsim/rt/quant.h"

namespace hilsim::rt {
namespace {

TEST(QuantizeMultiplier, ExactPowersAndMantissas) {
  // m = 0 gives (0, 0).
  EXPECT_EQ(quantizeMultiplier(0.0).multiplier, 0);
  EXPECT_EQ(quantizeMultiplier(0.0).shift, 0);
  // frexp(0.5) = 0.5 * 2^0: q = 2^30.
  EXPECT_EQ(quantizeMultiplier(0.5).multiplier, 1073741824);
  EXPECT_EQ(quantizeMultiplier(0.5).shift, 0);
  // frexp(1.0) = 0.5 * 2^1.
  EXPECT_EQ(quantizeMultiplier(1.0).multiplier, 1073741824);
  EXPECT_EQ(quantizeMultiplier(1.0).shift, 1);
  // frexp(0.75) = 0.75 * 2^0: 0.75 * 2^31 = 1610612736.
  EXPECT_EQ(quantizeMultiplier(0.75).multiplier, 1610612736);
  // frexp(2^29) = 0.5 * 2^30: the largest left shift the kernels use.
  EXPECT_EQ(quantizeMultiplier(std::ldexp(1.0, 29)).shift, 30);
}

TEST(QuantizeMultiplier, RoundsUpToTwoToThe31AndRenormalises) {
  // (1 - 2^-40) * 2^31 rounds to 2^31, which is halved to 2^30 with the shift raised to 1.
  const QuantizedMultiplier q = quantizeMultiplier(1.0 - std::ldexp(1.0, -40));
  EXPECT_EQ(q.multiplier, 1073741824);
  EXPECT_EQ(q.shift, 1);
}

TEST(QuantizeMultiplier, FlushesBelowTwoToTheMinus32ToZero) {
  // 2^-32 = 0.5 * 2^-31: shift -31 is kept.
  EXPECT_EQ(quantizeMultiplier(std::ldexp(1.0, -32)).multiplier, 1073741824);
  EXPECT_EQ(quantizeMultiplier(std::ldexp(1.0, -32)).shift, -31);
  // 2^-33 = 0.5 * 2^-32: shift < -31, both become 0.
  EXPECT_EQ(quantizeMultiplier(std::ldexp(1.0, -33)).multiplier, 0);
  EXPECT_EQ(quantizeMultiplier(std::ldexp(1.0, -33)).shift, 0);
}

TEST(FixedPointHelpers, SaturatingRoundingDoublingHighMul) {
  // Both INT32_MIN: the one overflow saturates.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(INT32_MIN, INT32_MIN), INT32_MAX);
  // (-2^31 * (2^31 - 1) + 1 - 2^30) / 2^31 = -2147483647.49..., truncated toward zero.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(INT32_MIN, INT32_MAX), -2147483647);
  // (2^60 + 2^30) / 2^31 = 2^29 + 0.5, truncated.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(1 << 30, 1 << 30), 536870912);
  // Ties: 3 * 2^30 * 2 / 2^32 = 1.5 -> (3*2^30 + 2^30) / 2^31 = 2.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(3, 1 << 30), 2);
  // -1.5 -> (-3*2^30 + 1 - 2^30) / 2^31 = -2 + 2^-31, truncated toward zero: -1.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(-3, 1 << 30), -1);
}

TEST(FixedPointHelpers, RoundingDivideByPowerOfTwo) {
  // 5 / 2 = 2.5: remainder 1 > threshold 0 -> 3.
  EXPECT_EQ(roundingDivideByPOT(5, 1), 3);
  // -5 / 2 = -2.5: remainder 1, threshold 0 + 1 = 1, not greater -> -5 >> 1 = -3.
  EXPECT_EQ(roundingDivideByPOT(-5, 1), -3);
  // -6 / 4 = -1.5: remainder 2, threshold 1 + 1 = 2 -> -6 >> 2 = -2.
  EXPECT_EQ(roundingDivideByPOT(-6, 2), -2);
  // -5 / 4 = -1.25: remainder 3 > threshold 2 -> -2 + 1 = -1.
  EXPECT_EQ(roundingDivideByPOT(-5, 2), -1);
  // INT32_MIN / 2^31 = -1 exactly.
  EXPECT_EQ(roundingDivideByPOT(INT32_MIN, 31), -1);
  // INT32_MAX / 2^31 = 0.99999...: remainder 2^31 - 1 > threshold 2^30 - 1 -> 1.
  EXPECT_EQ(roundingDivideByPOT(INT32_MAX, 31), 1);
  EXPECT_EQ(roundingDivideByPOT(7, 0), 7);
}

struct Case {
  int32_t x, multiplier, shift, expected;
};

// MultiplyByQuantizedMultiplier = RDBPOT(SRDHM(x << max(shift, 0), M), max(-shift, 0)).
const Case kCases[] = {
    // Left shift +30: 1 << 30 = 2^30; SRDHM(2^30, 2^30) = 2^29.
    {1, 1 << 30, 30, 536870912},
    // Right shift 31: SRDHM(2^30, 2^30) = 2^29; 2^29 / 2^31 = 0.25 -> 0.
    {1 << 30, 1 << 30, -31, 0},
    // SRDHM(INT32_MAX, INT32_MAX) = 2147483646 (2^31 - 2 + 0.50..., truncated); / 2^31 -> 1.
    {INT32_MAX, INT32_MAX, -31, 1},
    // A flushed multiplier gives 0 for any input: SRDHM(x, 0) = 2^30 / 2^31 truncated = 0.
    {123456, 0, 0, 0},
    {INT32_MIN, 0, 0, 0},
    // Both signs at a tie after the right shift: 3 * 0.5 = 1.5 -> SRDHM(3, 2^30) = 2 exactly.
    {3, 1 << 30, 0, 2},
    // -3 * 0.5: SRDHM = -1 (see above), no shift.
    {-3, 1 << 30, 0, -1},
    // 100 * 0.5 / 8 = 6.25: SRDHM(100, 2^30) = 50; 50 / 8 = 6.25 -> 6.
    {100, 1 << 30, -3, 6},
    // -100: SRDHM = -50; -50 / 8 = -6.25 -> remainder 6, threshold 4: -7 + 1 = -6.
    {-100, 1 << 30, -3, -6},
    // -108 * 0.5 / 8 = -6.75: SRDHM = -54; remainder 2 (of 8), threshold 4 -> -7.
    {-108, 1 << 30, -3, -7},
    // INT32_MIN * 0.5 = -2^30 exactly.
    {INT32_MIN, 1 << 30, 0, -1073741824},
};

TEST(FixedPointHelpers, MultiplyByQuantizedMultiplier) {
  for (const Case& c : kCases) {
    EXPECT_EQ(multiplyByQuantizedMultiplier(c.x, c.multiplier, c.shift), c.expected)
        << c.x << " * " << c.multiplier << " shift " << c.shift;
    // The core's requantization is written separately and must agree.
    EXPECT_EQ(core::requantize(c.x, c.multiplier, c.shift), c.expected)
        << "core: " << c.x << " * " << c.multiplier << " shift " << c.shift;
  }
}

}  // namespace
}  // namespace hilsim::rt
