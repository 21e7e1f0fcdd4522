// AVERAGE_POOL_2D arithmetic in the freestanding library: averages of the taps inside the input
// rounded half away from zero, windows cut at the borders, the activation clamp, the
// prepare-time check that every window covers the input, and activation bounds beyond int32.
// int8 and int16 models against TensorFlow Lite Micro's pooling_test.cc goldens.

#include <gtest/gtest.h>

#include "hilsim/kernels/pooling.h"
#include "op_model.h"

namespace hilsim::test {
namespace {

kernels::PoolParams rowPool(int32_t in_w, int32_t filter_w, int32_t stride_w, int32_t out_w,
                            int32_t pad_w) {
  kernels::PoolParams p;
  p.geo.batches = 1;
  p.geo.in_h = p.geo.out_h = p.geo.filter_h = 1;
  p.geo.in_w = in_w;
  p.geo.filter_w = filter_w;
  p.geo.stride_w = stride_w;
  p.geo.out_w = out_w;
  p.geo.pad_w = pad_w;
  p.geo.in_c = p.geo.out_c = 1;
  p.act_min = -128;
  p.act_max = 127;
  return p;
}

TEST(AveragePool, HalvesRoundAwayFromZero) {
  // Pairs {3,4} -> 3.5 -> 4, {-3,-4} -> -3.5 -> -4, {-128,-127} -> -127.5 -> -128.
  const kernels::PoolParams p = rowPool(6, 2, 2, 3, 0);
  const int8_t in[] = {3, 4, -3, -4, -128, -127};
  int32_t acc[1];
  int8_t out[3] = {};
  kernels::averagePoolInt8(p, in, acc, out);
  EXPECT_EQ(std::vector<int8_t>(out, out + 3), (std::vector<int8_t>{4, -4, -128}));
}

TEST(AveragePool, BorderWindowsCountOnlyTheirTaps) {
  // {1,2,4}, 1x2 windows, stride 2, SAME (padding after): {1,2} -> 1.5 -> 2, {4} -> 4; the
  // activation range [-128, 3] clamps the second.
  kernels::PoolParams p = rowPool(3, 2, 2, 2, 0);
  p.act_max = 3;
  const int8_t in[] = {1, 2, 4};
  int32_t acc[1];
  int8_t out[2] = {};
  kernels::averagePoolInt8(p, in, acc, out);
  EXPECT_EQ(out[0], 2);
  EXPECT_EQ(out[1], 3);
}

TEST(AveragePool, WindowsMustCoverTheInput) {
  EXPECT_TRUE(kernels::poolWindowsCoverInput(rowPool(3, 2, 2, 2, 0).geo));
  // A window starting 2 columns before a 1-wide filter's reach covers nothing.
  EXPECT_FALSE(kernels::poolWindowsCoverInput(rowPool(3, 1, 1, 1, 2).geo));
  // A window starting past the input's end.
  EXPECT_FALSE(kernels::poolWindowsCoverInput(rowPool(3, 1, 4, 2, 0).geo));
}

using tflite::ActivationFunctionType;
using tflite::TensorType;

struct AvgPoolCase {
  TensorType type = TensorType::INT16;
  std::vector<int32_t> out_shape;
  int32_t stride_h = 2, stride_w = 2;
  tflite::Padding padding = tflite::Padding::VALID;
  ActivationFunctionType activation = ActivationFunctionType::NONE;
};

// TensorFlow Lite Micro's quantized AveragePool cases: input [1,2,4,1], 2x2 windows, input and
// output scale 0.25, zero point 0.
std::vector<uint8_t> avgPoolModel(const AvgPoolCase& c) {
  OpModel m;
  const int32_t in = m.addTensor(qtensor(c.type, {1, 2, 4, 1}, 0.25f, 0));
  const int32_t out = m.addTensor(qtensor(c.type, c.out_shape, 0.25f, 0));
  tflite::Pool2DOptionsT options;
  options.padding = c.padding;
  options.stride_h = c.stride_h;
  options.stride_w = c.stride_w;
  options.filter_height = options.filter_width = 2;
  options.fused_activation_function = c.activation;
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(options));
  m.addOp(tflite::BuiltinOperator::AVERAGE_POOL_2D, {in}, {out}, std::move(u));
  m.setInputs({in});
  m.setOutputs({out});
  return m.finish();
}

std::vector<int16_t> runInt16(const AvgPoolCase& c, const std::vector<int16_t>& input) {
  return valuesOf<int16_t>(runModel(avgPoolModel(c), {bytesOf(input)}));
}

const std::vector<int16_t> kTflmInput = {0, -24, 8, 16, 12, 8, -40, 28};
const std::vector<int16_t> kTflmInputRelu6 = {12, -24, 32, 16, 12, 8, 40, 28};

TEST(AveragePool, Int16MatchesTflmGoldens) {
  // pooling_test.cc, SimpleAveragePoolTestInt16PaddingValidStride2ActNone.
  EXPECT_EQ(runInt16({TensorType::INT16, {1, 1, 2, 1}}, kTflmInput), (std::vector<int16_t>{-1, 3}));
  // ...PaddingValidStride1Stride2Relu.
  EXPECT_EQ(runInt16({TensorType::INT16,
                      {1, 1, 3, 1},
                      2,
                      1,
                      tflite::Padding::VALID,
                      ActivationFunctionType::RELU},
                     kTflmInput),
            (std::vector<int16_t>{0, 0, 3}));
  // ...PaddingValidStride2Stride1ReluN1To1 (bounds -4 and 4 at scale 0.25).
  EXPECT_EQ(runInt16({TensorType::INT16,
                      {1, 1, 2, 1},
                      1,
                      2,
                      tflite::Padding::VALID,
                      ActivationFunctionType::RELU_N1_TO_1},
                     kTflmInput),
            (std::vector<int16_t>{-1, 3}));
  // ...PaddingValidStride2Relu6.
  EXPECT_EQ(runInt16({TensorType::INT16,
                      {1, 1, 2, 1},
                      2,
                      2,
                      tflite::Padding::VALID,
                      ActivationFunctionType::RELU6},
                     kTflmInputRelu6),
            (std::vector<int16_t>{2, 24}));
  // ...PaddingSameStride1ActNone: a [1,2,4,1] output, the windows at the bottom and right cut.
  EXPECT_EQ(
      runInt16({TensorType::INT16, {1, 2, 4, 1}, 1, 1, tflite::Padding::SAME}, kTflmInputRelu6),
      (std::vector<int16_t>{2, 14, 29, 22, 10, 24, 34, 28}));
}

TEST(AveragePool, Int8StillMatchesTflmGoldens) {
  // pooling_test.cc, SimpleAveragePoolTestInt8PaddingSameStride1ActNone.
  const std::vector<int8_t> input(kTflmInputRelu6.begin(), kTflmInputRelu6.end());
  EXPECT_EQ(valuesOf<int8_t>(runModel(
                avgPoolModel({TensorType::INT8, {1, 2, 4, 1}, 1, 1, tflite::Padding::SAME}),
                {bytesOf(input)})),
            (std::vector<int8_t>{2, 14, 29, 22, 10, 24, 34, 28}));
}

TEST(AveragePool, Int16SumsBeyondTheInt16Range) {
  // Four taps of 30000 sum to 120000, beyond int16 but not int32: the average is 30000, and
  // {-32768, -32767, -32768, -32767} averages -32767.5, rounded away from zero to -32768.
  kernels::PoolParams p = rowPool(8, 4, 4, 2, 0);
  p.act_min = -32768;
  p.act_max = 32767;
  const int16_t in[] = {30000, 30000, 30000, 30000, -32768, -32767, -32768, -32767};
  int32_t acc[1];
  int16_t out[2] = {};
  kernels::averagePoolInt16(p, in, acc, out);
  EXPECT_EQ(out[0], 30000);
  EXPECT_EQ(out[1], -32768);
}

TEST(AveragePool, MixedTypesAreAnError) {
  OpModel m;
  const int32_t in = m.addTensor(qtensor(TensorType::INT16, {1, 2, 2, 1}, 0.25f, 0));
  const int32_t out = m.addTensor(qtensor(TensorType::INT8, {1, 1, 1, 1}, 0.25f, 0));
  tflite::Pool2DOptionsT options;
  options.padding = tflite::Padding::VALID;
  options.stride_h = options.stride_w = 2;
  options.filter_height = options.filter_width = 2;
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(options));
  m.addOp(tflite::BuiltinOperator::AVERAGE_POOL_2D, {in}, {out}, std::move(u));
  m.setInputs({in});
  m.setOutputs({out});
  const std::string error = prepareError(m.finish());
  EXPECT_NE(error.find("operator 0 (AVERAGE_POOL_2D)"), std::string::npos) << error;
}

TEST(AveragePool, ActivationBoundBeyondInt32IsAnError) {
  // RELU6 on an output scale of 1e-30: 6 / scale = 6e30 does not fit in int32, where converting
  // it would be undefined.
  OpModel m;
  const int32_t in = m.addTensor(qtensor(tflite::TensorType::INT8, {1, 2, 2, 1}, 1e-30f, 0));
  const int32_t out = m.addTensor(qtensor(tflite::TensorType::INT8, {1, 1, 1, 1}, 1e-30f, 0));
  tflite::Pool2DOptionsT options;
  options.padding = tflite::Padding::VALID;
  options.stride_h = options.stride_w = 2;
  options.filter_height = options.filter_width = 2;
  options.fused_activation_function = tflite::ActivationFunctionType::RELU6;
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(options));
  m.addOp(tflite::BuiltinOperator::AVERAGE_POOL_2D, {in}, {out}, std::move(u));
  m.setInputs({in});
  m.setOutputs({out});
  const std::string error = prepareError(m.finish());
  EXPECT_NE(error.find("operator 0 (AVERAGE_POOL_2D)"), std::string::npos) << error;
  EXPECT_NE(error.find("activation bound 6.000000 / output scale"), std::string::npos) << error;
  EXPECT_NE(error.find("does not fit in int32"), std::string::npos) << error;
}

}  // namespace
}  // namespace hilsim::test
