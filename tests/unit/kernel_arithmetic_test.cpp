// Arithmetic helpers of the reference kernels: gemmlowp fixed point (softmax), window padding
// (convolution, pooling) and the pooling average. Expected values were worked out by hand from
// gemmlowp's and TFLite's formulas, or with an independent big-integer evaluation of those
// formulas (Python), never with the code under test.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "hilsim/kernels/fixed_point.h"
#include "hilsim/rt/kernels/padding.h"
#include "hilsim/rt/kernels/pooling.h"

namespace hilsim::rt {
namespace {

namespace fp = kernels::fixed_point;

constexpr double kTwoTo31 = 2147483648.0;
constexpr int32_t kOneQ5 = int32_t{1} << 26;  // 1.0 with 5 integer bits

TEST(FixedPoint, RoundingHalfSumRoundsAwayFromZero) {
  EXPECT_EQ(fp::roundingHalfSum(3, 4), 4);     // 3.5
  EXPECT_EQ(fp::roundingHalfSum(-3, -4), -4);  // -3.5
  EXPECT_EQ(fp::roundingHalfSum(1, -2), -1);   // -0.5
  EXPECT_EQ(fp::roundingHalfSum(2, 4), 3);
  // No overflow at the ends of the range: (2^31 - 1 + 2^31 - 1 + 1) / 2.
  EXPECT_EQ(fp::roundingHalfSum(INT32_MAX, INT32_MAX), INT32_MAX);
}

TEST(FixedPoint, MultiplyByPowerOfTwoSaturatesLeftAndRoundsRight) {
  EXPECT_EQ(fp::saturatingRoundingMultiplyByPOT(1 << 28, 2), 1 << 30);
  // Threshold for a shift of 2 is 2^29 - 1.
  EXPECT_EQ(fp::saturatingRoundingMultiplyByPOT((1 << 29) - 1, 2), INT32_MAX - 3);
  EXPECT_EQ(fp::saturatingRoundingMultiplyByPOT(1 << 29, 2), INT32_MAX);
  EXPECT_EQ(fp::saturatingRoundingMultiplyByPOT(-(1 << 29) + 1, 2), INT32_MIN + 4);
  EXPECT_EQ(fp::saturatingRoundingMultiplyByPOT(-(1 << 29), 2), INT32_MIN);
  EXPECT_EQ(fp::saturatingRoundingMultiplyByPOT(5, -1), 3);    // 2.5 -> 3
  EXPECT_EQ(fp::saturatingRoundingMultiplyByPOT(-5, -1), -3);  // -2.5 -> -3
  EXPECT_EQ(fp::saturatingRoundingMultiplyByPOT(-6, -2), -2);  // -1.5 -> -2
  EXPECT_EQ(fp::saturatingRoundingMultiplyByPOT(7, 0), 7);
  // Rescale Q0 -> Q12 is a rounding right shift by 12.
  EXPECT_EQ(fp::rescale(INT32_MAX, 0, 12), 1 << 19);
}

TEST(FixedPoint, ExpOnNegativeValuesMatchesGemmlowp) {
  // exp(0) is "one", which saturates in Q0.
  EXPECT_EQ(fp::expOnNegativeValues<5>(0), INT32_MAX);
  // -1/4: no barrel-shifter step, only the Taylor polynomial around -1/8.
  EXPECT_EQ(fp::expOnNegativeValues<5>(-(1 << 24)), 1672462419);
  // -1: polynomial at -1/4 times exp(-1/4) and exp(-1/2).
  EXPECT_EQ(fp::expOnNegativeValues<5>(-kOneQ5), 790015308);
  // -1.5.
  EXPECT_EQ(fp::expOnNegativeValues<5>(-(3 << 25)), 479168506);
  // The smallest step below zero.
  EXPECT_EQ(fp::expOnNegativeValues<5>(-1), 2147483124);
  // Far below: every barrel step multiplies the result down to 0.
  EXPECT_EQ(fp::expOnNegativeValues<5>(-(31 << 26) - 12345), 0);
}

TEST(FixedPoint, ExpOnNegativeValuesIsCloseToExp) {
  for (int32_t raw = 0; raw > -(16 << 26); raw -= 987654) {
    const double x = raw / static_cast<double>(kOneQ5);
    const double got = fp::expOnNegativeValues<5>(raw) / kTwoTo31;
    EXPECT_NEAR(got, std::exp(x), 1e-6) << "x = " << x;
  }
}

TEST(FixedPoint, OneOverOnePlusXMatchesGemmlowp) {
  EXPECT_EQ(fp::oneOverOnePlusXForXIn0To1(0), INT32_MAX);
  EXPECT_EQ(fp::oneOverOnePlusXForXIn0To1(1 << 30), 1431655762);    // 2/3
  EXPECT_EQ(fp::oneOverOnePlusXForXIn0To1(INT32_MAX), 1073741820);  // ~1/2
  EXPECT_EQ(fp::oneOverOnePlusXForXIn0To1(123456789), 2030738432);
}

TEST(FixedPoint, ReciprocalScalesIntoQ0) {
  int bits = -1;
  // 1.0 in Q12.19: 12 leading zeros, so no bits over unit and 1 / (1 + 0).
  EXPECT_EQ(fp::getReciprocal(1 << 19, 12, &bits), INT32_MAX);
  EXPECT_EQ(bits, 0);
  // 3.0 in Q12.19: 3 = 1.5 * 2^1, so 1/3 = (1 / (1 + 0.5)) * 2^-1.
  EXPECT_EQ(fp::getReciprocal(3 << 19, 12, &bits), 1431655762);
  EXPECT_EQ(bits, 1);
  // 0.5 in Q12.19: 2^-1 -> num_bits_over_unit -1.
  EXPECT_EQ(fp::getReciprocal(1 << 18, 12, &bits), INT32_MAX);
  EXPECT_EQ(bits, -1);
}

TEST(FixedPoint, MultiplyGreaterThanOneShiftsThenRoundsOnce) {
  // SRDHM(-12, 2^30) = (-12 * 2^30 + 1 - 2^30) / 2^31 truncated = -6.
  EXPECT_EQ(fp::multiplyByQuantizedMultiplierGreaterThanOne(-3, 1 << 30, 2), -6);
  // 5 * 2^3 * 0.75 = 30.
  EXPECT_EQ(fp::multiplyByQuantizedMultiplierGreaterThanOne(5, 3 << 29, 3), 30);
  // -1 * 0.75 = -0.75 -> -1 (nudge away from zero).
  EXPECT_EQ(fp::multiplyByQuantizedMultiplierGreaterThanOne(-1, 3 << 29, 0), -1);
}

TEST(Padding, SameKeepsCeilOfInputOverStride) {
  // person_detect's first layer: 96 -> 48 with a 3-tap stride-2 window; total padding 1 goes
  // after the data.
  WindowDim d = computeWindowDim(tflite::Padding::SAME, 96, 3, 2, 1);
  EXPECT_EQ(d.out_size, 48);
  EXPECT_EQ(d.pad_before, 0);
  d = computeWindowDim(tflite::Padding::SAME, 5, 3, 1, 1);
  EXPECT_EQ(d.out_size, 5);
  EXPECT_EQ(d.pad_before, 1);
  // micro_speech: 49 rows, 10 taps, stride 2 -> 25 rows, total padding 24*2+10-49 = 9.
  d = computeWindowDim(tflite::Padding::SAME, 49, 10, 2, 1);
  EXPECT_EQ(d.out_size, 25);
  EXPECT_EQ(d.pad_before, 4);
  // Dilation 2 turns 3 taps into an extent of 5: total padding 4.
  d = computeWindowDim(tflite::Padding::SAME, 7, 3, 1, 2);
  EXPECT_EQ(d.out_size, 7);
  EXPECT_EQ(d.pad_before, 2);
}

TEST(Padding, ValidDoesNotPad) {
  WindowDim d = computeWindowDim(tflite::Padding::VALID, 3, 3, 2, 1);
  EXPECT_EQ(d.out_size, 1);
  EXPECT_EQ(d.pad_before, 0);
  d = computeWindowDim(tflite::Padding::VALID, 10, 3, 3, 1);  // (10 + 3 - 3) / 3
  EXPECT_EQ(d.out_size, 3);
  EXPECT_EQ(d.pad_before, 0);
  d = computeWindowDim(tflite::Padding::VALID, 10, 3, 1, 3);  // extent 7: 10 - 7 + 1
  EXPECT_EQ(d.out_size, 4);
  d = computeWindowDim(tflite::Padding::VALID, 2, 3, 1, 1);  // window larger than input
  EXPECT_LE(d.out_size, 0);
}

TEST(Pooling, AverageRoundsHalfAwayFromZero) {
  EXPECT_EQ(roundedAverage(5, 2), 3);    // 2.5
  EXPECT_EQ(roundedAverage(-5, 2), -3);  // -2.5
  EXPECT_EQ(roundedAverage(4, 3), 1);    // 1.33
  EXPECT_EQ(roundedAverage(5, 3), 2);    // 1.67
  EXPECT_EQ(roundedAverage(-4, 3), -1);  // -1.33
  EXPECT_EQ(roundedAverage(-5, 3), -2);  // -1.67
  EXPECT_EQ(roundedAverage(0, 9), 0);
  EXPECT_EQ(roundedAverage(-1152, 9), -128);
}

}  // namespace
}  // namespace hilsim::rt
