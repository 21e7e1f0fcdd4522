// SOFTMAX: the freestanding functions' contract (the sum-of-exps overflow is reported as a status
// and row, the runtime turns it into the error), a float row worked out by hand, and int16 ->
// int16 against TensorFlow Lite Micro: its softmax_test.cc goldens (within its tolerances) and
// the exact bytes of softmax_int16_reference.py, an independent transcription of TFLite Micro's
// table generation and SoftmaxInt16.

#include <gtest/gtest.h>

#include "elementwise_test_util.h"
#include "hilsim/kernels/softmax.h"

namespace hilsim::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

constexpr int32_t kDepth = 600;

// Row 0: one 127 and the rest -128 (beyond diff_min, so only exp(0) is summed); row 1: all
// equal, a sum of 600 exps of 0, whose reciprocal needs more than the 8 output bits allow.
std::vector<int8_t> overflowingInput() {
  std::vector<int8_t> input(2 * kDepth, -128);
  input[0] = 127;
  for (int32_t c = 0; c < kDepth; ++c) input[size_t(kDepth + c)] = 0;
  return input;
}

TEST(Softmax, SumOfExpsOverflowIsAStatusNamingTheRow) {
  kernels::SoftmaxInt8Params p;
  p.rows = 2;
  p.depth = kDepth;
  p.input_multiplier = 1 << 30;  // beta * scale * 2^26 = 2^26: 2^30 with left shift 27
  p.input_left_shift = 27;
  p.diff_min = -15;  // floor(31 * 2^26 / 2^27)
  const auto input = overflowingInput();
  std::vector<int8_t> output(input.size(), 0);
  int32_t failed_row = -1;
  EXPECT_EQ(kernels::softmaxInt8ToInt8(p, input.data(), output.data(), &failed_row),
            kernels::SoftmaxStatus::kSumOfExpsOverflow);
  EXPECT_EQ(failed_row, 1);
  EXPECT_EQ(output[0], 127);   // row 0 was written: exp(0) / exp(0) saturates
  EXPECT_EQ(output[1], -128);  // and the rest are 0

  // 16 output bits leave room for the same row.
  std::vector<int16_t> wide(input.size(), 0);
  EXPECT_EQ(kernels::softmaxInt8ToInt16(p, input.data(), wide.data(), &failed_row),
            kernels::SoftmaxStatus::kOk);
}

TEST(Softmax, RuntimeReportsTheOverflowAsAModelError) {
  OpModel m;
  const int32_t in = m.addTensor(qtensor(TensorType::INT8, {2, kDepth}, 1.0f, 0));
  const int32_t out = m.addTensor(qtensor(TensorType::INT8, {2, kDepth}, 1.0f / 256, -128));
  tflite::SoftmaxOptionsT options;
  options.beta = 1.0f;
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(options));
  m.addOp(BuiltinOperator::SOFTMAX, {in}, {out}, std::move(u));
  m.setInputs({in});
  m.setOutputs({out});
  try {
    runModel(m.finish(), {bytesOf(overflowingInput())});
    ADD_FAILURE() << "no error";
  } catch (const std::exception& e) {
    const std::string message = e.what();
    EXPECT_TRUE(mentions(message, "operator 0 (SOFTMAX)")) << message;
    EXPECT_TRUE(mentions(message, "sum of exponentials of row 1 overflows the Q12.19 accumulator"))
        << message;
  }
}

TEST(Softmax, FloatUniformRowsAndBeta) {
  // Equal inputs give 1/4 exactly; with beta 0 every row is uniform whatever the inputs.
  const float input[] = {3.0f, 3.0f, 3.0f, 3.0f, -1.0f, 5.0f, 0.0f, 2.0f};
  float output[8] = {};
  kernels::softmaxFloat({2, 4, 0.0f}, input, output);
  for (float y : output) EXPECT_EQ(y, 0.25f);
  kernels::softmaxFloat({1, 4, 1.0f}, input, output);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(output[i], 0.25f);
}

std::vector<uint8_t> softmaxInt16Model(std::vector<int32_t> shape, float in_scale, float beta,
                                       float out_scale = 1.0f / 32768, int64_t out_zp = 0,
                                       TensorType out_type = TensorType::INT16) {
  OpModel m;
  const int32_t in = m.addTensor(qtensor(TensorType::INT16, shape, in_scale, 0));
  const int32_t out = m.addTensor(qtensor(out_type, shape, out_scale, out_zp));
  tflite::SoftmaxOptionsT options;
  options.beta = beta;
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(options));
  m.addOp(BuiltinOperator::SOFTMAX, {in}, {out}, std::move(u));
  m.setInputs({in});
  m.setOutputs({out});
  return m.finish();
}

std::vector<int16_t> softmaxInt16(std::vector<int32_t> shape, float in_scale, float beta,
                                  const std::vector<int16_t>& input) {
  return valuesOf<int16_t>(runModel(softmaxInt16Model(shape, in_scale, beta), {bytesOf(input)}));
}

// TFLite Micro's float golden quantized at 1/32768 as its test does.
std::vector<int16_t> quantizedGolden(const std::vector<float>& golden) {
  std::vector<int16_t> q;
  for (float g : golden) q.push_back(static_cast<int16_t>(std::round(g * 32768.0f)));
  return q;
}

void expectWithin(const std::vector<int16_t>& got, const std::vector<int16_t>& golden,
                  int tolerance) {
  ASSERT_EQ(got.size(), golden.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_LE(std::abs(int{got[i]} - int{golden[i]}), tolerance) << "element " << i;
}

TEST(Softmax, Int16MatchesTflmGoldens) {
  // softmax_test.cc, Softmax1DQuantizedInt16ShouldMatchGolden: {1..5} at input scale 0.1,
  // beta 1, tolerance 1.
  const auto one_d = softmaxInt16({1, 5}, 0.1f, 1.0f, {10, 20, 30, 40, 50});
  expectWithin(
      one_d,
      quantizedGolden({0.011656231f, 0.031684921f, 0.086128544f, 0.234121657f, 0.636408647f}), 1);
  EXPECT_EQ(one_d, (std::vector<int16_t>{382, 1039, 2822, 7671, 20853}));
  // Softmax2DQuantizedInt16ShouldMatchGolden: the second row is the first negated.
  const auto two_d =
      softmaxInt16({2, 5}, 0.1f, 1.0f, {10, 20, 30, 40, 50, -10, -20, -30, -40, -50});
  EXPECT_EQ(two_d,
            (std::vector<int16_t>{382, 1039, 2822, 7671, 20853, 20853, 7671, 2822, 1039, 382}));
  // Softmax3DQuantizedInt16ShouldMatchGolden, first row {3, 6, -5, 4, -9}: tolerance 7.
  const auto row = softmaxInt16({1, 5}, 0.1f, 1.0f, {30, 60, -50, 40, -90});
  expectWithin(
      row, quantizedGolden({0.042009463f, 0.843782625f, 0.000014093f, 0.114193561f, 0.000000258f}),
      7);
  EXPECT_EQ(row, (std::vector<int16_t>{1377, 27646, 2, 3742, 2}));
}

TEST(Softmax, Int16DifferencesBeyondTheTableSaturate) {
  // Input scale 0.01, beta 0.5: the difference is rescaled by 32.77, so differences below -2000
  // saturate at the table's first entry (exp(-10) -> 2 in Q0.15); the maximum keeps the rest.
  EXPECT_EQ(softmaxInt16({5}, 0.01f, 0.5f, {-32768, -100, 0, 5000, 32767}),
            (std::vector<int16_t>{2, 2, 2, 2, 32759}));
}

TEST(Softmax, Int16PrepareFollowsTflm) {
  const auto expectError = [](const std::vector<uint8_t>& model, const std::string& reason) {
    const std::string error = prepareError(model);
    EXPECT_TRUE(mentions(error, "operator 0 (SOFTMAX)")) << error;
    EXPECT_TRUE(mentions(error, reason)) << error;
  };
  expectError(softmaxInt16Model({1, 4}, 0.1f, 1.0f, 1.0f / 32768, 3),
              "int16 output must have zero point 0 and scale 1/32768");
  expectError(softmaxInt16Model({1, 4}, 0.1f, 1.0f, 1.0f / 256, 0),
              "int16 output must have zero point 0 and scale 1/32768");
  expectError(softmaxInt16Model({1, 4}, 0.1f, 1.0f, 1.0f / 256, -128, TensorType::INT8),
              "int16 input needs an int16 output");
  expectError(softmaxInt16Model({1, 65539}, 0.1f, 1.0f), "would overflow int32");
  // The scale within 0.1% of 1/32768 is accepted.
  EXPECT_EQ(prepareError(softmaxInt16Model({1, 4}, 0.1f, 1.0f, 1.0005f / 32768)), "");
}

}  // namespace
}  // namespace hilsim::test
