// AVERAGE_POOL_2D arithmetic in the freestanding library: averages of the taps inside the input
// rounded half away from zero, windows cut at the borders, the activation clamp, the
// prepare-time check that every window covers the input, and activation bounds beyond int32.

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
