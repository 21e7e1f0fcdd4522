// MAXIMUM and MINIMUM: the freestanding comparisons (NaN handling) and the kernels through
// one-operator models, with broadcasting; prepare-time errors.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "elementwise_test_util.h"
#include "hilsim/kernels/maximum_minimum.h"

namespace hilsim::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

TEST(MaximumMinimum, Int8WithBroadcast) {
  // [3,1,2] against [2]: each row of two against (2, -1).
  const std::vector<int8_t> a = {1, 0, -1, -2, 3, 11};
  const std::vector<int8_t> b = {2, -1};
  const auto model = [](BuiltinOperator op) {
    return binaryModel(op, qtensor(TensorType::INT8, {3, 1, 2}, 0.5f, 0),
                       qtensor(TensorType::INT8, {2}, 0.5f, 0),
                       qtensor(TensorType::INT8, {3, 1, 2}, 0.5f, 0));
  };
  EXPECT_EQ(runBinary(model(BuiltinOperator::MAXIMUM), a, b),
            (std::vector<int8_t>{2, 0, 2, -1, 3, 11}));
  EXPECT_EQ(runBinary(model(BuiltinOperator::MINIMUM), a, b),
            (std::vector<int8_t>{1, -1, -1, -2, 2, -1}));
}

TEST(MaximumMinimum, ComparesStoredValuesWhateverTheQuantization) {
  // TFLite Micro does not rescale: 10 at scale 1 against 20 at scale 0.1 gives 20.
  const auto model = binaryModel(BuiltinOperator::MAXIMUM, qtensor(TensorType::INT8, {2}, 1.0f, 0),
                                 qtensor(TensorType::INT8, {2}, 0.1f, 5),
                                 qtensor(TensorType::INT8, {2}, 0.5f, -3));
  EXPECT_EQ(runBinary<int8_t>(model, {10, -128}, {20, 127}), (std::vector<int8_t>{20, 127}));
}

TEST(MaximumMinimum, ExtremesOfEachIntegerType) {
  const auto run = [](BuiltinOperator op, TensorType type, auto a, auto b) {
    using T = typename decltype(a)::value_type;
    const int32_t n = static_cast<int32_t>(a.size());
    return runBinary<T>(binaryModel(op, tensor(type, {n}), tensor(type, {n}), tensor(type, {n})), a,
                        b);
  };
  using I16 = std::numeric_limits<int16_t>;
  using I32 = std::numeric_limits<int32_t>;
  using I64 = std::numeric_limits<int64_t>;
  EXPECT_EQ(run(BuiltinOperator::MAXIMUM, TensorType::INT16, std::vector<int16_t>{I16::min(), 5},
                std::vector<int16_t>{I16::max(), -5}),
            (std::vector<int16_t>{I16::max(), 5}));
  EXPECT_EQ(run(BuiltinOperator::MINIMUM, TensorType::INT32, std::vector<int32_t>{I32::min(), 0},
                std::vector<int32_t>{I32::max(), -1}),
            (std::vector<int32_t>{I32::min(), -1}));
  EXPECT_EQ(run(BuiltinOperator::MAXIMUM, TensorType::INT64, std::vector<int64_t>{I64::min(), 1},
                std::vector<int64_t>{I64::max(), int64_t{1} << 40}),
            (std::vector<int64_t>{I64::max(), int64_t{1} << 40}));
}

TEST(MaximumMinimum, FloatNaNFollowsTheComparison) {
  // a > b ? a : b: a NaN in the second operand wins, a NaN in the first alone loses.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float a[] = {nan, 1.0f, -0.0f, 2.5f};
  const float b[] = {1.0f, nan, 0.0f, -7.0f};
  float max[4] = {};
  float min[4] = {};
  kernels::BroadcastLoops loops;
  const int32_t shape[] = {4};
  int32_t out_shape[kernels::kMaxBroadcastRank];
  int32_t rank = 0;
  ASSERT_EQ(kernels::planBroadcast(shape, 1, shape, 1, &loops, out_shape, &rank),
            kernels::BroadcastStatus::kOk);
  kernels::maximumFloat(loops, a, b, max);
  kernels::minimumFloat(loops, a, b, min);
  EXPECT_EQ(max[0], 1.0f);
  EXPECT_TRUE(std::isnan(max[1]));
  EXPECT_EQ(min[0], 1.0f);
  EXPECT_TRUE(std::isnan(min[1]));
  // -0 and +0 compare equal: the second operand is returned.
  EXPECT_FALSE(std::signbit(max[2]));
  EXPECT_FALSE(std::signbit(min[2]));
  EXPECT_EQ(max[3], 2.5f);
  EXPECT_EQ(min[3], -7.0f);
}

TEST(MaximumMinimum, FiveDimensionalBroadcastMatchesAnIndexReference) {
  const std::vector<int32_t> sa = {2, 1, 3, 1, 2};
  const std::vector<int32_t> sb = {1, 2, 1, 2, 1};
  const std::vector<int32_t> so = {2, 2, 3, 2, 2};
  const auto a = ramp<float>(12, -6, 6, 5);
  const auto b = ramp<float>(4, -3, 3, 2);
  const auto model = binaryModel(BuiltinOperator::MINIMUM, tensor(TensorType::FLOAT32, sa),
                                 tensor(TensorType::FLOAT32, sb), tensor(TensorType::FLOAT32, so));
  EXPECT_EQ(runBinary(model, a, b),
            broadcastReference(sa, a, sb, b, [](float x, float y) { return std::min(x, y); }));
}

TEST(MaximumMinimum, MalformedOperatorsAreRejectedInPrepare) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {prepareError(binaryModel(BuiltinOperator::MAXIMUM, tensor(TensorType::INT8, {2, 3}),
                                tensor(TensorType::INT8, {3, 2}),
                                tensor(TensorType::INT8, {2, 3}))),
       "do not broadcast"},
      {prepareError(binaryModel(BuiltinOperator::MAXIMUM, tensor(TensorType::INT8, {3}),
                                tensor(TensorType::INT16, {3}), tensor(TensorType::INT8, {3}))),
       "must have one type"},
      {prepareError(binaryModel(BuiltinOperator::MAXIMUM, tensor(TensorType::UINT8, {3}),
                                tensor(TensorType::UINT8, {3}), tensor(TensorType::UINT8, {3}))),
       "unsupported type UINT8"},
  };
  for (const auto& [error, reason] : cases) {
    EXPECT_TRUE(mentions(error, "operator 0 (MAXIMUM)")) << error;
    EXPECT_TRUE(mentions(error, reason)) << error << "\n  expected: " << reason;
  }
  const std::string min_error =
      prepareError(binaryModel(BuiltinOperator::MINIMUM, tensor(TensorType::FLOAT32, {3}),
                               tensor(TensorType::FLOAT32, {3}), tensor(TensorType::FLOAT32, {4})));
  EXPECT_TRUE(mentions(min_error, "operator 0 (MINIMUM)") &&
              mentions(min_error, "is not the broadcast shape"))
      << min_error;
}

}  // namespace
}  // namespace hilsim::test
