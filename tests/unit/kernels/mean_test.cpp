// MEAN: the freestanding reduction and multiplier folding against hand-worked values, the kernel
// through one-operator models (float32, int8 and int16; keep_dims both ways; negative and repeated
// axes; rounding ties of positive and negative sums; requantization and saturation) and
// prepare-time errors.
//
// Integer means are requantized as TFLite Micro does it: S = sum - input_zp * N, then
// MultiplyByQuantizedMultiplier(S, M, shift) + output_zp, where (M, shift) is
// QuantizeMultiplier(in_scale / out_scale) with 1/N folded in. SRDHM's nudge (2^30 for products
// >= 0, 1 - 2^30 below) rounds exact halves up for positive and toward zero for negative values.

#include <gtest/gtest.h>

#include <numeric>

#include "hilsim/kernels/reduce.h"
#include "op_model.h"

namespace hilsim::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

tflite::BuiltinOptionsUnion reducerOptions(bool keep_dims) {
  tflite::ReducerOptionsT options;
  options.keep_dims = keep_dims;
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(options));
  return u;
}

struct MeanCase {
  TensorType type = TensorType::INT8;
  std::vector<int32_t> in_shape, axes, out_shape;
  bool keep_dims = false;
  float in_scale = 0.0f;  // 0: not quantized
  int64_t in_zp = 0;
  float out_scale = 0.0f;
  int64_t out_zp = 0;
};

std::vector<uint8_t> meanModel(const MeanCase& c, bool constant_axes = true) {
  OpModel m;
  const auto spec = [&c](std::vector<int32_t> shape, float scale, int64_t zp) {
    return scale > 0 ? qtensor(c.type, std::move(shape), scale, zp)
                     : tensor(c.type, std::move(shape));
  };
  const int32_t in = m.addTensor(spec(c.in_shape, c.in_scale, c.in_zp));
  TensorSpec axes = tensor(TensorType::INT32, {static_cast<int32_t>(c.axes.size())});
  if (constant_axes) axes = withData(axes, bytesOf(c.axes));
  const int32_t a = m.addTensor(axes);
  const int32_t out = m.addTensor(spec(c.out_shape, c.out_scale, c.out_zp));
  m.addOp(BuiltinOperator::MEAN, {in, a}, {out}, reducerOptions(c.keep_dims));
  m.setInputs(constant_axes ? std::vector<int32_t>{in} : std::vector<int32_t>{in, a});
  m.setOutputs({out});
  return m.finish();
}

TEST(Mean, FoldReductionCountFollowsTfliteMicro) {
  // 2^30 with shift 1 (ratio 1.0) over 2: s = 1, (2^31) / 2 = 2^30, shift 0.
  int32_t m = 1 << 30;
  int32_t shift = 1;
  kernels::foldReductionCount(2, &m, &shift);
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(shift, 0);
  // Over 3: s = 1, 2^31 / 3 = 715827882 (truncated), shift 1.
  m = 1 << 30;
  shift = 2;
  kernels::foldReductionCount(3, &m, &shift);
  EXPECT_EQ(m, 715827882);
  EXPECT_EQ(shift, 1);
  // s is capped at 31 + shift: shift -30 over 8 gives s = 1, 2^31 / 8, shift -31.
  m = 1 << 30;
  shift = -30;
  kernels::foldReductionCount(8, &m, &shift);
  EXPECT_EQ(m, 268435456);
  EXPECT_EQ(shift, -31);
  // One element: unchanged.
  m = 1234567890;
  shift = -3;
  kernels::foldReductionCount(1, &m, &shift);
  EXPECT_EQ(m, 1234567890);
  EXPECT_EQ(shift, -3);
}

TEST(Mean, FreestandingInt8OverTheLastAxis) {
  // [2,2] over axis 1, zero points 0, multiplier 2^30 with shift 0 (ratio 1 over N = 2):
  // sums 3 and -3 give SRDHM(3, 2^30) = 2 and SRDHM(-3, 2^30) = -1.
  kernels::MeanParams p;
  p.rank = 2;
  p.input_dims[0] = 2;
  p.input_dims[1] = 2;
  p.output_strides[0] = 1;
  p.output_strides[1] = 0;
  p.output_count = 2;
  p.reduced_count = 2;
  p.multiplier = 1 << 30;
  p.shift = 0;
  const int8_t in[] = {1, 2, -1, -2};
  int32_t sums[2];
  int8_t out[2];
  kernels::meanInt8(p, in, sums, out);
  EXPECT_EQ(out[0], 2);
  EXPECT_EQ(out[1], -1);
}

TEST(Mean, Float32SpatialMeanKeepDims) {
  // TFLite Micro's MeanFloat4DKeepDims: 1..24 as [2,2,3,2] over H and W.
  MeanCase c{TensorType::FLOAT32, {2, 2, 3, 2}, {1, 2}, {2, 1, 1, 2}, true};
  std::vector<float> in(24);
  std::iota(in.begin(), in.end(), 1.0f);
  EXPECT_EQ(valuesOf<float>(runModel(meanModel(c), {bytesOf(in)})),
            (std::vector<float>{6, 7, 18, 19}));
  // The same without keep_dims, the axes given negative and repeated.
  c.axes = {-3, -2, 1};
  c.out_shape = {2, 2};
  c.keep_dims = false;
  EXPECT_EQ(valuesOf<float>(runModel(meanModel(c), {bytesOf(in)})),
            (std::vector<float>{6, 7, 18, 19}));
}

TEST(Mean, Float32DividesTheSumOnce) {
  // Means of {1, 2, 4} and {0.1, 0.2, 0.3} over the first axis of a [3,2] tensor (5-D input).
  const MeanCase c{TensorType::FLOAT32, {1, 1, 3, 1, 2}, {2}, {1, 1, 1, 2}};
  const auto got = valuesOf<float>(
      runModel(meanModel(c), {bytesOf(std::vector<float>{1.0f, 0.1f, 2.0f, 0.2f, 4.0f, 0.3f})}));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], 7.0f / 3.0f);
  EXPECT_EQ(got[1], ((0.1f + 0.2f) + 0.3f) / 3.0f);
}

TEST(Mean, Int8SameQuantizationIsRequantizedWithRoundedHalves) {
  // Scale 0.5 on both sides: ratio 1 = 2^30 * 2^1, folded over N = 2 into (2^30, 0), so each
  // output is SRDHM(sum, 2^30) = sum / 2 with halves rounded up if positive, toward zero if
  // negative: 7/2 -> 4, -7/2 -> -3, 3/2 -> 2, -3/2 -> -1, -256/2 -> -128, 254/2 -> 127.
  const MeanCase c{TensorType::INT8, {6, 2}, {1}, {6}, false, 0.5f, 0, 0.5f, 0};
  const auto got = valuesOf<int8_t>(
      runModel(meanModel(c),
               {bytesOf(std::vector<int8_t>{3, 4, -3, -4, 1, 2, -1, -2, -128, -128, 127, 127})}));
  EXPECT_EQ(got, (std::vector<int8_t>{4, -3, 2, -1, -128, 127}));
}

TEST(Mean, Int8RequantizesWithZeroPointsAndKeepDims) {
  // in (0.5, zp 2) -> out (0.25, zp -10): ratio 2 = 2^30 * 2^2, folded over N = 4 into (2^30, 0):
  // output = SRDHM(S, 2^30) - 10 with S = sum - 2 * 4.
  //   {-3,-4,-5,-5}: S = -25 -> -12.5 -> -12 -> -22
  //   { 3, 4, 4, 4}: S =   7 ->   3.5 ->   4 ->  -6
  const MeanCase c{TensorType::INT8, {2, 4}, {-1}, {2, 1}, true, 0.5f, 2, 0.25f, -10};
  const auto got = valuesOf<int8_t>(
      runModel(meanModel(c), {bytesOf(std::vector<int8_t>{-3, -4, -5, -5, 3, 4, 4, 4})}));
  EXPECT_EQ(got, (std::vector<int8_t>{-22, -6}));
}

TEST(Mean, Int8OverThreeElementsAndSaturation) {
  // Ratio 2 over N = 3: (715827882, 1). {-4,-5,-6}, zp 2: S = -21, SRDHM(-42, 715827882) =
  // trunc((-30064771044 - 1073741823) / 2^31) = trunc(-14.49999...) = -14, + (-10) = -24.
  const MeanCase c{TensorType::INT8, {1, 3}, {1}, {1}, false, 0.5f, 2, 0.25f, -10};
  EXPECT_EQ(valuesOf<int8_t>(runModel(meanModel(c), {bytesOf(std::vector<int8_t>{-4, -5, -6})})),
            (std::vector<int8_t>{-24}));
  // Ratio 100 saturates: means of 100 and -100 would be 10000 and -10000 in output units.
  const MeanCase s{TensorType::INT8, {2, 2}, {1}, {2}, false, 1.0f, 0, 0.01f, 0};
  EXPECT_EQ(valuesOf<int8_t>(
                runModel(meanModel(s), {bytesOf(std::vector<int8_t>{100, 100, -100, -100})})),
            (std::vector<int8_t>{127, -128}));
}

TEST(Mean, Int16Requantizes) {
  // Scale 1 -> 2: ratio 0.5 = 2^30 * 2^0, folded over N = 2 into (2^30, -1):
  //   {1001, 1002}:     SRDHM(2003, 2^30) = 1002, /2 -> 501
  //   {-30000, -32768}: SRDHM(-62768, 2^30) = -31384, /2 -> -15692
  const MeanCase c{TensorType::INT16, {2, 2}, {1}, {2}, false, 1.0f, 0, 2.0f, 0};
  EXPECT_EQ(valuesOf<int16_t>(runModel(
                meanModel(c), {bytesOf(std::vector<int16_t>{1001, 1002, -30000, -32768})})),
            (std::vector<int16_t>{501, -15692}));
}

// TensorFlow Lite Micro's reduce_test.cc 4-D input, 1..24 as [2,2,3,2], reduced over three and
// four axes (TFLite Micro reduces over any number). Each mean is exact in the output scale, so the
// requantization must land on it: with scale 0.5 in and out the ratio 1 = (2^30, 1) is folded
// over N = 12 into (715827882, -2) and over N = 24 into (715827882, -3).
std::vector<float> oneToTwentyFour() {
  std::vector<float> in(24);
  std::iota(in.begin(), in.end(), 1.0f);
  return in;
}

TEST(Mean, Float32OverThreeAndFourAxes) {
  const auto in = bytesOf(oneToTwentyFour());
  // Over N, H, W: the odd values average 12, the even ones 13.
  EXPECT_EQ(valuesOf<float>(
                runModel(meanModel({TensorType::FLOAT32, {2, 2, 3, 2}, {0, 1, 2}, {2}}), {in})),
            (std::vector<float>{12, 13}));
  // Over H, W, C given negative and out of order: per batch, 1..12 and 13..24.
  EXPECT_EQ(
      valuesOf<float>(runModel(
          meanModel({TensorType::FLOAT32, {2, 2, 3, 2}, {-1, 1, -2}, {2, 1, 1, 1}, true}), {in})),
      (std::vector<float>{6.5f, 18.5f}));
  // Over all four.
  EXPECT_EQ(
      valuesOf<float>(runModel(
          meanModel({TensorType::FLOAT32, {2, 2, 3, 2}, {0, 1, 2, 3}, {1, 1, 1, 1}, true}), {in})),
      (std::vector<float>{12.5f}));
}

template <typename T>
std::vector<T> quantizedOneToTwentyFour() {
  std::vector<T> q;
  for (float v : oneToTwentyFour()) q.push_back(static_cast<T>(2 * v));  // scale 0.5
  return q;
}

TEST(Mean, Int8OverThreeAndFourAxes) {
  const auto in = bytesOf(quantizedOneToTwentyFour<int8_t>());
  // 156 * 715827882 / 2^31 rounds to 52, / 4 -> 13 (6.5); 444 -> 148 -> 37 (18.5).
  EXPECT_EQ(
      valuesOf<int8_t>(runModel(
          meanModel({TensorType::INT8, {2, 2, 3, 2}, {1, 2, 3}, {2}, false, 0.5f, 0, 0.5f, 0}),
          {in})),
      (std::vector<int8_t>{13, 37}));
  // Over N, H, W: 12 and 13 -> 24 and 26.
  EXPECT_EQ(
      valuesOf<int8_t>(runModel(
          meanModel(
              {TensorType::INT8, {2, 2, 3, 2}, {0, 1, 2}, {1, 1, 1, 2}, true, 0.5f, 0, 0.5f, 0}),
          {in})),
      (std::vector<int8_t>{24, 26}));
  // All four axes: 600 * 715827882 / 2^31 rounds to 200, / 8 -> 25 (12.5).
  EXPECT_EQ(
      valuesOf<int8_t>(runModel(
          meanModel(
              {TensorType::INT8, {2, 2, 3, 2}, {3, 2, 1, 0}, {1, 1, 1, 1}, true, 0.5f, 0, 0.5f, 0}),
          {in})),
      (std::vector<int8_t>{25}));
}

TEST(Mean, Int16OverThreeAndFourAxes) {
  const auto in = bytesOf(quantizedOneToTwentyFour<int16_t>());
  EXPECT_EQ(
      valuesOf<int16_t>(runModel(
          meanModel({TensorType::INT16, {2, 2, 3, 2}, {1, 2, 3}, {2}, false, 0.5f, 0, 0.5f, 0}),
          {in})),
      (std::vector<int16_t>{13, 37}));
  EXPECT_EQ(
      valuesOf<int16_t>(runModel(
          meanModel({TensorType::INT16, {2, 2, 3, 2}, {0, 1, 2, 3}, {}, false, 0.5f, 0, 0.5f, 0}),
          {in})),
      (std::vector<int16_t>{25}));
  // Scale 1 -> 3 (ratio 1/3 = (1431655765, -1), folded over 12 into (954437176, -4)) over
  // N, H, W of 7 * v - 80: channel sums 48 and 132, means 16/12 -> 1 and 44/12 -> 4.
  std::vector<int16_t> raw;
  for (float v : oneToTwentyFour()) raw.push_back(static_cast<int16_t>(7 * v - 80));
  EXPECT_EQ(
      valuesOf<int16_t>(runModel(
          meanModel({TensorType::INT16, {2, 2, 3, 2}, {0, 1, 2}, {2}, false, 1.0f, 0, 3.0f, 0}),
          {bytesOf(raw)})),
      (std::vector<int16_t>{1, 4}));
}

void expectPrepareError(const std::vector<uint8_t>& model, const std::string& reason) {
  const std::string error = prepareError(model);
  EXPECT_NE(error.find("operator 0 (MEAN)"), std::string::npos) << error;
  EXPECT_NE(error.find(reason), std::string::npos) << error;
}

TEST(Mean, MalformedOperatorsAreRejected) {
  expectPrepareError(meanModel({TensorType::FLOAT32, {2, 2}, {2}, {2}}), "axis 2 is out of range");
  expectPrepareError(meanModel({TensorType::FLOAT32, {2, 2}, {-3}, {2}}),
                     "axis -3 is out of range");
  expectPrepareError(meanModel({TensorType::FLOAT32, {2, 2}, {1}, {2}}, false),
                     "axis must be a constant tensor");
  expectPrepareError(meanModel({TensorType::FLOAT32, {2, 2}, {1}, {3}}),
                     "does not hold the 2 means");
  expectPrepareError(meanModel({TensorType::FLOAT32, {1, 1, 1, 1, 1, 2}, {5}, {1, 1, 1, 1, 1}}),
                     "1 to 5 dimensions");
  expectPrepareError(meanModel({TensorType::INT8, {2, 2}, {1}, {2}}), "no quantization");
  expectPrepareError(meanModel({TensorType::INT32, {2, 2}, {1}, {2}}), "unsupported type");
  // 2^32 reduced elements: the int32 count would wrap to 0 and the 1/N folding divide by it.
  expectPrepareError(
      meanModel({TensorType::INT8, {65536, 65536}, {0, 1}, {1}, false, 1.0f, 0, 1.0f, 0}),
      "has more than 2^31 - 1 elements");
  {
    OpModel m;
    const int32_t in = m.addTensor(tensor(TensorType::FLOAT32, {2, 2}));
    const int32_t a =
        m.addTensor(withData(tensor(TensorType::INT64, {1}), bytesOf(std::vector<int64_t>{1})));
    const int32_t out = m.addTensor(tensor(TensorType::FLOAT32, {2}));
    m.addOp(BuiltinOperator::MEAN, {in, a}, {out}, reducerOptions(false));
    m.setInputs({in});
    m.setOutputs({out});
    expectPrepareError(m.finish(), "axis must be int32");
  }
  {
    OpModel m;
    const int32_t in = m.addTensor(tensor(TensorType::FLOAT32, {2, 2}));
    const int32_t a =
        m.addTensor(withData(tensor(TensorType::INT32, {1}), bytesOf(std::vector<int32_t>{1})));
    const int32_t out = m.addTensor(tensor(TensorType::INT8, {2}));
    m.addOp(BuiltinOperator::MEAN, {in, a}, {out}, reducerOptions(false));
    m.setInputs({in});
    m.setOutputs({out});
    expectPrepareError(m.finish(), "have different types");
  }
}

}  // namespace
}  // namespace hilsim::test
