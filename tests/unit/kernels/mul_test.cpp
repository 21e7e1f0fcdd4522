// MUL: the freestanding arithmetic and the kernel through one-operator models against
// hand-worked values; prepare-time errors.

#include <gtest/gtest.h>

#include <limits>

#include "elementwise_test_util.h"
#include "hilsim/kernels/mul.h"

namespace hilsim::test {
namespace {

using tflite::ActivationFunctionType;
using tflite::BuiltinOperator;
using tflite::TensorType;

constexpr auto kMul = BuiltinOperator::MUL;

std::vector<uint8_t> quantMul(TensorType type, std::vector<int32_t> shape1,
                              std::vector<int32_t> shape2, std::vector<int32_t> out_shape, float s1,
                              int64_t z1, float s2, int64_t z2, float so, int64_t zo,
                              ActivationFunctionType act = ActivationFunctionType::NONE) {
  return binaryModel(kMul, qtensor(type, std::move(shape1), s1, z1),
                     qtensor(type, std::move(shape2), s2, z2),
                     qtensor(type, std::move(out_shape), so, zo), mulOptions(act));
}

TEST(Mul, Int8DoubleRounding) {
  // Scales 0.5 * 0.5 / 1 = 1/4: multiplier 2^30, shift -1. The high multiply rounds the product
  // / 2 half up, the shift rounds half away from zero, so 5 / 4 becomes 3 / 2 -> 2, and -5 / 4
  // becomes -2 / 2 -> -1; exact halves: 6 / 4 -> 2, -6 / 4 -> -2, 2 / 4 -> 1, -2 / 4 -> -1.
  const auto model = quantMul(TensorType::INT8, {8}, {8}, {8}, 0.5f, 0, 0.5f, 0, 1.0f, 0);
  EXPECT_EQ(runBinary<int8_t>(model, {1, -1, 2, -2, 1, -1, 1, -1}, {5, 5, 3, 3, 2, 2, 3, 3}),
            (std::vector<int8_t>{2, -1, 2, -2, 1, -1, 1, -1}));
}

TEST(Mul, Int8SaturatesAndHandlesExtremeZeroPoints) {
  // Unit scales: multiplier 1 (2^30, shift 1) is exact.
  const auto unit = quantMul(TensorType::INT8, {4}, {4}, {4}, 1.0f, 0, 1.0f, 0, 1.0f, 0);
  EXPECT_EQ(runBinary<int8_t>(unit, {12, -12, 11, -1}, {12, 12, 11, -128}),
            (std::vector<int8_t>{127, -128, 121, 127}));
  // Zero points -128 and 127, output zero point 127: centred products -255, -2, 0, 0.
  const auto ends = quantMul(TensorType::INT8, {4}, {4}, {4}, 1.0f, -128, 1.0f, 127, 1.0f, 127);
  EXPECT_EQ(runBinary<int8_t>(ends, {-127, -126, -128, 127}, {-128, 126, 5, 127}),
            (std::vector<int8_t>{-128, 125, 127, 127}));
}

TEST(Mul, Int8ActivationClamps) {
  // Scales 0.5 * 0.5 / 0.25 = 1; output zero point -10 at scale 0.25: RELU6 keeps [-10, 14].
  const auto model = quantMul(TensorType::INT8, {3}, {3}, {3}, 0.5f, 0, 0.5f, 0, 0.25f, -10,
                              ActivationFunctionType::RELU6);
  EXPECT_EQ(runBinary<int8_t>(model, {5, -5, 3}, {5, 5, 4}), (std::vector<int8_t>{14, -10, 2}));
}

TEST(Mul, Int16) {
  // Scales 0.5 * 0.5 / 1 = 1/4, zero points 0 (int16 MUL requires them).
  const auto model = quantMul(TensorType::INT16, {5}, {5}, {5}, 0.5f, 0, 0.5f, 0, 1.0f, 0);
  EXPECT_EQ(runBinary<int16_t>(model, {32767, -32768, 1, -1, 200}, {32767, 32767, 5, 5, 300}),
            (std::vector<int16_t>{32767, -32768, 2, -1, 15000}));
}

TEST(Mul, BroadcastChannelScaleOverNhwc) {
  // [1, C] against [N, H, W, C] with unit scales: clamp(a * b).
  const std::vector<int32_t> shape_a = {2, 3, 2, 4};
  const std::vector<int32_t> shape_b = {1, 4};
  const auto a = ramp<int8_t>(48, -20, 20, 3);
  const std::vector<int8_t> b = {-3, 0, 2, 7};
  const auto expected = broadcastReference(shape_a, a, shape_b, b, [](int8_t x, int8_t y) {
    return static_cast<int8_t>(std::clamp(int32_t{x} * int32_t{y}, -128, 127));
  });
  const auto model =
      quantMul(TensorType::INT8, shape_a, shape_b, shape_a, 1.0f, 0, 1.0f, 0, 1.0f, 0);
  EXPECT_EQ(runBinary(model, a, b), expected);

  // The freestanding function over a plan with input 1 broadcast (scalar times a 5-D tensor).
  kernels::BroadcastLoops loops;
  const int32_t scalar_shape[] = {1};
  const int32_t tensor_shape[] = {2, 1, 2, 1, 2};
  int32_t out_shape[kernels::kMaxBroadcastRank];
  int32_t rank = 0;
  ASSERT_EQ(kernels::planBroadcast(scalar_shape, 1, tensor_shape, 5, &loops, out_shape, &rank),
            kernels::BroadcastStatus::kOk);
  EXPECT_EQ(rank, 5);
  const float two = 2.0f;
  const float values[] = {1.0f, -2.0f, 3.5f, 0.25f, -1.0f, 100.0f, 0.0f, 4.0f};
  float out[8] = {};
  kernels::mulFloat({-5.0f, 5.0f}, loops, &two, values, out);
  EXPECT_EQ(std::vector<float>(out, out + 8),
            (std::vector<float>{2.0f, -4.0f, 5.0f, 0.5f, -2.0f, 5.0f, 0.0f, 5.0f}));
}

TEST(Mul, FloatAndInt32) {
  const auto f =
      binaryModel(kMul, tensor(TensorType::FLOAT32, {3}), tensor(TensorType::FLOAT32, {3}),
                  tensor(TensorType::FLOAT32, {3}), mulOptions(ActivationFunctionType::RELU6));
  EXPECT_EQ(runBinary<float>(f, {2.0f, -3.0f, 1.5f}, {4.0f, 2.0f, 2.0f}),
            (std::vector<float>{6.0f, 0.0f, 3.0f}));

  const auto wrap =
      binaryModel(kMul, tensor(TensorType::INT32, {3}), tensor(TensorType::INT32, {3}),
                  tensor(TensorType::INT32, {3}), mulOptions());
  // 70000^2 = 4900000000 = 605032704 + 2^32; 65536^2 = 2^32.
  EXPECT_EQ(runBinary<int32_t>(wrap, {70000, 65536, -7}, {70000, 65536, 6}),
            (std::vector<int32_t>{605032704, 0, -42}));
  const auto relu =
      binaryModel(kMul, tensor(TensorType::INT32, {2}), tensor(TensorType::INT32, {2}),
                  tensor(TensorType::INT32, {2}), mulOptions(ActivationFunctionType::RELU));
  EXPECT_EQ(runBinary<int32_t>(relu, {3, 3}, {-4, 4}), (std::vector<int32_t>{0, 12}));
}

TEST(Mul, MalformedOperatorsAreRejectedInPrepare) {
  const auto q16 = [](int64_t zp) { return qtensor(TensorType::INT16, {3}, 0.5f, zp); };
  const auto q8 = [](std::vector<int32_t> shape) {
    return qtensor(TensorType::INT8, std::move(shape), 0.5f, 0);
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {prepareError(binaryModel(kMul, q16(3), q16(0), q16(0), mulOptions())),
       "int16 MUL needs zero points 0"},
      {prepareError(binaryModel(kMul, q16(0), q16(0), q16(-1), mulOptions())),
       "int16 MUL needs zero points 0"},
      {prepareError(binaryModel(kMul, q8({4, 3}), q8({4, 1}), q8({4, 4}), mulOptions())),
       "is not the broadcast shape [4,3]"},
      {prepareError(binaryModel(kMul, q8({3}), q8({3}), q8({3}))), "missing MulOptions"},
      {prepareError(binaryModel(kMul, tensor(TensorType::BOOL, {3}), tensor(TensorType::BOOL, {3}),
                                tensor(TensorType::BOOL, {3}), mulOptions())),
       "unsupported type BOOL"},
  };
  for (const auto& [error, reason] : cases) {
    EXPECT_TRUE(mentions(error, "operator 0 (MUL)")) << error;
    EXPECT_TRUE(mentions(error, reason)) << error << "\n  expected: " << reason;
  }
}

}  // namespace
}  // namespace hilsim::test
