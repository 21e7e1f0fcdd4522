// SOFTMAX: the freestanding functions' contract (the sum-of-exps overflow is reported as a status
// and row, the runtime turns it into the error) and a float row worked out by hand.

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

}  // namespace
}  // namespace hilsim::test
