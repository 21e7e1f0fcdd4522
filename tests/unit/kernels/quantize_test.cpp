// QUANTIZE: float -> int8/int16 and the integer requantizations against hand-worked values,
// through the freestanding functions and one-operator models; prepare-time errors.

#include <gtest/gtest.h>

#include <limits>

#include "elementwise_test_util.h"
#include "hilsim/kernels/quantize.h"

namespace hilsim::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

std::vector<uint8_t> quantizeModel(TensorSpec in, TensorSpec out) {
  OpModel m;
  const int32_t i = m.addTensor(std::move(in));
  const int32_t o = m.addTensor(std::move(out));
  m.addOp(BuiltinOperator::QUANTIZE, {i}, {o});
  m.setInputs({i});
  m.setOutputs({o});
  return m.finish();
}

template <typename Out, typename In>
std::vector<Out> run(TensorSpec in, TensorSpec out, const std::vector<In>& input) {
  return valuesOf<Out>(runModel(quantizeModel(std::move(in), std::move(out)), {bytesOf(input)}));
}

TEST(Quantize, FloatToInt8RoundsHalfAwayFromZeroAndSaturates) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float in[] = {0.25f, -0.25f, 0.75f, -0.75f, 1000.0f, -1000.0f, nan};
  int8_t out[7] = {};
  kernels::quantizeFloatToInt8({7, 0.5f, 0}, in, out);
  // x / 0.5: 0.5 -> 1, -0.5 -> -1, 1.5 -> 2, -1.5 -> -2, clamped; NaN converts to INT32_MIN.
  EXPECT_EQ(std::vector<int8_t>(out, out + 7),
            (std::vector<int8_t>{1, -1, 2, -2, 127, -128, -128}));

  // Out of the int32 range the quotient converts to INT32_MIN, and the zero point is added
  // wrapping: INT32_MIN - 128 becomes 2^31 - 128, clamped to 127 (TFLite Micro on x86).
  const float huge[] = {-1e10f};
  int8_t wrapped = 0;
  kernels::quantizeFloatToInt8({1, 1.0f, -128}, huge, &wrapped);
  EXPECT_EQ(wrapped, 127);
}

TEST(Quantize, FloatToInt16AtTheLowestZeroPoint) {
  // Scale 1/256, zero point -32768: 256 -> 65536 - 32768 clamps to 32767.
  EXPECT_EQ((run<int16_t>(tensor(TensorType::FLOAT32, {4}),
                          qtensor(TensorType::INT16, {4}, 1.0f / 256, -32768),
                          std::vector<float>{0.0f, 256.0f, 127.99609375f, -1.0f})),
            (std::vector<int16_t>{-32768, 32767, -1, -32768}));
}

TEST(Quantize, Int8ToInt8Requantization) {
  // Scale 1 -> 2 (multiplier 2^30, shift 0): the doubling high multiply rounds halves up,
  // 0.5 -> 1, -0.5 -> 0, 1.5 -> 2, -1.5 -> -1.
  EXPECT_EQ(
      (run<int8_t>(qtensor(TensorType::INT8, {6}, 1.0f, 0), qtensor(TensorType::INT8, {6}, 2.0f, 0),
                   std::vector<int8_t>{1, -1, 3, -3, 127, -128})),
      (std::vector<int8_t>{1, 0, 2, -1, 64, -64}));
  // Zero points at the ends: input -128, output -128; centred values 255, 0, 1, 3 halve to
  // 127.5 -> 128, 0, 0.5 -> 1, 1.5 -> 2.
  EXPECT_EQ((run<int8_t>(qtensor(TensorType::INT8, {4}, 1.0f, -128),
                         qtensor(TensorType::INT8, {4}, 2.0f, -128),
                         std::vector<int8_t>{127, -128, -127, -125})),
            (std::vector<int8_t>{0, -128, -127, -126}));
}

TEST(Quantize, Int8AndUint8) {
  EXPECT_EQ(
      (run<uint8_t>(qtensor(TensorType::INT8, {3}, 1.0f, 0),
                    qtensor(TensorType::UINT8, {3}, 1.0f, 128), std::vector<int8_t>{-128, 0, 127})),
      (std::vector<uint8_t>{0, 128, 255}));
  EXPECT_EQ(
      (run<int8_t>(qtensor(TensorType::UINT8, {3}, 1.0f, 128),
                   qtensor(TensorType::INT8, {3}, 1.0f, 0), std::vector<uint8_t>{0, 128, 255})),
      (std::vector<int8_t>{-128, 0, 127}));
  // Scale 1 -> 2 at zero points 0 and -128: 255 / 2 -> 128 - 128, 3 / 2 -> 2 - 128.
  EXPECT_EQ(
      (run<int8_t>(qtensor(TensorType::UINT8, {3}, 1.0f, 0),
                   qtensor(TensorType::INT8, {3}, 2.0f, -128), std::vector<uint8_t>{255, 0, 3})),
      (std::vector<int8_t>{0, -128, -126}));
}

TEST(Quantize, Int16Int32Requantizations) {
  // Scale 0.5 -> 0.25 doubles exactly.
  EXPECT_EQ((run<int32_t>(qtensor(TensorType::INT16, {2}, 0.5f, 0),
                          qtensor(TensorType::INT32, {2}, 0.25f, 0),
                          std::vector<int16_t>{-32768, 32767})),
            (std::vector<int32_t>{-65536, 65534}));
  // Scale 1 -> 4 (multiplier 2^30, shift -1): 6 / 4 -> 3 / 2 -> 2, 5 / 4 -> 3 / 2 -> 2 (double
  // rounding), -6 / 4 -> -3 / 2 -> -2; 200000 / 4 clamps.
  EXPECT_EQ((run<int16_t>(qtensor(TensorType::INT32, {4}, 1.0f, 0),
                          qtensor(TensorType::INT16, {4}, 4.0f, 0),
                          std::vector<int32_t>{6, 5, -6, 200000})),
            (std::vector<int16_t>{2, 2, -2, 32767}));
  // int16 at zero point 32767 to int8 at scale 256, zero point 127: centred -65535 -> -256 ->
  // clamped; -32767 -> -127.99 -> -128 -> -1; 0 -> 127; -128 -> -0.5 -> -1 -> 126.
  EXPECT_EQ((run<int8_t>(qtensor(TensorType::INT16, {4}, 1.0f, 32767),
                         qtensor(TensorType::INT8, {4}, 256.0f, 127),
                         std::vector<int16_t>{-32768, 0, 32767, 32639})),
            (std::vector<int8_t>{-128, -1, 127, 126}));
}

TEST(Quantize, MalformedOperatorsAreRejectedInPrepare) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {prepareError(quantizeModel(tensor(TensorType::FLOAT32, {3}),
                                  qtensor(TensorType::INT32, {3}, 1.0f, 0))),
       "unsupported conversion from FLOAT32 [3] to INT32 [3]"},
      {prepareError(quantizeModel(qtensor(TensorType::INT32, {3}, 1.0f, 0),
                                  qtensor(TensorType::INT32, {3}, 1.0f, 0))),
       "unsupported conversion"},
      {prepareError(quantizeModel(qtensor(TensorType::INT16, {3}, 1.0f, 0),
                                  qtensor(TensorType::UINT8, {3}, 1.0f, 0))),
       "unsupported conversion"},
      {prepareError(quantizeModel(tensor(TensorType::FLOAT32, {3}), tensor(TensorType::INT8, {3}))),
       "output INT8 [3] has no quantization parameters"},
      {prepareError(
           quantizeModel(tensor(TensorType::INT8, {3}), qtensor(TensorType::INT8, {3}, 1.0f, 0))),
       "input INT8 [3] has no quantization parameters"},
      {prepareError(quantizeModel(tensor(TensorType::FLOAT32, {3}),
                                  qtensor(TensorType::INT8, {4}, 1.0f, 0))),
       "different element counts"},
  };
  for (const auto& [error, reason] : cases) {
    EXPECT_TRUE(mentions(error, "operator 0 (QUANTIZE)")) << error;
    EXPECT_TRUE(mentions(error, reason)) << error << "\n  expected: " << reason;
  }
  TensorSpec per_channel = qtensor(TensorType::INT8, {2, 2}, 1.0f, 0);
  per_channel.scales = {1.0f, 2.0f};
  per_channel.zero_points = {0, 0};
  const std::string error =
      prepareError(quantizeModel(tensor(TensorType::FLOAT32, {2, 2}), per_channel));
  EXPECT_TRUE(mentions(error, "operator 0 (QUANTIZE)") && mentions(error, "quantized per tensor"))
      << error;
}

}  // namespace
}  // namespace hilsim::test
