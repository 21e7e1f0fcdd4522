// CONV_2D and DEPTHWISE_CONV_2D arithmetic in the freestanding library: accumulation over the
// taps inside the input, input offsets, bias, per-channel requantization and the output zero
// point, against hand-worked values. The real models' golden cases cover the kernels end to end.

#include <gtest/gtest.h>

#include "hilsim/kernels/conv.h"
#include "hilsim/kernels/depthwise_conv.h"

namespace hilsim::test {
namespace {

kernels::WindowGeometry geometry(int32_t in_h, int32_t in_w, int32_t in_c, int32_t filter_h,
                                 int32_t filter_w, int32_t out_h, int32_t out_w, int32_t out_c) {
  kernels::WindowGeometry g;
  g.batches = 1;
  g.in_h = in_h;
  g.in_w = in_w;
  g.in_c = in_c;
  g.filter_h = filter_h;
  g.filter_w = filter_w;
  g.out_h = out_h;
  g.out_w = out_w;
  g.out_c = out_c;
  return g;
}

TEST(Conv, PerChannelRequantizationOfOneWindow) {
  // Input 2x2x1 {1,2,3,4} with zero point -1 (offset +1); filters 2x2x1
  //   f0 = {1,0,0,1}:  1*2 + 1*5             = 7,  + bias 10  = 17
  //   f1 = {-1,1,2,0}: -1*2 + 1*3 + 2*4      = 9,  + bias -20 = -11
  // multiplier 2^30, shift 0 halves with SRDHM: 17 -> 8.5 -> 9, -11 -> -5.5 -> -5; zero point 3.
  const int32_t bias[] = {10, -20};
  const int32_t multipliers[] = {1 << 30, 1 << 30};
  const int32_t shifts[] = {0, 0};
  kernels::ConvParams p;
  p.geo = geometry(2, 2, 1, 2, 2, 1, 1, 2);
  p.filter_in_c = 1;
  p.filters_per_group = 2;
  p.quant.input_offset = 1;
  p.quant.output_zero_point = 3;
  p.quant.bias = bias;
  p.quant.multipliers = multipliers;
  p.quant.shifts = shifts;
  const int8_t input[] = {1, 2, 3, 4};
  const int8_t filter[] = {1, 0, 0, 1, -1, 1, 2, 0};
  int8_t output[2] = {};
  kernels::convInt8(p, input, filter, output);
  EXPECT_EQ(output[0], 12);
  EXPECT_EQ(output[1], -2);
}

TEST(Conv, TapsInThePaddingContributeNothingAndActivationClamps) {
  // 1x2 input {10, 20}, one 1x3 filter {1, 1, 1}, SAME: one padding column on each side.
  //   out 0: taps (pad, 10, 20) = 30;  out 1: taps (10, 20, pad) = 30
  // 2^30 (one half) with shift 2 doubles: 60 -> clamped to the activation maximum 50.
  const int32_t bias[] = {0};
  const int32_t multipliers[] = {1 << 30};
  const int32_t shifts[] = {2};
  kernels::ConvParams p;
  p.geo = geometry(1, 2, 1, 1, 3, 1, 2, 1);
  p.geo.pad_w = 1;
  p.filter_in_c = 1;
  p.filters_per_group = 1;
  p.quant.act_max = 50;
  p.quant.bias = bias;
  p.quant.multipliers = multipliers;
  p.quant.shifts = shifts;
  const int8_t input[] = {10, 20};
  const int8_t filter[] = {1, 1, 1};
  int8_t output[2] = {};
  kernels::convInt8(p, input, filter, output);
  EXPECT_EQ(output[0], 50);
  EXPECT_EQ(output[1], 50);
}

TEST(Conv, GroupsReadTheirOwnChannels) {
  // 1x1 pixel with 2 channels {3, 5}, two groups of one 1x1 filter each: w0 = 2 reads channel 0,
  // w1 = -1 reads channel 1: 6 and -5 (multiplier 2^30, shift 1 keeps values).
  const int32_t bias[] = {0, 0};
  const int32_t multipliers[] = {1 << 30, 1 << 30};
  const int32_t shifts[] = {1, 1};
  kernels::ConvParams p;
  p.geo = geometry(1, 1, 2, 1, 1, 1, 1, 2);
  p.filter_in_c = 1;
  p.filters_per_group = 1;
  p.quant.bias = bias;
  p.quant.multipliers = multipliers;
  p.quant.shifts = shifts;
  const int8_t input[] = {3, 5};
  const int8_t filter[] = {2, -1};
  int8_t output[2] = {};
  kernels::convInt8(p, input, filter, output);
  EXPECT_EQ(output[0], 6);
  EXPECT_EQ(output[1], -5);
}

TEST(DepthwiseConv, DepthMultiplierTwo) {
  // Input 1x2 pixels of 2 channels {1,2 | 3,4}; filter 1x2 taps of 4 channels
  // {1,2,3,4 | -1,-2,-3,-4}; channel c = ic * 2 + m:
  //   c0: 1*1 - 1*3 = -2   c1: 2*1 - 2*3 = -4   c2: 3*2 - 3*4 = -6   c3: 4*2 - 4*4 = -8
  // bias {0,1,2,3}; multiplier 2^30 with shift 1 keeps values; zero point 0.
  const int32_t bias[] = {0, 1, 2, 3};
  const int32_t multipliers[] = {1 << 30, 1 << 30, 1 << 30, 1 << 30};
  const int32_t shifts[] = {1, 1, 1, 1};
  kernels::DepthwiseConvParams p;
  p.geo = geometry(1, 2, 2, 1, 2, 1, 1, 4);
  p.depth_multiplier = 2;
  p.quant.bias = bias;
  p.quant.multipliers = multipliers;
  p.quant.shifts = shifts;
  const int8_t input[] = {1, 2, 3, 4};
  const int8_t filter[] = {1, 2, 3, 4, -1, -2, -3, -4};
  int8_t output[4] = {};
  kernels::depthwiseConvInt8(p, input, filter, output);
  EXPECT_EQ(std::vector<int8_t>(output, output + 4), (std::vector<int8_t>{-2, -3, -4, -5}));
}

TEST(DepthwiseConv, InputOffsetAndOutputZeroPoint) {
  // One channel, 1x1 filter {3}, input zero point 100 (offset -100): x = 90 gives 3 * -10 = -30;
  // bias 0, multiplier 2^30 with shift 0 halves: -15; zero point -100: -115.
  const int32_t bias[] = {0};
  const int32_t multipliers[] = {1 << 30};
  const int32_t shifts[] = {0};
  kernels::DepthwiseConvParams p;
  p.geo = geometry(1, 1, 1, 1, 1, 1, 1, 1);
  p.quant.input_offset = -100;
  p.quant.output_zero_point = -100;
  p.quant.bias = bias;
  p.quant.multipliers = multipliers;
  p.quant.shifts = shifts;
  const int8_t input[] = {90};
  const int8_t filter[] = {3};
  int8_t output[1] = {};
  kernels::depthwiseConvInt8(p, input, filter, output);
  EXPECT_EQ(output[0], -115);
}

}  // namespace
}  // namespace hilsim::test
