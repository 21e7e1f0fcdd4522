// SUB: the kernel through one-operator models against hand-worked values; prepare-time errors.

#include <gtest/gtest.h>

#include <limits>

#include "elementwise_test_util.h"
#include "hilsim/kernels/sub.h"

namespace hilsim::test {
namespace {

using tflite::ActivationFunctionType;
using tflite::BuiltinOperator;
using tflite::TensorType;

constexpr auto kSub = BuiltinOperator::SUB;

std::vector<uint8_t> int8Sub(std::vector<int32_t> shape, float s1, int64_t z1, float s2, int64_t z2,
                             float so, int64_t zo,
                             ActivationFunctionType act = ActivationFunctionType::NONE) {
  return binaryModel(kSub, qtensor(TensorType::INT8, shape, s1, z1),
                     qtensor(TensorType::INT8, shape, s2, z2),
                     qtensor(TensorType::INT8, shape, so, zo), subOptions(act));
}

TEST(Sub, Int8UnitScalesSaturate) {
  // Unit scales and zero points 0 make every rescaling exact: clamp(a - b).
  const auto model = int8Sub({4}, 1.0f, 0, 1.0f, 0, 1.0f, 0);
  EXPECT_EQ(runBinary<int8_t>(model, {100, -100, 5, -3}, {-100, 100, 3, 5}),
            (std::vector<int8_t>{127, -128, 2, -8}));
}

TEST(Sub, Int8RoundingTiesGoAwayFromZero) {
  // Output scale 2: differences 1, -1, -3, 4, 5 halve to 0.5, -0.5, -1.5, 2, 2.5.
  const auto model = int8Sub({5}, 1.0f, 0, 1.0f, 0, 2.0f, 0);
  EXPECT_EQ(runBinary<int8_t>(model, {1, 0, 0, 4, 5}, {0, 1, 3, 0, 0}),
            (std::vector<int8_t>{1, -1, -2, 2, 3}));
}

TEST(Sub, Int8ZeroPointsAtTheEndsOfTheRange) {
  // Scales 0.5 at zero points -128 and 127, output scale 1 zero point 0. Real differences:
  // 127.5 - (-127.5) = 255 -> 127; 0 - 0; 63.5 - 0 -> 64; 64 - (-0.5) -> 65; 0 - (-127) = 127.
  const auto model = int8Sub({5}, 0.5f, -128, 0.5f, 127, 1.0f, 0);
  EXPECT_EQ(runBinary<int8_t>(model, {127, -128, -1, 0, -128}, {-128, 127, 127, 126, -127}),
            (std::vector<int8_t>{127, 0, 64, 65, 127}));
}

TEST(Sub, Int8ActivationClamps) {
  // Output scale 0.5, zero point 10: RELU_N1_TO_1 keeps [8, 12].
  const auto model = int8Sub({3}, 0.5f, 0, 0.5f, 0, 0.5f, 10, ActivationFunctionType::RELU_N1_TO_1);
  EXPECT_EQ(runBinary<int8_t>(model, {10, -10, 1}, {0, 0, 0}), (std::vector<int8_t>{12, 8, 11}));
}

TEST(Sub, Int16ZeroPointsAtTheEndsOfTheRange) {
  // Scales 1 at zero points -32768 and 32767, output scale 2. Real differences / 2:
  // 65535 / 2 -> clamped, 0, 1 / 2 -> 1, 65534 / 2 = 32767.
  const auto model = binaryModel(kSub, qtensor(TensorType::INT16, {4}, 1.0f, -32768),
                                 qtensor(TensorType::INT16, {4}, 1.0f, 32767),
                                 qtensor(TensorType::INT16, {4}, 2.0f, 0), subOptions());
  EXPECT_EQ(
      runBinary<int16_t>(model, {32767, -32768, -32767, -32768}, {32767, 32767, 32767, -32767}),
      (std::vector<int16_t>{32767, 0, 1, 32767}));
}

TEST(Sub, BroadcastShapesMatchAnIndexReference) {
  struct Case {
    std::vector<int32_t> a, b, out;
  };
  const std::vector<Case> cases = {
      {{2, 1, 3}, {4, 1}, {2, 4, 3}},
      {{}, {3, 2}, {3, 2}},
      {{1, 3, 1, 2, 2}, {2, 1, 4, 1, 1}, {2, 3, 4, 2, 2}},
  };
  for (const Case& c : cases) {
    int64_t na = 1, nb = 1;
    for (int32_t d : c.a) na *= d;
    for (int32_t d : c.b) nb *= d;
    const auto a = ramp<int8_t>(size_t(na), -90, 90, 17);
    const auto b = ramp<int8_t>(size_t(nb), -80, 80, 23);
    const auto expected = broadcastReference(c.a, a, c.b, b, [](int8_t x, int8_t y) {
      return static_cast<int8_t>(std::clamp(int32_t{x} - int32_t{y}, -128, 127));
    });
    const auto model = binaryModel(kSub, qtensor(TensorType::INT8, c.a, 1.0f, 0),
                                   qtensor(TensorType::INT8, c.b, 1.0f, 0),
                                   qtensor(TensorType::INT8, c.out, 1.0f, 0), subOptions());
    EXPECT_EQ(runBinary(model, a, b), expected) << shapeName(c.a) << " - " << shapeName(c.b);
  }
}

TEST(Sub, FloatAndInt32ApplyTheFusedActivation) {
  const auto f =
      binaryModel(kSub, tensor(TensorType::FLOAT32, {3}), tensor(TensorType::FLOAT32, {3}),
                  tensor(TensorType::FLOAT32, {3}), subOptions(ActivationFunctionType::RELU));
  EXPECT_EQ(runBinary<float>(f, {1.0f, -2.0f, 3.0f}, {2.0f, -5.0f, 1.0f}),
            (std::vector<float>{0.0f, 3.0f, 2.0f}));

  const auto relu6 =
      binaryModel(kSub, tensor(TensorType::INT32, {3}), tensor(TensorType::INT32, {3}),
                  tensor(TensorType::INT32, {3}), subOptions(ActivationFunctionType::RELU6));
  EXPECT_EQ(runBinary<int32_t>(relu6, {10, 1, 3}, {2, 5, 0}), (std::vector<int32_t>{6, 0, 3}));

  const auto wrap =
      binaryModel(kSub, tensor(TensorType::INT32, {2}), tensor(TensorType::INT32, {2}),
                  tensor(TensorType::INT32, {2}), subOptions());
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(runBinary<int32_t>(wrap, {kMin, 7}, {1, 9}),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::max(), -2}));
}

TEST(Sub, MalformedOperatorsAreRejectedInPrepare) {
  const auto q8 = [](std::vector<int32_t> shape) {
    return qtensor(TensorType::INT8, std::move(shape), 0.5f, 0);
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {prepareError(binaryModel(kSub, q8({2, 3}), q8({2}), q8({2, 3}), subOptions())),
       "do not broadcast"},
      {prepareError(binaryModel(kSub, q8({3}), q8({3}), q8({3}))), "missing SubOptions"},
      {prepareError(binaryModel(kSub, tensor(TensorType::INT32, {3}),
                                tensor(TensorType::INT32, {3}),
                                qtensor(TensorType::INT32, {3}, 1.0f, 0), subOptions())),
       "output INT32 [3] must not be quantized"},
      {prepareError(
           binaryModel(kSub, q8({3}), tensor(TensorType::FLOAT32, {3}), q8({3}), subOptions())),
       "must have one type"},
      {prepareError(
           binaryModel(kSub, q8({3}), q8({3}), tensor(TensorType::INT8, {3}), subOptions())),
       "output INT8 [3] has no quantization parameters"},
  };
  for (const auto& [error, reason] : cases) {
    EXPECT_TRUE(mentions(error, "operator 0 (SUB)")) << error;
    EXPECT_TRUE(mentions(error, reason)) << error << "\n  expected: " << reason;
  }
}

}  // namespace
}  // namespace hilsim::test
