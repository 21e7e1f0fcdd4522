// LOGISTIC: the freestanding arithmetic and prepare-time scaling against hand-computed values,
// every int8 input against the exact sigmoid, the kernel through one-operator models, and
// prepare-time errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "hilsim/kernels/activation_math.h"
#include "hilsim/kernels/activation_scaling.h"
#include "hilsim/kernels/logistic.h"
#include "op_model.h"

namespace hilsim::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

std::vector<uint8_t> logisticModel(TensorSpec in_spec, TensorSpec out_spec) {
  OpModel m;
  const int32_t in = m.addTensor(std::move(in_spec));
  const int32_t out = m.addTensor(std::move(out_spec));
  m.addOp(BuiltinOperator::LOGISTIC, {in}, {out});
  m.setInputs({in});
  m.setOutputs({out});
  return m.finish();
}

std::vector<int8_t> allInt8() {
  std::vector<int8_t> values;
  for (int q = -128; q <= 127; ++q) values.push_back(static_cast<int8_t>(q));
  return values;
}

TEST(LogisticScaling, Int8MultiplierShiftAndRadius) {
  kernels::Int8ActivationParams p;
  // 1/16 * 2^27 = 2^23 = 0.5 * 2^24: multiplier 0.5 * 2^31, shift 24, radius 15 * 2^27 / 2^24.
  ASSERT_EQ(kernels::int8ActivationScaling(0.0625f, &p), nullptr);
  EXPECT_EQ(p.input_multiplier, 1 << 30);
  EXPECT_EQ(p.input_left_shift, 24);
  EXPECT_EQ(p.input_range_radius, 120);
  // 1.0 * 2^27 = 0.5 * 2^28: radius floor(15 / 2) = 7.
  ASSERT_EQ(kernels::int8ActivationScaling(1.0f, &p), nullptr);
  EXPECT_EQ(p.input_left_shift, 28);
  EXPECT_EQ(p.input_range_radius, 7);
  // Below 2^-28 the frexp exponent turns negative.
  EXPECT_NE(kernels::int8ActivationScaling(std::ldexp(1.0f, -30), &p), nullptr);
}

TEST(LogisticScaling, Int16PowerOfTwoAndGeneralScales) {
  kernels::Int16ActivationParams p;
  ASSERT_EQ(kernels::int16ActivationScaling(std::ldexp(1.0f, -12), false, &p), nullptr);
  EXPECT_EQ(p.input_multiplier, 3);
  EXPECT_EQ(p.input_right_shift, 0);
  // 2^-11 is a power of two but LOGISTIC takes the shortcut for 2^-12 only: 2^-11 * 3 * 4096 =
  // 6, doubled twelve times to 24576 > 32767 / 2.
  ASSERT_EQ(kernels::int16ActivationScaling(std::ldexp(1.0f, -11), false, &p), nullptr);
  EXPECT_EQ(p.input_multiplier, 24576);
  EXPECT_EQ(p.input_right_shift, 12);
  // 0.001 * 12288 = 12.288, doubled eleven times: 25165.824, truncated.
  ASSERT_EQ(kernels::int16ActivationScaling(0.001f, false, &p), nullptr);
  EXPECT_EQ(p.input_multiplier, 25165);
  EXPECT_EQ(p.input_right_shift, 11);
  // 3 * 12288 > 32767: no shift can bring it down.
  EXPECT_NE(kernels::int16ActivationScaling(3.0f, false, &p), nullptr);
}

TEST(Logistic, Int8HandValues) {
  kernels::Int8ActivationParams p;
  ASSERT_EQ(kernels::int8ActivationScaling(0.0625f, &p), nullptr);
  p.count = 6;
  p.input_zero_point = 0;
  const int8_t in[] = {0, 16, -16, 119, 120, -120};
  int8_t out[6] = {};
  kernels::logisticInt8(p, in, out);
  EXPECT_EQ(out[0], 0);    // sigmoid(0) * 256 - 128
  EXPECT_EQ(out[1], 59);   // sigmoid(1) * 256 = 187.15
  EXPECT_EQ(out[2], -59);  // sigmoid(-1) * 256 = 68.85
  EXPECT_EQ(out[3], 127);  // 7.4375: 255.85 rounds to 256, clamped
  EXPECT_EQ(out[4], 127);  // at the radius: saturated without rescaling
  EXPECT_EQ(out[5], -128);
}

// Every int8 input against round(256 * sigmoid(x)) - 128, except within 1e-3 of a rounding tie
// (the fixed-point sigmoid is exact to far better than that).
void expectSigmoidOfEveryInput(float scale, int32_t zero_point) {
  kernels::Int8ActivationParams p;
  ASSERT_EQ(kernels::int8ActivationScaling(scale, &p), nullptr);
  p.count = 256;
  p.input_zero_point = zero_point;
  const std::vector<int8_t> in = allInt8();
  std::vector<int8_t> out(256);
  kernels::logisticInt8(p, in.data(), out.data());
  int compared = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const double x = (static_cast<double>(in[i]) - zero_point) * double{scale};
    const double scaled = 256.0 / (1.0 + std::exp(-x));
    if (std::abs(scaled - std::floor(scaled) - 0.5) < 1e-3) continue;
    const long expected = std::clamp(std::lround(scaled) - 128, -128L, 127L);
    EXPECT_EQ(out[i], expected) << "q=" << int{in[i]} << " scale=" << scale << " zp=" << zero_point;
    ++compared;
  }
  EXPECT_GT(compared, 250);
}

TEST(Logistic, Int8EveryInputMatchesTheExactSigmoid) {
  expectSigmoidOfEveryInput(0.038775f, -2);  // dtln's final LOGISTIC
  expectSigmoidOfEveryInput(0.0625f, 0);
  expectSigmoidOfEveryInput(1.0f, 0);     // radius 7: large inputs must saturate, not overflow
  expectSigmoidOfEveryInput(0.1f, -128);  // zero points at both ends of the range
  expectSigmoidOfEveryInput(0.1f, 127);
}

TEST(Logistic, Int16TableInterpolation) {
  // Q3.12 input, multiplier 3: x = 3q, table index x >> 9, fraction x & 511,
  // table[i] = sigmoid(i / 24) in Q0.16; result (interpolated + 512) >> 10 for x >= 0 and
  // (2^25 - interpolated + 511) >> 10 below.
  kernels::Int16ActivationParams p;
  p.count = 8;
  const int16_t in[] = {0, 1000, -1000, 384, -384, 32767, -32768, 4096};
  int16_t out[8] = {};
  kernels::logisticInt16(p, in, out);
  EXPECT_EQ(out[0], 16384);  // 32768 * 512 + 512 >> 10
  // x = 3000: index 5, fraction 440: 36169 * 512 + 440 * (36843 - 36169) = 18815088.
  EXPECT_EQ(out[1], 18374);  // (18815088 + 512) >> 10
  EXPECT_EQ(out[2], 14394);  // (33554432 - 18815088 + 511) >> 10
  // x = 1152: index 2, fraction 128: 34133 * 512 + 128 * 680 = 17563136 = 17151.5 * 1024, a tie
  // that rounds up, and down on the negative side: the two still sum to 1.
  EXPECT_EQ(out[3], 17152);
  EXPECT_EQ(out[4], 15616);
  // x = 98301: index 191, fraction 509: 65513 * 512 + 509 * 1 = 33543165.
  EXPECT_EQ(out[5], 32757);
  EXPECT_EQ(out[6], 32768 - 32757);  // x = -98304: index 192, fraction 0 (65514 * 512)
  // x = 12288: index 24, fraction 0: 47911 * 512 = 23955.5 * 1024.
  EXPECT_EQ(out[7], 23956);
}

TEST(Logistic, Int16SaturatesBeyondTheTable) {
  // Scale 0.001: multiplier 25165, shift 11; q = 32767 gives x = 402630, index 786 > 254.
  kernels::Int16ActivationParams p;
  p.count = 2;
  p.input_multiplier = 25165;
  p.input_right_shift = 11;
  const int16_t in[] = {32767, -32768};
  int16_t out[2] = {};
  kernels::logisticInt16(p, in, out);
  EXPECT_EQ(out[0], 32767);  // (0x7FFF << 10) + 512 >> 10
  EXPECT_EQ(out[1], 1);      // (2^25 - (0x7FFF << 10) + 511) >> 10: never 0
}

TEST(Logistic, FloatCutoffs) {
  const float in[] = {0.0f, 20.0f, 16.5f, -10.0f, -9.0f, 1.0f};
  float out[6] = {};
  kernels::logisticFloat(6, in, out);
  EXPECT_EQ(out[0], 0.5f);
  EXPECT_EQ(out[1], 1.0f);                  // above the upper cut-off
  EXPECT_FLOAT_EQ(out[2], 0.99999993f);     // 1 / (1 + e^-16.5)
  EXPECT_FLOAT_EQ(out[3], 4.5399929e-05f);  // below -9: e^-10 itself
  EXPECT_FLOAT_EQ(out[4], 1.2339458e-04f);  // -9 is not below the cut-off: 1 / (1 + e^9)
  EXPECT_FLOAT_EQ(out[5], 0.7310586f);
}

TEST(Logistic, Int8ThroughTheInterpreter) {
  const auto model = logisticModel(qtensor(TensorType::INT8, {1, 4}, 0.0625f, 0),
                                   qtensor(TensorType::INT8, {1, 4}, 1.0f / 256, -128));
  const auto got =
      valuesOf<int8_t>(runModel(model, {bytesOf(std::vector<int8_t>{0, 16, -16, 127})}));
  EXPECT_EQ(got, (std::vector<int8_t>{0, 59, -59, 127}));
}

TEST(Logistic, Int16ThroughTheInterpreter) {
  const auto model = logisticModel(qtensor(TensorType::INT16, {3}, std::ldexp(1.0f, -12), 0),
                                   qtensor(TensorType::INT16, {3}, std::ldexp(1.0f, -15), 0));
  const auto got =
      valuesOf<int16_t>(runModel(model, {bytesOf(std::vector<int16_t>{0, 1000, -1000})}));
  EXPECT_EQ(got, (std::vector<int16_t>{16384, 18374, 14394}));
}

TEST(Logistic, FloatThroughTheInterpreter) {
  const auto model =
      logisticModel(tensor(TensorType::FLOAT32, {2}), tensor(TensorType::FLOAT32, {2}));
  const auto got = valuesOf<float>(runModel(model, {bytesOf(std::vector<float>{0.0f, 30.0f})}));
  EXPECT_EQ(got, (std::vector<float>{0.5f, 1.0f}));
}

void expectPrepareError(const std::vector<uint8_t>& model, const std::string& reason) {
  const std::string error = prepareError(model);
  EXPECT_NE(error.find("operator 0 (LOGISTIC)"), std::string::npos) << error;
  EXPECT_NE(error.find(reason), std::string::npos) << error;
}

TEST(Logistic, MalformedOperatorsAreErrorsNamingTheOperator) {
  expectPrepareError(logisticModel(qtensor(TensorType::INT8, {4}, 0.1f, 0),
                                   qtensor(TensorType::INT8, {4}, 1.0f / 256, 0)),
                     "zero point -128");
  expectPrepareError(logisticModel(qtensor(TensorType::INT8, {4}, 0.1f, 0),
                                   qtensor(TensorType::INT8, {5}, 1.0f / 256, -128)),
                     "shape");
  expectPrepareError(logisticModel(qtensor(TensorType::INT8, {4}, 0.1f, 0),
                                   qtensor(TensorType::INT16, {4}, 1.0f / 32768, 0)),
                     "type");
  expectPrepareError(logisticModel(tensor(TensorType::INT32, {4}), tensor(TensorType::INT32, {4})),
                     "unsupported input");
  expectPrepareError(logisticModel(tensor(TensorType::INT8, {4}),
                                   qtensor(TensorType::INT8, {4}, 1.0f / 256, -128)),
                     "no quantization");
  expectPrepareError(logisticModel(qtensor(TensorType::INT16, {4}, std::ldexp(1.0f, -12), 1),
                                   qtensor(TensorType::INT16, {4}, std::ldexp(1.0f, -15), 0)),
                     "zero point 0");
  expectPrepareError(logisticModel(qtensor(TensorType::INT16, {4}, std::ldexp(1.0f, -12), 0),
                                   qtensor(TensorType::INT16, {4}, std::ldexp(1.0f, -14), 0)),
                     "2^-15");
  expectPrepareError(logisticModel(qtensor(TensorType::INT16, {4}, 4.0f, 0),
                                   qtensor(TensorType::INT16, {4}, std::ldexp(1.0f, -15), 0)),
                     "too large");

  OpModel two_inputs;
  const int32_t a = two_inputs.addTensor(qtensor(TensorType::INT8, {4}, 0.1f, 0));
  const int32_t b = two_inputs.addTensor(qtensor(TensorType::INT8, {4}, 0.1f, 0));
  const int32_t out = two_inputs.addTensor(qtensor(TensorType::INT8, {4}, 1.0f / 256, -128));
  two_inputs.addOp(BuiltinOperator::LOGISTIC, {a, b}, {out});
  two_inputs.setInputs({a, b});
  two_inputs.setOutputs({out});
  expectPrepareError(two_inputs.finish(), "expects 1 inputs, has 2");
}

}  // namespace
}  // namespace hilsim::test
