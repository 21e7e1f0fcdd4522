// TANH: the freestanding arithmetic and prepare-time scaling against hand-computed values,
// every int8 input against the exact tanh, the kernel through one-operator models, and
// prepare-time errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "hilsim/kernels/activation_scaling.h"
#include "hilsim/kernels/tanh.h"
#include "op_model.h"

namespace hilsim::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

std::vector<uint8_t> tanhModel(TensorSpec in_spec, TensorSpec out_spec) {
  OpModel m;
  const int32_t in = m.addTensor(std::move(in_spec));
  const int32_t out = m.addTensor(std::move(out_spec));
  m.addOp(BuiltinOperator::TANH, {in}, {out});
  m.setInputs({in});
  m.setOutputs({out});
  return m.finish();
}

TEST(TanhScaling, Int16AcceptsTwoPowerOfTwoScales) {
  kernels::Int16ActivationParams p;
  ASSERT_EQ(kernels::int16ActivationScaling(std::ldexp(1.0f, -12), true, &p), nullptr);
  EXPECT_EQ(p.input_multiplier, 3);
  EXPECT_EQ(p.input_right_shift, 0);
  ASSERT_EQ(kernels::int16ActivationScaling(std::ldexp(1.0f, -11), true, &p), nullptr);
  EXPECT_EQ(p.input_multiplier, 6);  // 3 << 1
  EXPECT_EQ(p.input_right_shift, 0);
  // 2^-10 is a power of two outside the shortcut: 2^-10 * 12288 = 12, doubled to 24576.
  ASSERT_EQ(kernels::int16ActivationScaling(std::ldexp(1.0f, -10), true, &p), nullptr);
  EXPECT_EQ(p.input_multiplier, 24576);
  EXPECT_EQ(p.input_right_shift, 11);
}

TEST(TanhScaling, LstmCellStatePowers) {
  kernels::Int16ActivationParams p;
  // Left shift 15 + power - 3: applied as 3 << shift, or as a right shift of 3q when negative.
  ASSERT_EQ(kernels::lstmCellTanhScaling(-12, &p), nullptr);
  EXPECT_EQ(p.input_multiplier, 3);
  EXPECT_EQ(p.input_right_shift, 0);
  ASSERT_EQ(kernels::lstmCellTanhScaling(-11, &p), nullptr);
  EXPECT_EQ(p.input_multiplier, 6);
  EXPECT_EQ(p.input_right_shift, 0);
  ASSERT_EQ(kernels::lstmCellTanhScaling(-15, &p), nullptr);
  EXPECT_EQ(p.input_multiplier, 3);
  EXPECT_EQ(p.input_right_shift, 3);
  ASSERT_EQ(kernels::lstmCellTanhScaling(-43, &p), nullptr);
  EXPECT_EQ(p.input_right_shift, 31);
  EXPECT_NE(kernels::lstmCellTanhScaling(-44, &p), nullptr);
  ASSERT_EQ(kernels::lstmCellTanhScaling(1, &p), nullptr);
  EXPECT_EQ(p.input_multiplier, 3 << 13);
  EXPECT_NE(kernels::lstmCellTanhScaling(2, &p), nullptr);
}

TEST(TanhScaling, CheckedLog2) {
  int log2 = 0;
  EXPECT_TRUE(kernels::checkedLog2(std::ldexp(1.0f, -12), &log2));
  EXPECT_EQ(log2, -12);
  EXPECT_TRUE(kernels::checkedLog2(0.000488281f, &log2));  // 2^-11 as a model stores it
  EXPECT_EQ(log2, -11);
  EXPECT_FALSE(kernels::checkedLog2(0.001f, &log2));
  EXPECT_EQ(log2, -10);
}

TEST(Tanh, Int8HandValues) {
  // Scale 1/32: 2^22 = 0.5 * 2^23, so multiplier 2^30, shift 23, radius 15 * 2^4 = 240 (never
  // reached by int8 inputs).
  kernels::Int8ActivationParams p;
  ASSERT_EQ(kernels::int8ActivationScaling(0.03125f, &p), nullptr);
  EXPECT_EQ(p.input_range_radius, 240);
  p.count = 5;
  const int8_t in[] = {0, 32, -32, 127, -128};
  int8_t out[5] = {};
  kernels::tanhInt8(p, in, out);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 97);  // tanh(1) * 128 = 97.48
  EXPECT_EQ(out[2], -97);
  EXPECT_EQ(out[3], 127);   // tanh(3.97) * 128 = 127.91 rounds to 128, clamped
  EXPECT_EQ(out[4], -128);  // tanh(-4) * 128 = -127.91
}

// Every int8 input against round(128 * tanh(x)), except within 1e-3 of a rounding tie.
void expectTanhOfEveryInput(float scale, int32_t zero_point) {
  kernels::Int8ActivationParams p;
  ASSERT_EQ(kernels::int8ActivationScaling(scale, &p), nullptr);
  p.count = 256;
  p.input_zero_point = zero_point;
  std::vector<int8_t> in;
  for (int q = -128; q <= 127; ++q) in.push_back(static_cast<int8_t>(q));
  std::vector<int8_t> out(256);
  kernels::tanhInt8(p, in.data(), out.data());
  int compared = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const double scaled =
        128.0 * std::tanh((static_cast<double>(in[i]) - zero_point) * double{scale});
    if (std::abs(std::abs(scaled - std::floor(scaled)) - 0.5) < 1e-3) continue;
    const long expected = std::clamp(std::lround(scaled), -128L, 127L);
    EXPECT_EQ(out[i], expected) << "q=" << int{in[i]} << " scale=" << scale << " zp=" << zero_point;
    ++compared;
  }
  EXPECT_GT(compared, 250);
}

TEST(Tanh, Int8EveryInputMatchesTheExactTanh) {
  expectTanhOfEveryInput(0.03125f, 0);
  expectTanhOfEveryInput(0.0123f, 3);
  expectTanhOfEveryInput(2.0f, 0);  // radius 3: saturates before the rescaling could overflow
  expectTanhOfEveryInput(0.05f, -128);
  expectTanhOfEveryInput(0.05f, 127);
}

TEST(Tanh, Int16TableInterpolation) {
  // Multiplier 3: x = 3q, index x >> 8, fraction x & 255, interpolated = table[i] * 256 +
  // fraction * (table[i + 1] - table[i]); result (interpolated - 2^23 + 128) >> 8 for x >= 0,
  // (-interpolated + 2^23 + 127) >> 8 below.
  kernels::Int16ActivationParams p;
  p.count = 7;
  const int16_t in[] = {0, 2048, -2048, 176, -176, 32767, -32768};
  int16_t out[7] = {};
  kernels::tanhInt16(p, in, out);
  EXPECT_EQ(out[0], 0);
  // x = 6144: index 24, fraction 0: 47911 * 256 - 2^23 = 3876608 = 15143 * 256.
  EXPECT_EQ(out[1], 15143);
  EXPECT_EQ(out[2], -15143);
  // x = 528: index 2, fraction 16: 34133 * 256 + 16 * 680 - 2^23 = 360320 = 1407.5 * 256, a tie
  // rounded away from zero on both sides.
  EXPECT_EQ(out[3], 1408);
  EXPECT_EQ(out[4], -1408);
  EXPECT_EQ(out[5], 32767);   // index 383: saturated, (0xFFFF << 8) - 2^23 + 128 >> 8
  EXPECT_EQ(out[6], -32767);  // never -32768
}

TEST(Tanh, Int16RightShiftRounds) {
  // The LSTM's tanh of a cell state with scale 2^-15: x = (3q + 4) >> 3.
  kernels::Int16ActivationParams p;
  ASSERT_EQ(kernels::lstmCellTanhScaling(-15, &p), nullptr);
  p.count = 2;
  const int16_t in[] = {16384, 4};  // x = 6144; x = (12 + 4) >> 3 = 2
  int16_t out[2] = {};
  kernels::tanhInt16(p, in, out);
  EXPECT_EQ(out[0], 15143);
  // x = 2: index 0, fraction 2: 32768 * 256 + 2 * 683 - 2^23 + 128 = 1494 -> 5.
  EXPECT_EQ(out[1], 5);
}

TEST(Tanh, Float) {
  const float in[] = {0.0f, 1.0f, -20.0f};
  float out[3] = {};
  kernels::tanhFloat(3, in, out);
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_FLOAT_EQ(out[1], 0.7615942f);
  EXPECT_EQ(out[2], -1.0f);
}

TEST(Tanh, Int8ThroughTheInterpreter) {
  const auto model = tanhModel(qtensor(TensorType::INT8, {2, 2}, 0.03125f, 0),
                               qtensor(TensorType::INT8, {2, 2}, 1.0f / 128, 0));
  const auto got =
      valuesOf<int8_t>(runModel(model, {bytesOf(std::vector<int8_t>{0, 32, -32, -128})}));
  EXPECT_EQ(got, (std::vector<int8_t>{0, 97, -97, -128}));
}

TEST(Tanh, Int16ThroughTheInterpreter) {
  // Input scale 2^-11: multiplier 6, so q = 1024 reads as x = 6144 like q = 2048 at 2^-12.
  const auto model = tanhModel(qtensor(TensorType::INT16, {3}, std::ldexp(1.0f, -11), 0),
                               qtensor(TensorType::INT16, {3}, std::ldexp(1.0f, -15), 0));
  const auto got =
      valuesOf<int16_t>(runModel(model, {bytesOf(std::vector<int16_t>{0, 1024, -1024})}));
  EXPECT_EQ(got, (std::vector<int16_t>{0, 15143, -15143}));
}

TEST(Tanh, FloatThroughTheInterpreter) {
  const auto model = tanhModel(tensor(TensorType::FLOAT32, {2}), tensor(TensorType::FLOAT32, {2}));
  const auto got = valuesOf<float>(runModel(model, {bytesOf(std::vector<float>{0.0f, 20.0f})}));
  EXPECT_EQ(got, (std::vector<float>{0.0f, 1.0f}));
}

void expectPrepareError(const std::vector<uint8_t>& model, const std::string& reason) {
  const std::string error = prepareError(model);
  EXPECT_NE(error.find("operator 0 (TANH)"), std::string::npos) << error;
  EXPECT_NE(error.find(reason), std::string::npos) << error;
}

TEST(Tanh, MalformedOperatorsAreErrorsNamingTheOperator) {
  expectPrepareError(tanhModel(qtensor(TensorType::INT8, {4}, 0.1f, 0),
                               qtensor(TensorType::INT8, {4}, 1.0f / 128, -128)),
                     "zero point 0");
  expectPrepareError(tanhModel(qtensor(TensorType::INT8, {2, 2}, 0.1f, 0),
                               qtensor(TensorType::INT8, {4}, 1.0f / 128, 0)),
                     "shape");
  expectPrepareError(tanhModel(tensor(TensorType::FLOAT32, {4}), tensor(TensorType::INT8, {4})),
                     "type");
  expectPrepareError(tanhModel(tensor(TensorType::INT32, {4}), tensor(TensorType::INT32, {4})),
                     "unsupported input");
  expectPrepareError(tanhModel(qtensor(TensorType::INT16, {4}, std::ldexp(1.0f, -12), 0),
                               qtensor(TensorType::INT16, {4}, std::ldexp(1.0f, -15), 5)),
                     "zero point 0");
  expectPrepareError(tanhModel(qtensor(TensorType::INT16, {4}, std::ldexp(1.0f, -12), 0),
                               qtensor(TensorType::INT16, {4}, 0.00003f, 0)),
                     "2^-15");
}

}  // namespace
}  // namespace hilsim::test
