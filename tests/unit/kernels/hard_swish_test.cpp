// HARD_SWISH: int8 fixed-point values worked out by hand step by step (see the comments), float32,
// and prepare-time errors.

#include <gtest/gtest.h>

#include <cmath>

#include "elementwise_test_util.h"
#include "hilsim/kernels/hard_swish.h"

namespace hilsim::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

std::vector<uint8_t> hardSwishModel(TensorSpec in, TensorSpec out) {
  OpModel m;
  const int32_t i = m.addTensor(std::move(in));
  const int32_t o = m.addTensor(std::move(out));
  m.addOp(BuiltinOperator::HARD_SWISH, {i}, {o});
  m.setInputs({i});
  m.setOutputs({o});
  return m.finish();
}

std::vector<int8_t> runInt8(float in_scale, int64_t in_zp, float out_scale, int64_t out_zp,
                            const std::vector<int8_t>& input) {
  const auto n = static_cast<int32_t>(input.size());
  const auto model = hardSwishModel(qtensor(TensorType::INT8, {n}, in_scale, in_zp),
                                    qtensor(TensorType::INT8, {n}, out_scale, out_zp));
  return valuesOf<int8_t>(runModel(model, {bytesOf(input)}));
}

TEST(HardSwish, Int8LeftShiftingReluishScale) {
  // Input and output scale 1/16: the output multiplier (1/128) is 16384 (Q15) with exponent -6;
  // the reluish multiplier 16/3 is 21845 with exponent 3. For q = 16 (x = 1): hires 2048,
  // preshift output 2048 * 16384 / 2^15 = 1024; reluish: 2048 << 2 = 8192, * 21845 / 2^15
  // rounded = 5461, << 1 = 10922, to [0, 1]: (10922 + 32768) >> 1 = 21845; 21845 * 1024 / 2^15
  // truncated = 682; 682 / 2^6 rounded = 11 (true value 10.67).
  // q = -16: reluish -10922 -> 10923, 10923 * -1024 / 2^15 -> -341, / 64 rounded -> -5.
  // q = 48 (x = 3) and 64: the reluish value saturates at 32767: 3071 -> 48, 4095 -> 64.
  // q = -64 and -128: the reluish value saturates at -32768 -> 0 -> output 0.
  // q = 8: 4096 * 21845 -> 2731 -> 5462 -> 19115; 19115 * 512 / 2^15 -> 298 -> 5 (true 4.67).
  EXPECT_EQ(runInt8(1.0f / 16, 0, 1.0f / 16, 0, {16, 0, -16, 48, 64, -64, 127, -128, 8}),
            (std::vector<int8_t>{11, 0, -5, 48, 64, 0, 127, 0, 5}));
}

TEST(HardSwish, Int8ZeroPointsAndOutputClamp) {
  // Input zero point 10 moves q = 26 to the q = 16 case (11); output zero point -5 -> 6.
  EXPECT_EQ(runInt8(1.0f / 16, 10, 1.0f / 16, -5, {26, 10, -6}), (std::vector<int8_t>{6, -5, -10}));
  // Output zero point 120: 127 + 120 clamps to 127; 0 -> 120; -5 + 120 = 115.
  EXPECT_EQ(runInt8(1.0f / 16, 0, 1.0f / 16, 120, {127, 0, -16}),
            (std::vector<int8_t>{127, 120, 115}));
}

TEST(HardSwish, Int8RightShiftingReluishScale) {
  // Scales 1/1024: the reluish multiplier 1/12 is 21845 with exponent -3. q = 100: hires 12800,
  // preshift output 6400; reluish 12800 * 21845 -> 8533, / 8 rounded -> 1067 -> 16917;
  // 16917 * 6400 / 2^15 -> 3304; / 64 rounded -> 52 (true 51.6).
  // q = -100: -8533 -> / 8 rounded (remainder 3 of 8, below the negative threshold) -1067 ->
  // 15850; 15850 * -6400 / 2^15 -> -3095; / 64 rounded -> -48 (true -48.4).
  EXPECT_EQ(runInt8(1.0f / 1024, 0, 1.0f / 1024, 0, {100, -100}), (std::vector<int8_t>{52, -48}));
}

TEST(HardSwish, Float) {
  const float in[] = {1.0f, -4.0f, 3.0f, -1.5f, 10.0f, -3.0f};
  float out[6] = {};
  kernels::hardSwishFloat(6, in, out);
  EXPECT_EQ(out[0], 4.0f / 6.0f);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_TRUE(std::signbit(out[1]));  // -4 * 0 / 6 is -0
  EXPECT_EQ(out[2], 3.0f);
  EXPECT_EQ(out[3], -0.375f);
  EXPECT_EQ(out[4], 10.0f);
  EXPECT_EQ(out[5], 0.0f);

  const auto model =
      hardSwishModel(tensor(TensorType::FLOAT32, {1, 2}), tensor(TensorType::FLOAT32, {1, 2}));
  EXPECT_EQ(valuesOf<float>(runModel(model, {bytesOf(std::vector<float>{1.0f, -1.5f})})),
            (std::vector<float>{4.0f / 6.0f, -0.375f}));
}

TEST(HardSwish, MalformedOperatorsAreRejectedInPrepare) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      // 1 / (128 * 2^-10) = 8: the output multiplier needs a left shift.
      {prepareError(hardSwishModel(qtensor(TensorType::INT8, {3}, 1.0f, 0),
                                   qtensor(TensorType::INT8, {3}, 1.0f / 1024, 0))),
       "must be below 1"},
      {prepareError(hardSwishModel(qtensor(TensorType::INT8, {3}, 1.0f, 0),
                                   qtensor(TensorType::INT8, {4}, 1.0f, 0))),
       "does not have the shape of input"},
      {prepareError(hardSwishModel(qtensor(TensorType::INT8, {3}, 1.0f, 0),
                                   tensor(TensorType::FLOAT32, {3}))),
       "must have one type"},
      {prepareError(hardSwishModel(qtensor(TensorType::INT16, {3}, 1.0f, 0),
                                   qtensor(TensorType::INT16, {3}, 1.0f, 0))),
       "unsupported type INT16"},
      {prepareError(
           hardSwishModel(tensor(TensorType::INT8, {3}), qtensor(TensorType::INT8, {3}, 1.0f, 0))),
       "input INT8 [3] has no quantization parameters"},
  };
  for (const auto& [error, reason] : cases) {
    EXPECT_TRUE(mentions(error, "operator 0 (HARD_SWISH)")) << error;
    EXPECT_TRUE(mentions(error, reason)) << error << "\n  expected: " << reason;
  }
}

}  // namespace
}  // namespace hilsim::test
