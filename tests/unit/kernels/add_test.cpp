// ADD: the freestanding arithmetic and the kernel through one-operator models against values
// worked out by hand or taken from TensorFlow Lite Micro's add_test.cc; prepare-time errors.

#include <gtest/gtest.h>

#include <limits>

#include "elementwise_test_util.h"
#include "hilsim/kernels/add.h"

namespace hilsim::test {
namespace {

using tflite::ActivationFunctionType;
using tflite::BuiltinOperator;
using tflite::TensorType;

constexpr auto kAdd = BuiltinOperator::ADD;

TEST(Add, Int8TfliteMicroVectors) {
  // add_test.cc QuantizedAddNoActivationInt8 / ActivationRelu1: inputs -2.01, -1.01, -0.01, 0.98
  // at scale 0.25, zero point -10 and 1.01, 1.99, 2.99, 4.02 at 0.5, 4; output scale 1, zp 13.
  const std::vector<int8_t> a = {-18, -14, -10, -6};
  const std::vector<int8_t> b = {6, 8, 10, 12};
  const auto model = [](ActivationFunctionType act) {
    return binaryModel(kAdd, qtensor(TensorType::INT8, {1, 2, 2, 1}, 0.25f, -10),
                       qtensor(TensorType::INT8, {1, 2, 2, 1}, 0.5f, 4),
                       qtensor(TensorType::INT8, {1, 2, 2, 1}, 1.0f, 13), addOptions(act));
  };
  EXPECT_EQ(runBinary(model(ActivationFunctionType::NONE), a, b),
            (std::vector<int8_t>{12, 14, 16, 18}));  // -1, 1, 3, 5
  EXPECT_EQ(runBinary(model(ActivationFunctionType::RELU_N1_TO_1), a, b),
            (std::vector<int8_t>{12, 14, 14, 14}));  // -1, 1, 1, 1
}

TEST(Add, Int8MixedBroadcastTfliteMicroVectors) {
  // add_test.cc QuantizedAddWithMixedBroadcastInt8: [2,3,1,2] + four shapes.
  const std::vector<float> in1 = {-0.3f, 2.3f, 0.9f,  0.5f, 0.8f, -1.1f,
                                  1.2f,  2.8f, -1.6f, 0.0f, 0.7f, -2.2f};
  const std::vector<float> in2 = {0.2f, 0.3f, -0.4f, 0.5f, 1.0f, 0.9f};
  const std::vector<std::vector<int32_t>> shapes2 = {
      {1, 1, 3, 2}, {1, 3, 1, 2}, {2, 1, 3, 1}, {2, 3, 1, 1}};
  const std::vector<std::vector<int32_t>> out_shapes = {
      {2, 3, 3, 2}, {2, 3, 1, 2}, {2, 3, 3, 2}, {2, 3, 1, 2}};
  const std::vector<std::vector<float>> goldens = {
      {-0.1f, 2.6f,  -0.7f, 2.8f,  0.7f,  3.2f,  1.1f, 0.8f,  0.5f, 1.0f,  1.9f, 1.4f,
       1.0f,  -0.8f, 0.4f,  -0.6f, 1.8f,  -0.2f, 1.4f, 3.1f,  0.8f, 3.3f,  2.2f, 3.7f,
       -1.4f, 0.3f,  -2.0f, 0.5f,  -0.6f, 0.9f,  0.9f, -1.9f, 0.3f, -1.7f, 1.7f, -1.3f},
      {-0.1f, 2.6f, 0.5f, 1.0f, 1.8f, -0.2f, 1.4f, 3.1f, -2.0f, 0.5f, 1.7f, -1.3f},
      {-0.1f, 2.5f,  0.0f,  2.6f,  -0.7f, 1.9f,  1.1f, 0.7f,  1.2f, 0.8f,  0.5f, 0.1f,
       1.0f,  -0.9f, 1.1f,  -0.8f, 0.4f,  -1.5f, 1.7f, 3.3f,  2.2f, 3.8f,  2.1f, 3.7f,
       -1.1f, 0.5f,  -0.6f, 1.0f,  -0.7f, 0.9f,  1.2f, -1.7f, 1.7f, -1.2f, 1.6f, -1.3f},
      {-0.1f, 2.5f, 1.2f, 0.8f, 0.4f, -1.5f, 1.7f, 3.3f, -0.6f, 1.0f, 1.6f, -1.3f},
  };
  for (size_t i = 0; i < shapes2.size(); ++i) {
    const auto model = binaryModel(kAdd, qtensor(TensorType::INT8, {2, 3, 1, 2}, 0.1f, -10),
                                   qtensor(TensorType::INT8, shapes2[i], 0.05f, -5),
                                   qtensor(TensorType::INT8, out_shapes[i], 0.1f, 7), addOptions());
    EXPECT_EQ(runBinary(model, quantizeValues<int8_t>(in1, 0.1f, -10),
                        quantizeValues<int8_t>(in2, 0.05f, -5)),
              quantizeValues<int8_t>(goldens[i], 0.1f, 7))
        << "shape " << i;
  }
}

// Unit scales, zero points 0: every rescaling is exact, so the result is clamp(a + b).
kernels::QuantizedAddParams unitScaleParams(int32_t left_shift, int32_t act_min, int32_t act_max) {
  kernels::QuantizedAddParams p;
  p.left_shift = left_shift;
  p.input1_multiplier = p.input2_multiplier = 1 << 30;  // 0.5
  p.input1_shift = p.input2_shift = 0;
  p.output_multiplier = 1 << 30;  // 2 / 2^left_shift
  p.output_shift = 2 - left_shift;
  p.act_min = act_min;
  p.act_max = act_max;
  return p;
}

kernels::BroadcastLoops flatLoops(int32_t n) {
  kernels::BroadcastLoops loops;
  int32_t shape[kernels::kMaxBroadcastRank];
  int32_t rank = 0;
  EXPECT_EQ(kernels::planBroadcast(&n, 1, &n, 1, &loops, shape, &rank),
            kernels::BroadcastStatus::kOk);
  return loops;
}

TEST(Add, Int8SaturatesAtBothEnds) {
  const int8_t a[] = {100, -100, 127, -128, 3};
  const int8_t b[] = {100, -100, 127, -128, -5};
  int8_t out[5] = {};
  kernels::addInt8(unitScaleParams(20, -128, 127), flatLoops(5), a, b, out);
  EXPECT_EQ(std::vector<int8_t>(out, out + 5), (std::vector<int8_t>{127, -128, 127, -128, -2}));
}

TEST(Add, Int8RoundingTiesGoAwayFromZero) {
  // Input scales 1, output scale 2: a / 2 exactly on .5 rounds half away from zero.
  const auto model = binaryModel(kAdd, qtensor(TensorType::INT8, {6}, 1.0f, 0),
                                 qtensor(TensorType::INT8, {6}, 1.0f, 0),
                                 qtensor(TensorType::INT8, {6}, 2.0f, 0), addOptions());
  EXPECT_EQ(runBinary<int8_t>(model, {1, -1, 3, -3, 5, 2}, {0, 0, 0, 0, 0, 2}),
            (std::vector<int8_t>{1, -1, 2, -2, 3, 2}));
}

TEST(Add, Int8ZeroPointsAtTheEndsOfTheRange) {
  // Input 1 at zero point -128, input 2 at 127, both scale 0.5; output scale 1, zero point -128.
  // Real sums 0, 0, 127.5 (-> 128 -> 0), -127.5 (-> -128 -> -256, clamped).
  const auto model = binaryModel(kAdd, qtensor(TensorType::INT8, {4}, 0.5f, -128),
                                 qtensor(TensorType::INT8, {4}, 0.5f, 127),
                                 qtensor(TensorType::INT8, {4}, 1.0f, -128), addOptions());
  EXPECT_EQ(runBinary<int8_t>(model, {-128, 127, 127, -128}, {127, -128, 127, -128}),
            (std::vector<int8_t>{-128, -128, 0, -128}));
}

TEST(Add, Int8ActivationClamps) {
  // Output scale 0.1, zero point -20: RELU6 keeps [-20, 40]; RELU keeps [-20, 127].
  const auto model = [](ActivationFunctionType act) {
    return binaryModel(kAdd, qtensor(TensorType::INT8, {3}, 0.1f, 0),
                       qtensor(TensorType::INT8, {3}, 0.1f, 0),
                       qtensor(TensorType::INT8, {3}, 0.1f, -20), addOptions(act));
  };
  const std::vector<int8_t> a = {50, -10, 20};
  const std::vector<int8_t> b = {30, 0, 5};  // sums 8.0, -1.0, 2.5
  EXPECT_EQ(runBinary(model(ActivationFunctionType::RELU6), a, b),
            (std::vector<int8_t>{40, -20, 5}));
  EXPECT_EQ(runBinary(model(ActivationFunctionType::RELU), a, b),
            (std::vector<int8_t>{60, -20, 5}));
  EXPECT_EQ(runBinary(model(ActivationFunctionType::NONE), a, b),
            (std::vector<int8_t>{60, -30, 5}));
  // TFLite Micro treats the non-ReLU fused activations as none.
  EXPECT_EQ(runBinary(model(ActivationFunctionType::TANH), a, b),
            (std::vector<int8_t>{60, -30, 5}));
}

TEST(Add, Int16ZeroPointsAtTheEndsOfTheRange) {
  // Scales 1, 1 -> 2; zero points -32768 and 32767. Real sums 0, 32767.5, -32767.5, 1 (/2).
  const auto model = binaryModel(kAdd, qtensor(TensorType::INT16, {4}, 1.0f, -32768),
                                 qtensor(TensorType::INT16, {4}, 1.0f, 32767),
                                 qtensor(TensorType::INT16, {4}, 2.0f, 0), addOptions());
  EXPECT_EQ(runBinary<int16_t>(model, {32767, 32767, -32768, 0}, {-32768, 32767, -32768, 0}),
            (std::vector<int16_t>{0, 32767, -32768, 1}));
}

TEST(Add, Int16TfliteMicroVectors) {
  // add_test.cc QuantizedAddNoActivationInt16 (scales 0.25, 0.5 -> 1.0, zero points 0).
  const std::vector<float> a = {-2.01f, -1.01f, -0.01f, 0.98f};
  const std::vector<float> b = {1.01f, 2.01f, 3.01f, 4.02f};
  const auto model = binaryModel(kAdd, qtensor(TensorType::INT16, {1, 2, 2, 1}, 0.25f, 0),
                                 qtensor(TensorType::INT16, {1, 2, 2, 1}, 0.5f, 0),
                                 qtensor(TensorType::INT16, {1, 2, 2, 1}, 1.0f, 0), addOptions());
  EXPECT_EQ(
      runBinary(model, quantizeValues<int16_t>(a, 0.25f, 0), quantizeValues<int16_t>(b, 0.5f, 0)),
      (std::vector<int16_t>{-1, 1, 3, 5}));
}

TEST(Add, BroadcastShapesMatchAnIndexReference) {
  struct Case {
    std::vector<int32_t> a, b, out;
  };
  const std::vector<Case> cases = {
      {{}, {2, 3}, {2, 3}},                                          // scalar vs tensor
      {{2, 3}, {}, {2, 3}},                                          // tensor vs scalar
      {{1, 5}, {2, 3, 4, 5}, {2, 3, 4, 5}},                          // [1,C] vs [N,H,W,C]
      {{2, 3, 4, 5}, {5}, {2, 3, 4, 5}},                             // [N,H,W,C] vs [C]
      {{2, 1, 3, 1, 2}, {1, 2, 1, 2, 1}, {2, 2, 3, 2, 2}},           // 5-D, both broadcast
      {{3, 1, 1, 2, 1, 2}, {1, 2, 2, 1, 3, 1}, {3, 2, 2, 2, 3, 2}},  // 6-D
      {{2, 1, 2, 1, 2, 1, 2, 1}, {1, 2, 1, 2, 1, 2, 1, 2}, {2, 2, 2, 2, 2, 2, 2, 2}},  // 8-D
      {{1, 1, 1}, {1}, {1, 1, 1}},  // one element
  };
  for (const Case& c : cases) {
    int64_t na = 1, nb = 1;
    for (int32_t d : c.a) na *= d;
    for (int32_t d : c.b) nb *= d;
    const auto a = ramp<int8_t>(size_t(na), -60, 60, 13);
    const auto b = ramp<int8_t>(size_t(nb), -70, 70, 11);
    const auto expected = broadcastReference(c.a, a, c.b, b, [](int8_t x, int8_t y) {
      return static_cast<int8_t>(std::clamp(int32_t{x} + int32_t{y}, -128, 127));
    });
    const auto model = binaryModel(kAdd, qtensor(TensorType::INT8, c.a, 1.0f, 0),
                                   qtensor(TensorType::INT8, c.b, 1.0f, 0),
                                   qtensor(TensorType::INT8, c.out, 1.0f, 0), addOptions());
    EXPECT_EQ(runBinary(model, a, b), expected) << shapeName(c.a) << " + " << shapeName(c.b);
  }
}

TEST(Add, FloatActivationAndScalarBroadcast) {
  // add_test.cc FloatAddActivationRelu1 and FloatAddWithScalarBroadcast.
  const auto relu1 = binaryModel(
      kAdd, tensor(TensorType::FLOAT32, {1, 2, 2, 1}), tensor(TensorType::FLOAT32, {1, 2, 2, 1}),
      tensor(TensorType::FLOAT32, {1, 2, 2, 1}), addOptions(ActivationFunctionType::RELU_N1_TO_1));
  const auto got = runBinary<float>(relu1, {-2.0f, 0.2f, 0.7f, 0.8f}, {0.1f, 0.2f, 0.3f, 0.5f});
  EXPECT_EQ(got, (std::vector<float>{-1.0f, 0.4f, 1.0f, 1.0f}));

  const auto scalar =
      binaryModel(kAdd, tensor(TensorType::FLOAT32, {1, 3, 1, 2}), tensor(TensorType::FLOAT32, {}),
                  tensor(TensorType::FLOAT32, {1, 3, 1, 2}), addOptions());
  const auto sums = runBinary<float>(scalar, {-2.0f, 0.2f, 0.7f, 0.8f, 1.1f, 2.0f}, {0.1f});
  const std::vector<float> expected = {-1.9f, 0.3f, 0.8f, 0.9f, 1.2f, 2.1f};
  ASSERT_EQ(sums.size(), expected.size());
  for (size_t i = 0; i < sums.size(); ++i) EXPECT_FLOAT_EQ(sums[i], expected[i]);
}

TEST(Add, Int32WrapsAndIgnoresTheFusedActivation) {
  const auto model =
      binaryModel(kAdd, tensor(TensorType::INT32, {3}), tensor(TensorType::INT32, {3}),
                  tensor(TensorType::INT32, {3}), addOptions(ActivationFunctionType::RELU));
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(runBinary<int32_t>(model, {kMax, -5, kMin}, {1, 2, -1}),
            (std::vector<int32_t>{kMin, -3, kMax}));
}

// TFLite Micro's prepare for an int32 output (add_common.cc AddPrepare, sub_common.cc SubPrepare)
// requires unquantized inputs, and SUB also an unquantized output; ADD does not look at its
// output's quantization. TFLite Micro counts a tensor as quantized only when it has a scale and a
// zero point (micro_allocator.cc), so a scale alone, or a zero point alone, is no quantization.
TEST(AddSubInt32, QuantizationIsAcceptedAndRefusedAsTfliteMicroPrepares) {
  const auto plain = [] { return tensor(TensorType::INT32, {2}); };
  const auto quantized = [] { return qtensor(TensorType::INT32, {2}, 1.0f, 0); };
  const auto scale_only = [] {
    TensorSpec t = tensor(TensorType::INT32, {2});
    t.scales = {0.5f};
    return t;
  };
  const auto zero_point_only = [] {
    TensorSpec t = tensor(TensorType::INT32, {2});
    t.zero_points = {3};
    return t;
  };
  struct Case {
    const char* what;
    TensorSpec in1, in2, out;
    bool add_accepts, sub_accepts;
  };
  const std::vector<Case> cases = {
      {"none quantized", plain(), plain(), plain(), true, true},
      {"input1 quantized", quantized(), plain(), plain(), false, false},
      {"input2 quantized", plain(), quantized(), plain(), false, false},
      {"output quantized", plain(), plain(), quantized(), true, false},
      {"input1 with a scale only", scale_only(), plain(), plain(), true, true},
      {"output with a scale only", plain(), plain(), scale_only(), true, true},
      {"input2 with a zero point only", plain(), zero_point_only(), plain(), true, true},
      {"output with a zero point only", plain(), plain(), zero_point_only(), true, true},
  };
  const std::vector<int32_t> a = {7, -5};
  const std::vector<int32_t> b = {3, 2};
  for (const Case& c : cases) {
    const auto add = binaryModel(kAdd, c.in1, c.in2, c.out, addOptions());
    const auto sub = binaryModel(BuiltinOperator::SUB, c.in1, c.in2, c.out, subOptions());
    const std::string add_error = prepareError(add);
    const std::string sub_error = prepareError(sub);
    if (c.add_accepts) {
      EXPECT_EQ(add_error, "") << c.what;
      if (add_error.empty()) {
        EXPECT_EQ(runBinary(add, a, b), (std::vector<int32_t>{10, -3}));
      }
    } else {
      EXPECT_TRUE(mentions(add_error, "must not be quantized")) << c.what << ": " << add_error;
    }
    if (c.sub_accepts) {
      EXPECT_EQ(sub_error, "") << c.what;
      if (sub_error.empty()) {
        EXPECT_EQ(runBinary(sub, a, b), (std::vector<int32_t>{4, -7}));
      }
    } else {
      EXPECT_TRUE(mentions(sub_error, "must not be quantized")) << c.what << ": " << sub_error;
    }
  }
}

std::string addError(TensorSpec a, TensorSpec b, TensorSpec out,
                     tflite::BuiltinOptionsUnion options = addOptions()) {
  return prepareError(
      binaryModel(kAdd, std::move(a), std::move(b), std::move(out), std::move(options)));
}

TEST(Add, MalformedOperatorsAreRejectedInPrepare) {
  const auto q8 = [](std::vector<int32_t> shape, float scale = 0.5f, int64_t zp = 0) {
    return qtensor(TensorType::INT8, std::move(shape), scale, zp);
  };
  struct Case {
    std::string error;
    std::string reason;
  };
  tflite::BuiltinOptionsUnion bad_activation = addOptions();
  bad_activation.AsAddOptions()->fused_activation_function = static_cast<ActivationFunctionType>(9);
  TensorSpec per_channel = q8({2, 3});
  per_channel.scales = {0.5f, 0.5f, 0.5f};
  per_channel.zero_points = {0, 0, 0};
  per_channel.quantized_dimension = 1;
  const std::vector<Case> cases = {
      {addError(q8({2, 3}), q8({3, 2}), q8({2, 3})), "do not broadcast"},
      {addError(q8({2, 3}), q8({3}), q8({2, 4})), "is not the broadcast shape"},
      {addError(q8({2, 3}), q8({3}), q8({6})), "is not the broadcast shape"},
      {addError(tensor(TensorType::INT8, {3}), q8({3}), q8({3})), "no quantization parameters"},
      {addError(per_channel, q8({2, 3}), q8({2, 3})), "quantized per tensor"},
      {addError(q8({3}), q8({3}), q8({3}), {}), "missing AddOptions"},
      {addError(q8({3}), q8({3}), q8({3}), std::move(bad_activation)),
       "fused activation 9 is not a valid activation"},
      {addError(q8({3}), qtensor(TensorType::INT16, {3}, 0.5f, 0), q8({3})), "must have one type"},
      {addError(tensor(TensorType::UINT8, {3}), tensor(TensorType::UINT8, {3}),
                tensor(TensorType::UINT8, {3})),
       "unsupported type UINT8"},
      {addError(qtensor(TensorType::INT32, {3}, 1.0f, 0), tensor(TensorType::INT32, {3}),
                tensor(TensorType::INT32, {3})),
       "must not be quantized"},
      // The output multiplier 2 * 0.5 / (2^20 * 2^-21) = 2 cannot be applied as a right shift.
      {addError(q8({3}), q8({3}), q8({3}, 1.0f / (1 << 21))), "must lie in (0, 1)"},
      {addError(q8({1, 1, 1, 1, 1, 1, 1, 1, 3}), q8({3}), q8({1, 1, 1, 1, 1, 1, 1, 1, 3})),
       "at most 8 dimensions"},
  };
  for (const Case& c : cases) {
    EXPECT_TRUE(mentions(c.error, "operator 0 (ADD)")) << c.error;
    EXPECT_TRUE(mentions(c.error, c.reason)) << c.error << "\n  expected: " << c.reason;
  }

  // Zero points outside the type and non-positive scales are rejected when the model loads.
  const std::vector<Case> load_cases = {
      {addError(q8({3}, 0.5f, 128), q8({3}), q8({3})), "zero point 128 is outside the INT8 range"},
      {addError(q8({3}), q8({3}, 0.5f, -129), q8({3})), "zero point -129 is outside"},
      {addError(qtensor(TensorType::INT16, {3}, 1.0f, 40000),
                qtensor(TensorType::INT16, {3}, 1.0f, 0), qtensor(TensorType::INT16, {3}, 1.0f, 0)),
       "zero point 40000 is outside the INT16 range"},
      {addError(q8({3}, 0.0f), q8({3}), q8({3})), "is not a positive finite number"},
      {addError(q8({3}, -1.0f), q8({3}), q8({3})), "is not a positive finite number"},
  };
  for (const Case& c : load_cases)
    EXPECT_TRUE(mentions(c.error, c.reason)) << c.error << "\n  expected: " << c.reason;

  OpModel three;
  const int32_t x = three.addTensor(q8({3}));
  const int32_t y = three.addTensor(q8({3}));
  const int32_t z = three.addTensor(q8({3}));
  const int32_t o = three.addTensor(q8({3}));
  three.addOp(kAdd, {x, y, z}, {o}, addOptions());
  three.setInputs({x, y, z});
  three.setOutputs({o});
  const std::string error = prepareError(three.finish());
  EXPECT_TRUE(mentions(error, "operator 0 (ADD)") && mentions(error, "expects 2 inputs, has 3"))
      << error;
}

}  // namespace
}  // namespace hilsim::test
