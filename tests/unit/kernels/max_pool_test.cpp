// MAX_POOL_2D: the freestanding pooling and the kernel through one-operator models (VALID and
// SAME padding with windows cut at the borders, strides, several batches and channels, fused
// activations clamping int8, int16 and float32) against hand-worked maxima, and prepare-time
// errors.

#include <gtest/gtest.h>

#include "hilsim/kernels/pooling.h"
#include "op_model.h"

namespace hilsim::test {
namespace {

using tflite::ActivationFunctionType;
using tflite::BuiltinOperator;
using tflite::Padding;
using tflite::TensorType;

struct PoolCase {
  TensorType type = TensorType::INT8;
  std::vector<int32_t> in_shape, out_shape;
  int32_t filter_h = 2, filter_w = 2, stride_h = 2, stride_w = 2;
  Padding padding = Padding::VALID;
  ActivationFunctionType activation = ActivationFunctionType::NONE;
  float scale = 1.0f;  // int8 / int16 tensors
  int64_t zero_point = 0;
  float out_scale = 0.0f;  // 0: the input's
};

std::vector<uint8_t> poolModel(const PoolCase& c) {
  OpModel m;
  const bool quantized = c.type != TensorType::FLOAT32;
  const auto spec = [&](std::vector<int32_t> shape, float scale) {
    return quantized ? qtensor(c.type, std::move(shape), scale, c.zero_point)
                     : tensor(c.type, std::move(shape));
  };
  const int32_t in = m.addTensor(spec(c.in_shape, c.scale));
  const int32_t out = m.addTensor(spec(c.out_shape, c.out_scale > 0 ? c.out_scale : c.scale));
  tflite::Pool2DOptionsT options;
  options.padding = c.padding;
  options.stride_h = c.stride_h;
  options.stride_w = c.stride_w;
  options.filter_height = c.filter_h;
  options.filter_width = c.filter_w;
  options.fused_activation_function = c.activation;
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(options));
  m.addOp(BuiltinOperator::MAX_POOL_2D, {in}, {out}, std::move(u));
  m.setInputs({in});
  m.setOutputs({out});
  return m.finish();
}

TEST(MaxPool, FreestandingTwoChannels) {
  // [1,2,2,2] with one 2x2 window: channel 0 {1, -3, 5, 2} -> 5, channel 1 {-7, -2, -9, -4} -> -2.
  kernels::PoolParams p;
  p.geo.batches = 1;
  p.geo.in_h = p.geo.in_w = 2;
  p.geo.in_c = p.geo.out_c = 2;
  p.geo.filter_h = p.geo.filter_w = 2;
  p.geo.out_h = p.geo.out_w = 1;
  p.geo.stride_h = p.geo.stride_w = 2;
  p.act_min = -128;
  p.act_max = 127;
  const int8_t in[] = {1, -7, -3, -2, 5, -9, 2, -4};
  int8_t out[2] = {};
  kernels::maxPoolInt8(p, in, out);
  EXPECT_EQ(out[0], 5);
  EXPECT_EQ(out[1], -2);
}

TEST(MaxPool, Float32ValidStrideTwo) {
  // TFLite Micro's SimpleMaxPoolTestFloat: [1,2,4,1] {0,6,2,4 / 3,2,10,7}, 2x2 windows.
  PoolCase c{TensorType::FLOAT32, {1, 2, 4, 1}, {1, 1, 2, 1}};
  EXPECT_EQ(valuesOf<float>(
                runModel(poolModel(c), {bytesOf(std::vector<float>{0, 6, 2, 4, 3, 2, 10, 7})})),
            (std::vector<float>{6, 10}));
  // RELU_N1_TO_1 clamps 6 and 10 to 1.
  c.activation = ActivationFunctionType::RELU_N1_TO_1;
  EXPECT_EQ(valuesOf<float>(
                runModel(poolModel(c), {bytesOf(std::vector<float>{0, 6, 2, 4, 3, 2, 10, 7})})),
            (std::vector<float>{1, 1}));
}

TEST(MaxPool, Int8SamePaddingIgnoresTapsOutsideTheInput) {
  // 3x3 of -1..-9, 3x3 windows, stride 1, SAME: one padding row/column on each side. Counting
  // padding as 0 would give 0 everywhere; only real taps count:
  //   (0,0) {-1,-2,-4,-5} -1   (0,1) -1   (0,2) {-2,-3,-5,-6} -2
  //   (1,0) -1                 (1,1) -1   (1,2) -2
  //   (2,0) {-4,-5,-7,-8} -4   (2,1) -4   (2,2) {-5,-6,-8,-9} -5
  const PoolCase c{TensorType::INT8, {1, 3, 3, 1}, {1, 3, 3, 1}, 3, 3, 1, 1, Padding::SAME};
  EXPECT_EQ(valuesOf<int8_t>(runModel(
                poolModel(c), {bytesOf(std::vector<int8_t>{-1, -2, -3, -4, -5, -6, -7, -8, -9})})),
            (std::vector<int8_t>{-1, -1, -2, -1, -1, -2, -4, -4, -5}));
}

TEST(MaxPool, Int8SamePaddingAfterTheInput) {
  // 3x3 of 1..9, 2x2 windows, stride 2, SAME: out 2x2, the one padding row/column goes after.
  //   (0,0) {1,2,4,5} 5   (0,1) {3,6} 6   (1,0) {7,8} 8   (1,1) {9} 9
  const PoolCase c{TensorType::INT8, {1, 3, 3, 1}, {1, 2, 2, 1}, 2, 2, 2, 2, Padding::SAME};
  EXPECT_EQ(valuesOf<int8_t>(
                runModel(poolModel(c), {bytesOf(std::vector<int8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9})})),
            (std::vector<int8_t>{5, 6, 8, 9}));
}

TEST(MaxPool, Int8BatchesChannelsAndRelu6) {
  // Scale 0.5, zero point -10: RELU6 keeps [max(-128, -10), min(127, -10 + 6 / 0.5)] = [-10, 2].
  // Two batches of [1,2,2] pixels with two channels, one 1x2 window per row.
  PoolCase c{TensorType::INT8, {2, 1, 2, 2}, {2, 1, 1, 2}, 1, 2, 1, 2};
  c.scale = 0.5f;
  c.zero_point = -10;
  c.activation = ActivationFunctionType::RELU6;
  // batch 0: channel 0 {-50, -40} -> -40 -> -10; channel 1 {0, 1} -> 1
  // batch 1: channel 0 {100, -128} -> 100 -> 2;  channel 1 {-11, -12} -> -11 -> -10
  EXPECT_EQ(valuesOf<int8_t>(runModel(
                poolModel(c), {bytesOf(std::vector<int8_t>{-50, 0, -40, 1, 100, -11, -128, -12})})),
            (std::vector<int8_t>{-10, 1, 2, -10}));
}

TEST(MaxPool, Int16Relu) {
  // Zero point 0: RELU keeps [0, 32767].
  PoolCase c{TensorType::INT16, {1, 2, 2, 1}, {1, 1, 1, 1}};
  c.activation = ActivationFunctionType::RELU;
  EXPECT_EQ(valuesOf<int16_t>(
                runModel(poolModel(c), {bytesOf(std::vector<int16_t>{-5, -32768, -7, -1})})),
            (std::vector<int16_t>{0}));
  EXPECT_EQ(valuesOf<int16_t>(
                runModel(poolModel(c), {bytesOf(std::vector<int16_t>{-5, 32767, 300, -1})})),
            (std::vector<int16_t>{32767}));
}

void expectPrepareError(const std::vector<uint8_t>& model, const std::string& reason) {
  const std::string error = prepareError(model);
  EXPECT_NE(error.find("operator 0 (MAX_POOL_2D)"), std::string::npos) << error;
  EXPECT_NE(error.find(reason), std::string::npos) << error;
}

TEST(MaxPool, MalformedOperatorsAreRejected) {
  PoolCase scales{TensorType::INT8, {1, 2, 2, 1}, {1, 1, 1, 1}};
  scales.out_scale = 0.5f;
  expectPrepareError(poolModel(scales), "quantization differ");
  expectPrepareError(poolModel({TensorType::INT8, {1, 2, 2, 1}, {1, 2, 1, 1}}),
                     "does not match the 1x1 output");
  expectPrepareError(poolModel({TensorType::INT8, {1, 2, 2, 1}, {1, 1, 1, 2}}),
                     "does not have the channels");
  expectPrepareError(poolModel({TensorType::INT32, {1, 2, 2, 1}, {1, 1, 1, 1}}),
                     "unsupported type");
  expectPrepareError(poolModel({TensorType::INT8, {1, 2, 2, 1}, {1, 1, 1, 1}, 2, 2, 0, 2}),
                     "must be positive");
  expectPrepareError(poolModel({TensorType::INT8, {2, 2, 1}, {1, 1, 1}}), "rank 4");
  // RELU6 on a scale of 1e-30: 6 / scale does not fit in int32 (its conversion would be
  // undefined), for int8 and int16 alike.
  for (TensorType type : {TensorType::INT8, TensorType::INT16}) {
    PoolCase tiny{type, {1, 2, 2, 1}, {1, 1, 1, 1}};
    tiny.activation = ActivationFunctionType::RELU6;
    tiny.scale = 1e-30f;
    expectPrepareError(poolModel(tiny), "activation bound 6.000000 / output scale");
    tiny.activation = ActivationFunctionType::RELU_N1_TO_1;
    expectPrepareError(poolModel(tiny), "does not fit in int32");
  }
  {
    OpModel m;
    const int32_t in = m.addTensor(tensor(TensorType::FLOAT32, {1, 2, 2, 1}));
    const int32_t out = m.addTensor(tensor(TensorType::FLOAT32, {1, 1, 1, 1}));
    m.addOp(BuiltinOperator::MAX_POOL_2D, {in}, {out});
    m.setInputs({in});
    m.setOutputs({out});
    expectPrepareError(m.finish(), "missing Pool2DOptions");
  }
}

}  // namespace
}  // namespace hilsim::test
