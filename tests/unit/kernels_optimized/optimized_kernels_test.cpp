// The optimized int8 kernels against the reference kernels: byte equality on many random
// shapes and quantization parameters, with the edges the optimized loops treat specially
// (odd sizes and the tails of the unrolled loops, padding, strides, dilation, groups, depth
// multipliers, per-channel multipliers and shifts, zero points at the int8 extremes, sums that
// wrap around the int32 range).

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "hilsim/kernels/add.h"
#include "hilsim/kernels/broadcast.h"
#include "hilsim/kernels/conv.h"
#include "hilsim/kernels/depthwise_conv.h"
#include "hilsim/kernels/fully_connected.h"
#include "hilsim/kernels/lstm.h"
#include "hilsim/kernels/lstm_step.h"
#include "hilsim/kernels/mul.h"
#include "hilsim/kernels/optimized/conv.h"
#include "hilsim/kernels/optimized/depthwise_conv.h"
#include "hilsim/kernels/optimized/elementwise.h"
#include "hilsim/kernels/optimized/fully_connected.h"
#include "hilsim/kernels/optimized/lstm.h"
#include "hilsim/kernels/optimized/pooling.h"
#include "hilsim/kernels/optimized/requant.h"
#include "hilsim/kernels/optimized/softmax.h"
#include "hilsim/kernels/pooling.h"
#include "hilsim/kernels/quant_math.h"
#include "hilsim/kernels/softmax.h"

namespace hilsim::test {
namespace {

class Rng {
 public:
  explicit Rng(uint32_t seed) : gen_(seed) {}
  int32_t uniform(int32_t lo, int32_t hi) {
    return std::uniform_int_distribution<int32_t>(lo, hi)(gen_);
  }
  bool chance(int32_t percent) { return uniform(0, 99) < percent; }
  std::vector<int8_t> bytes(size_t n) {
    std::vector<int8_t> v(n);
    // Mostly uniform; sometimes all at one extreme so sums reach their limits.
    const int32_t mode = uniform(0, 9);
    for (auto& b : v)
      b = static_cast<int8_t>(mode == 0 ? -128 : mode == 1 ? 127 : uniform(-128, 127));
    return v;
  }
  // A zero point, often at the int8 extremes.
  int32_t zeroPoint() {
    const int32_t mode = uniform(0, 3);
    return mode == 0 ? -128 : mode == 1 ? 127 : uniform(-128, 127);
  }
  // Multipliers in [2^30, 2^31) and shifts as TFLite's QuantizeMultiplier makes them, mostly
  // right shifts, sometimes left.
  void requant(size_t n, bool per_channel, std::vector<int32_t>& m, std::vector<int32_t>& s) {
    m.resize(n);
    s.resize(n);
    for (size_t i = 0; i < n; ++i) {
      if (i > 0 && !per_channel) {
        m[i] = m[0];
        s[i] = s[0];
        continue;
      }
      m[i] = uniform(1 << 30, INT32_MAX);
      s[i] = chance(10) ? uniform(1, 4) : uniform(-20, 0);
    }
  }
  std::vector<int32_t> bias(size_t n) {
    std::vector<int32_t> v(n);
    const bool big = chance(10);
    for (auto& b : v) b = big ? uniform(INT32_MIN, INT32_MAX) : uniform(-100000, 100000);
    return v;
  }
  void activation(int32_t& lo, int32_t& hi) {
    lo = -128;
    hi = 127;
    if (chance(30)) {
      lo = uniform(-128, 0);
      hi = uniform(lo, 127);
    }
  }

 private:
  std::mt19937 gen_;
};

constexpr int kCases = 400;

TEST(OptimizedRequantize, MatchesMultiplyByQuantizedMultiplier) {
  // Every shift TFLite allows, accumulators and multipliers over the whole int32 range with
  // their edges (the saturating INT32_MIN * INT32_MIN included), ties of both signs.
  const int32_t edges[] = {
      INT32_MIN, INT32_MIN + 1, -(1 << 30), -65536,        -3,       -2, -1, 0, 1, 2,
      3,         65535,         1 << 30,    INT32_MAX - 1, INT32_MAX};
  std::mt19937 gen(24000);
  std::uniform_int_distribution<int32_t> any(INT32_MIN, INT32_MAX);
  for (int32_t shift = -31; shift <= 31; ++shift) {
    for (int i = 0; i < 20000; ++i) {
      const int32_t acc = i < 15 * 15 ? edges[i % 15] : any(gen);
      const int32_t multiplier = i < 15 * 15 ? edges[i / 15] : any(gen);
      ASSERT_EQ(kernels::opt::requantize(acc, multiplier, shift),
                kernels::multiplyByQuantizedMultiplier(acc, multiplier, shift))
          << acc << " " << multiplier << " " << shift;
    }
  }
  // Values that land exactly half way before the final shift: with multiplier 2^30 the high
  // multiply halves acc exactly, leaving (2k + 1) * 2^(right - 1).
  for (int32_t right = 1; right <= 30; ++right) {
    for (int64_t k = -5; k <= 5; ++k) {
      const int64_t wide = (2 * k + 1) * (int64_t{1} << right);
      if (wide < INT32_MIN || wide > INT32_MAX) continue;
      const int32_t acc = static_cast<int32_t>(wide);
      ASSERT_EQ(kernels::opt::requantize(acc, 1 << 30, -right),
                kernels::multiplyByQuantizedMultiplier(acc, 1 << 30, -right))
          << acc << " " << right;
    }
  }
}

TEST(OptimizedFullyConnected, MatchesReferenceOnRandomShapes) {
  Rng rng(24001);
  for (int i = 0; i < kCases; ++i) {
    kernels::FullyConnectedInt8Params p;
    p.rows = rng.uniform(1, 5);
    p.k = rng.chance(20) ? rng.uniform(1, 8) : rng.uniform(1, 300);
    p.n = rng.uniform(1, 37);
    p.input_offset = -rng.zeroPoint();
    p.output_offset = rng.zeroPoint();
    rng.activation(p.act_min, p.act_max);
    std::vector<int32_t> m, s;
    rng.requant(size_t(p.n), rng.chance(30), m, s);
    p.multipliers = m.data();
    p.shifts = s.data();
    // Offsets from the input so the word loads meet every alignment.
    const size_t skew = size_t(rng.uniform(0, 3));
    const auto input = rng.bytes(size_t(p.rows * p.k) + skew);
    const auto filter = rng.bytes(size_t(p.n * p.k) + skew);
    const bool has_bias = rng.chance(80);
    const auto bias = rng.bias(size_t(p.n));
    const int32_t* bias_ptr = has_bias ? bias.data() : nullptr;

    std::vector<int8_t> expected(size_t(p.rows * p.n)), actual(expected.size());
    kernels::fullyConnectedInt8(p, input.data() + skew, filter.data() + skew, bias_ptr,
                                expected.data());
    std::vector<int32_t> folded(size_t(p.n));
    kernels::opt::fullyConnectedInt8FoldBias(p, filter.data() + skew, bias_ptr, folded.data());
    kernels::opt::fullyConnectedInt8(p, input.data() + skew, filter.data() + skew, folded.data(),
                                     actual.data());
    ASSERT_EQ(expected, actual) << "case " << i << ": rows " << p.rows << " k " << p.k << " n "
                                << p.n << " input_offset " << p.input_offset;
  }
}

TEST(OptimizedFullyConnected, WrapsLikeTheReferenceAccumulator) {
  // 40000 products of 127 * 255 pass 2^31: both accumulators wrap the same way.
  kernels::FullyConnectedInt8Params p;
  p.rows = 1;
  p.k = 40000;
  p.n = 3;
  p.input_offset = 128;
  const std::vector<int32_t> m(3, 1 << 30), s(3, -24);
  p.multipliers = m.data();
  p.shifts = s.data();
  const std::vector<int8_t> input(size_t(p.k), 127), filter(size_t(p.k) * 3, 127);
  const std::vector<int32_t> bias = {INT32_MAX, 0, INT32_MIN};
  std::vector<int8_t> expected(3), actual(3);
  std::vector<int32_t> folded(3);
  kernels::fullyConnectedInt8(p, input.data(), filter.data(), bias.data(), expected.data());
  kernels::opt::fullyConnectedInt8FoldBias(p, filter.data(), bias.data(), folded.data());
  kernels::opt::fullyConnectedInt8(p, input.data(), filter.data(), folded.data(), actual.data());
  EXPECT_EQ(expected, actual);
  // The sum wrapped: 40000 * 127 * 255 > 2^31 and the outputs differ with the bias.
  EXPECT_NE(expected[0], expected[1]);
}

struct ConvCase {
  kernels::ConvParams p;
  std::vector<int8_t> input, filter;
  std::vector<int32_t> bias, m, s;
  std::string describe() const {
    const auto& g = p.geo;
    return "in " + std::to_string(g.batches) + "x" + std::to_string(g.in_h) + "x" +
           std::to_string(g.in_w) + "x" + std::to_string(g.in_c) + " filter " +
           std::to_string(g.filter_h) + "x" + std::to_string(g.filter_w) + " out_c " +
           std::to_string(g.out_c) + " stride " + std::to_string(g.stride_h) + "," +
           std::to_string(g.stride_w) + " dil " + std::to_string(g.dilation_h) + "," +
           std::to_string(g.dilation_w) + " pad " + std::to_string(g.pad_h) + "," +
           std::to_string(g.pad_w) + " groups " + std::to_string(g.out_c / p.filters_per_group);
  }
};

// Output size of one axis as TFLite computes it for the given padding before the first element.
int32_t outSize(int32_t in, int32_t filter, int32_t stride, int32_t dilation, int32_t pad) {
  const int32_t effective = (filter - 1) * dilation + 1;
  return (in + 2 * pad - effective) / stride + 1;
}

void randomGeometry(Rng& rng, kernels::WindowGeometry& g, bool pointwise) {
  g.batches = rng.uniform(1, 2);
  g.filter_h = pointwise ? 1 : rng.uniform(1, 5);
  g.filter_w = pointwise ? 1 : rng.uniform(1, 5);
  g.stride_h = rng.uniform(1, 3);
  g.stride_w = rng.uniform(1, 3);
  g.dilation_h = pointwise || rng.chance(70) ? 1 : rng.uniform(1, 3);
  g.dilation_w = pointwise || rng.chance(70) ? 1 : rng.uniform(1, 3);
  const int32_t eff_h = (g.filter_h - 1) * g.dilation_h + 1;
  const int32_t eff_w = (g.filter_w - 1) * g.dilation_w + 1;
  g.in_h = rng.uniform(eff_h, eff_h + 9);
  g.in_w = rng.uniform(eff_w, eff_w + 9);
  g.pad_h = pointwise ? 0 : rng.uniform(0, eff_h / 2);
  g.pad_w = pointwise ? 0 : rng.uniform(0, eff_w / 2);
  g.out_h = outSize(g.in_h, g.filter_h, g.stride_h, g.dilation_h, g.pad_h);
  g.out_w = outSize(g.in_w, g.filter_w, g.stride_w, g.dilation_w, g.pad_w);
}

ConvCase randomConv(Rng& rng, bool pointwise) {
  ConvCase c;
  auto& g = c.p.geo;
  randomGeometry(rng, g, pointwise);
  const int32_t groups = pointwise || rng.chance(75) ? 1 : rng.uniform(2, 3);
  c.p.filter_in_c = rng.chance(20) ? rng.uniform(1, 3) : rng.uniform(1, 40);
  g.in_c = c.p.filter_in_c * groups;
  c.p.filters_per_group = rng.uniform(1, 19);
  g.out_c = c.p.filters_per_group * groups;
  c.input = rng.bytes(size_t(g.batches) * size_t(g.in_h) * size_t(g.in_w) * size_t(g.in_c));
  c.filter = rng.bytes(size_t(g.out_c) * size_t(g.filter_h) * size_t(g.filter_w) *
                       size_t(c.p.filter_in_c));
  c.bias = rng.bias(size_t(g.out_c));
  rng.requant(size_t(g.out_c), rng.chance(80), c.m, c.s);
  auto& q = c.p.quant;
  q.input_offset = -rng.zeroPoint();
  q.output_zero_point = rng.zeroPoint();
  rng.activation(q.act_min, q.act_max);
  q.bias = c.bias.data();
  q.multipliers = c.m.data();
  q.shifts = c.s.data();
  return c;
}

std::vector<int8_t> referenceConv(const ConvCase& c) {
  std::vector<int8_t> out(size_t(c.p.geo.outputs()));
  kernels::convInt8(c.p, c.input.data(), c.filter.data(), out.data());
  return out;
}

TEST(OptimizedConv, PointwiseMatchesReferenceOnRandomShapes) {
  Rng rng(24002);
  for (int i = 0; i < kCases; ++i) {
    const ConvCase c = randomConv(rng, true);
    ASSERT_TRUE(kernels::opt::convInt8IsPointwise(c.p)) << c.describe();
    std::vector<int32_t> folded(size_t(c.p.geo.out_c));
    kernels::opt::convInt8PointwiseFoldBias(c.p, c.filter.data(), folded.data());
    std::vector<int8_t> actual(size_t(c.p.geo.outputs()));
    kernels::opt::convInt8Pointwise(c.p, c.input.data(), c.filter.data(), folded.data(),
                                    actual.data());
    ASSERT_EQ(referenceConv(c), actual) << "case " << i << ": " << c.describe();
  }
}

TEST(OptimizedConv, Im2colMatchesReferenceOnRandomShapes) {
  Rng rng(24003);
  for (int i = 0; i < kCases; ++i) {
    const ConvCase c = randomConv(rng, rng.chance(15));
    std::vector<int16_t> scratch(kernels::opt::convInt8Im2colScratchElements(c.p));
    std::vector<int8_t> actual(size_t(c.p.geo.outputs()));
    kernels::opt::convInt8Im2col(c.p, c.input.data(), c.filter.data(), scratch.data(),
                                 actual.data());
    ASSERT_EQ(referenceConv(c), actual) << "case " << i << ": " << c.describe();
  }
}

TEST(OptimizedConv, PointwiseRejectsPaddingGroupsAndLargerFilters) {
  Rng rng(24004);
  ConvCase c = randomConv(rng, true);
  EXPECT_TRUE(kernels::opt::convInt8IsPointwise(c.p));
  c.p.geo.pad_w = 1;
  EXPECT_FALSE(kernels::opt::convInt8IsPointwise(c.p));
  c.p.geo.pad_w = 0;
  c.p.geo.filter_h = 3;
  EXPECT_FALSE(kernels::opt::convInt8IsPointwise(c.p));
  c.p.geo.filter_h = 1;
  c.p.geo.in_c *= 2;  // two groups
  EXPECT_FALSE(kernels::opt::convInt8IsPointwise(c.p));
}

struct DepthwiseCase {
  kernels::DepthwiseConvParams p;
  std::vector<int8_t> input, filter;
  std::vector<int32_t> bias, m, s;
  std::string describe() const {
    const auto& g = p.geo;
    return "in " + std::to_string(g.batches) + "x" + std::to_string(g.in_h) + "x" +
           std::to_string(g.in_w) + "x" + std::to_string(g.in_c) + " filter " +
           std::to_string(g.filter_h) + "x" + std::to_string(g.filter_w) + " multiplier " +
           std::to_string(p.depth_multiplier) + " stride " + std::to_string(g.stride_h) + "," +
           std::to_string(g.stride_w) + " dil " + std::to_string(g.dilation_h) + "," +
           std::to_string(g.dilation_w) + " pad " + std::to_string(g.pad_h) + "," +
           std::to_string(g.pad_w);
  }
};

DepthwiseCase randomDepthwise(Rng& rng, bool three_by_three) {
  DepthwiseCase c;
  auto& g = c.p.geo;
  randomGeometry(rng, g, false);
  if (three_by_three) {
    g.filter_h = g.filter_w = 3;
    g.dilation_h = g.dilation_w = 1;
    g.in_h = rng.uniform(3, 12);
    g.in_w = rng.uniform(3, 12);
    g.pad_h = rng.uniform(0, 1);
    g.pad_w = rng.uniform(0, 1);
    g.out_h = outSize(g.in_h, 3, g.stride_h, 1, g.pad_h);
    g.out_w = outSize(g.in_w, 3, g.stride_w, 1, g.pad_w);
  }
  c.p.depth_multiplier = three_by_three || rng.chance(70) ? 1 : rng.uniform(2, 3);
  g.in_c = rng.chance(20) ? rng.uniform(1, 5) : rng.uniform(1, 40);
  g.out_c = g.in_c * c.p.depth_multiplier;
  c.input = rng.bytes(size_t(g.batches) * size_t(g.in_h) * size_t(g.in_w) * size_t(g.in_c));
  c.filter = rng.bytes(size_t(g.filter_h) * size_t(g.filter_w) * size_t(g.out_c));
  c.bias = rng.bias(size_t(g.out_c));
  rng.requant(size_t(g.out_c), rng.chance(80), c.m, c.s);
  auto& q = c.p.quant;
  q.input_offset = -rng.zeroPoint();
  q.output_zero_point = rng.zeroPoint();
  rng.activation(q.act_min, q.act_max);
  q.bias = c.bias.data();
  q.multipliers = c.m.data();
  q.shifts = c.s.data();
  return c;
}

TEST(OptimizedDepthwiseConv, GeneralMatchesReferenceOnRandomShapes) {
  Rng rng(24005);
  for (int i = 0; i < kCases; ++i) {
    const DepthwiseCase c = randomDepthwise(rng, false);
    std::vector<int8_t> expected(size_t(c.p.geo.outputs())), actual(expected.size());
    kernels::depthwiseConvInt8(c.p, c.input.data(), c.filter.data(), expected.data());
    kernels::opt::depthwiseConvInt8(c.p, c.input.data(), c.filter.data(), actual.data());
    ASSERT_EQ(expected, actual) << "case " << i << ": " << c.describe();
  }
}

TEST(OptimizedDepthwiseConv, ThreeByThreeMatchesReferenceOnRandomShapes) {
  Rng rng(24006);
  for (int i = 0; i < kCases; ++i) {
    const DepthwiseCase c = randomDepthwise(rng, true);
    ASSERT_TRUE(kernels::opt::depthwiseConvInt8Is3x3(c.p));
    std::vector<int8_t> expected(size_t(c.p.geo.outputs())), actual(expected.size());
    kernels::depthwiseConvInt8(c.p, c.input.data(), c.filter.data(), expected.data());
    kernels::opt::depthwiseConvInt8_3x3(c.p, c.input.data(), c.filter.data(), actual.data());
    ASSERT_EQ(expected, actual) << "case " << i << ": " << c.describe();
  }
}

kernels::PoolParams randomPool(Rng& rng, bool big_window) {
  kernels::PoolParams p;
  auto& g = p.geo;
  do {
    g.batches = rng.uniform(1, 2);
    g.filter_h = big_window ? rng.uniform(14, 20) : rng.uniform(1, 5);
    g.filter_w = big_window ? rng.uniform(14, 20) : rng.uniform(1, 5);
    g.stride_h = rng.uniform(1, 3);
    g.stride_w = rng.uniform(1, 3);
    g.in_h = rng.uniform(g.filter_h, g.filter_h + 6);
    g.in_w = rng.uniform(g.filter_w, g.filter_w + 6);
    g.pad_h = rng.uniform(0, g.filter_h / 2);
    g.pad_w = rng.uniform(0, g.filter_w / 2);
    g.out_h = outSize(g.in_h, g.filter_h, g.stride_h, 1, g.pad_h);
    g.out_w = outSize(g.in_w, g.filter_w, g.stride_w, 1, g.pad_w);
  } while (!kernels::poolWindowsCoverInput(g));
  g.in_c = g.out_c = rng.chance(20) ? rng.uniform(1, 5) : rng.uniform(1, 40);
  rng.activation(p.act_min, p.act_max);
  return p;
}

TEST(OptimizedPooling, MaxMatchesReferenceOnRandomShapes) {
  Rng rng(24007);
  for (int i = 0; i < kCases; ++i) {
    const kernels::PoolParams p = randomPool(rng, false);
    const auto& g = p.geo;
    const auto input = rng.bytes(size_t(g.batches * g.in_h * g.in_w * g.in_c));
    std::vector<int8_t> expected(size_t(g.outputs())), actual(expected.size());
    kernels::maxPoolInt8(p, input.data(), expected.data());
    kernels::opt::maxPoolInt8(p, input.data(), actual.data());
    ASSERT_EQ(expected, actual) << "case " << i;
  }
}

TEST(OptimizedPooling, AverageMatchesReferenceOnRandomShapes) {
  Rng rng(24008);
  for (int i = 0; i < kCases; ++i) {
    // Every tenth case a window of more than 256 taps (the int32 path).
    const kernels::PoolParams p = randomPool(rng, i % 10 == 9);
    const auto& g = p.geo;
    const auto input = rng.bytes(size_t(g.batches * g.in_h * g.in_w * g.in_c));
    std::vector<int8_t> expected(size_t(g.outputs())), actual(expected.size());
    std::vector<int32_t> acc(size_t(g.in_c));
    kernels::averagePoolInt8(p, input.data(), acc.data(), expected.data());
    kernels::opt::averagePoolInt8(p, input.data(), acc.data(), actual.data());
    ASSERT_EQ(expected, actual) << "case " << i;
  }
}

// Two operand shapes that broadcast: rank 1-4, odd extents, each dimension of one operand
// sometimes 1; every fifth case one long flat run (the tails of the unrolled loops), and every
// tenth a scalar operand.
struct BinaryCase {
  std::vector<int32_t> shape1, shape2;
  kernels::BroadcastLoops loops;
  int64_t elements = 0;
  int64_t elements1 = 1, elements2 = 1;
  std::string describe() const {
    std::string s = "[";
    for (int32_t d : shape1) s += std::to_string(d) + " ";
    s += "] x [";
    for (int32_t d : shape2) s += std::to_string(d) + " ";
    return s + "]";
  }
};

BinaryCase randomBinary(Rng& rng, int i) {
  BinaryCase c;
  if (i % 5 == 0) {
    const int32_t n = rng.uniform(1, 131);
    c.shape1 = c.shape2 = {n};
  } else {
    const int32_t rank = rng.uniform(1, 4);
    for (int32_t d = 0; d < rank; ++d) {
      const int32_t extent = rng.uniform(1, 9);
      const int32_t mode = rng.uniform(0, 3);
      c.shape1.push_back(mode == 1 ? 1 : extent);
      c.shape2.push_back(mode == 2 ? 1 : extent);
    }
    if (rng.chance(20)) c.shape2.erase(c.shape2.begin());  // lower rank, right-aligned
    if (c.shape2.empty() || i % 10 == 1) c.shape2 = {1};
  }
  if (rng.chance(50)) std::swap(c.shape1, c.shape2);
  int32_t out_shape[kernels::kMaxBroadcastRank];
  int32_t out_rank = 0;
  EXPECT_EQ(kernels::planBroadcast(c.shape1.data(), int32_t(c.shape1.size()), c.shape2.data(),
                                   int32_t(c.shape2.size()), &c.loops, out_shape, &out_rank),
            kernels::BroadcastStatus::kOk);
  c.elements = 1;
  for (int32_t d = 0; d < out_rank; ++d) c.elements *= out_shape[d];
  for (int32_t d : c.shape1) c.elements1 *= d;
  for (int32_t d : c.shape2) c.elements2 *= d;
  return c;
}

TEST(OptimizedAdd, MatchesReferenceOnRandomBroadcasts) {
  Rng rng(24009);
  for (int i = 0; i < kCases; ++i) {
    const BinaryCase c = randomBinary(rng, i);
    kernels::QuantizedAddParams p;
    p.input1_offset = -rng.zeroPoint();
    p.input2_offset = -rng.zeroPoint();
    p.left_shift = 20;
    p.input1_multiplier = rng.uniform(1 << 30, INT32_MAX);
    p.input2_multiplier = rng.uniform(1 << 30, INT32_MAX);
    // One input holds the larger scale (ratio 1/2: shift 0 after QuantizeMultiplier's
    // normalisation), the other a smaller one.
    p.input1_shift = rng.chance(50) ? 0 : rng.uniform(-8, 0);
    p.input2_shift = rng.chance(50) ? 0 : rng.uniform(-8, 0);
    p.output_multiplier = rng.uniform(1 << 30, INT32_MAX);
    p.output_shift = rng.uniform(-24, -12);
    p.output_offset = rng.zeroPoint();
    rng.activation(p.act_min, p.act_max);
    const auto in1 = rng.bytes(size_t(c.elements1));
    const auto in2 = rng.bytes(size_t(c.elements2));
    std::vector<int8_t> expected(size_t(c.elements)), actual(expected.size());
    kernels::addInt8(p, c.loops, in1.data(), in2.data(), expected.data());
    kernels::opt::addInt8(p, c.loops, in1.data(), in2.data(), actual.data());
    ASSERT_EQ(expected, actual) << "case " << i << ": " << c.describe();
  }
}

TEST(OptimizedMul, MatchesReferenceOnRandomBroadcasts) {
  Rng rng(24010);
  for (int i = 0; i < kCases; ++i) {
    const BinaryCase c = randomBinary(rng, i);
    kernels::QuantizedMulParams p;
    p.input1_offset = -rng.zeroPoint();
    p.input2_offset = -rng.zeroPoint();
    p.output_multiplier = rng.uniform(1 << 30, INT32_MAX);
    p.output_shift = rng.chance(10) ? rng.uniform(1, 3) : rng.uniform(-16, 0);
    p.output_offset = rng.zeroPoint();
    rng.activation(p.act_min, p.act_max);
    const auto in1 = rng.bytes(size_t(c.elements1));
    const auto in2 = rng.bytes(size_t(c.elements2));
    std::vector<int8_t> expected(size_t(c.elements)), actual(expected.size());
    kernels::mulInt8(p, c.loops, in1.data(), in2.data(), expected.data());
    kernels::opt::mulInt8(p, c.loops, in1.data(), in2.data(), actual.data());
    ASSERT_EQ(expected, actual) << "case " << i << ": " << c.describe();
  }
}

// Parameters the optimized loops do not take (an ADD multiplier of INT32_MIN, offsets beyond a
// halfword's safe range) run the reference kernel and give its bytes.
TEST(OptimizedElementwise, ParametersOutsidePrepareRangesGiveTheReferenceBytes) {
  Rng rng(24011);
  const BinaryCase c = randomBinary(rng, 0);
  const auto in1 = rng.bytes(size_t(c.elements1));
  const auto in2 = rng.bytes(size_t(c.elements2));
  kernels::QuantizedAddParams add;
  add.input1_multiplier = INT32_MIN;
  add.input2_multiplier = 1 << 30;
  add.output_multiplier = 1 << 30;
  add.output_shift = -20;
  add.act_min = -128;
  add.act_max = 127;
  std::vector<int8_t> expected(size_t(c.elements)), actual(expected.size());
  kernels::addInt8(add, c.loops, in1.data(), in2.data(), expected.data());
  kernels::opt::addInt8(add, c.loops, in1.data(), in2.data(), actual.data());
  EXPECT_EQ(expected, actual);
  kernels::QuantizedMulParams mul;
  mul.input1_offset = 40000;
  mul.input2_offset = -3;
  mul.output_multiplier = 1 << 30;
  mul.output_shift = -20;
  mul.act_min = -128;
  mul.act_max = 127;
  kernels::mulInt8(mul, c.loops, in1.data(), in2.data(), expected.data());
  kernels::opt::mulInt8(mul, c.loops, in1.data(), in2.data(), actual.data());
  EXPECT_EQ(expected, actual);
}

template <typename Out>
void expectSoftmaxMatches(uint32_t seed) {
  Rng rng(seed);
  for (int i = 0; i < kCases; ++i) {
    kernels::SoftmaxInt8Params p;
    p.rows = rng.uniform(1, 4);
    p.depth = rng.chance(20) ? rng.uniform(1, 9) : rng.uniform(1, 300);
    p.input_multiplier = rng.uniform(1 << 30, INT32_MAX);
    p.input_left_shift = rng.uniform(0, 23);
    p.diff_min = rng.chance(20) ? rng.uniform(-300, -256) : rng.uniform(-255, 0);
    // Every twentieth case rows long enough and flat enough that the sum of exps wraps.
    const bool overflow = i % 20 == 19;
    if (overflow) p.depth = rng.uniform(4097, 6000);
    auto input = rng.bytes(size_t(p.rows * p.depth));
    if (overflow)
      for (auto& v : input) v = 7;
    std::vector<int32_t> table(size_t(kernels::opt::kSoftmaxExpTableEntries));
    kernels::opt::softmaxInt8ExpTable(p, table.data());
    std::vector<Out> expected(input.size()), actual(input.size());
    int32_t expected_row = -1, actual_row = -1;
    kernels::SoftmaxStatus expected_status, actual_status;
    if constexpr (sizeof(Out) == 1) {
      expected_status = kernels::softmaxInt8ToInt8(p, input.data(), expected.data(), &expected_row);
      actual_status = kernels::opt::softmaxInt8ToInt8(p, table.data(), input.data(), actual.data(),
                                                      &actual_row);
    } else {
      expected_status =
          kernels::softmaxInt8ToInt16(p, input.data(), expected.data(), &expected_row);
      actual_status = kernels::opt::softmaxInt8ToInt16(p, table.data(), input.data(), actual.data(),
                                                       &actual_row);
    }
    ASSERT_EQ(expected_status, actual_status) << "case " << i;
    // The int16 output keeps 16 more bits of the reciprocal's range, so only int8 stops there.
    if (sizeof(Out) == 1) {
      EXPECT_EQ(overflow, expected_status == kernels::SoftmaxStatus::kSumOfExpsOverflow);
    }
    if (expected_status == kernels::SoftmaxStatus::kOk) {
      ASSERT_EQ(expected, actual) << "case " << i << ": depth " << p.depth;
    } else {
      ASSERT_EQ(expected_row, actual_row) << "case " << i;
    }
  }
}

TEST(OptimizedSoftmax, Int8MatchesReferenceOnRandomRows) {
  expectSoftmaxMatches<int8_t>(24012);
}

TEST(OptimizedSoftmax, Int16OutputMatchesReferenceOnRandomRows) {
  expectSoftmaxMatches<int16_t>(24013);
}

// One random gate of the int8 LSTM with the arrays it points at. The biases hold what prepare
// folds into them (lstm.h): bias - x_zero_point * sum(input row), -h_zero_point * sum(recurrent
// row), wrapping.
struct LstmGateCase {
  std::vector<int8_t> input_weights, recurrent_weights;
  std::vector<int32_t> input_bias, recurrent_bias;
  kernels::LstmGateInt8 gate;
};

std::vector<int32_t> foldedBias(const std::vector<int8_t>& weights, int32_t depth,
                                const std::vector<int32_t>& bias, int32_t zero_point) {
  std::vector<int32_t> folded(bias.size());
  for (size_t r = 0; r < bias.size(); ++r) {
    uint32_t sum = 0;
    for (int32_t d = 0; d < depth; ++d)
      sum += static_cast<uint32_t>(int32_t{weights[r * size_t(depth) + size_t(d)]});
    folded[r] = static_cast<int32_t>(static_cast<uint32_t>(bias[r]) -
                                     static_cast<uint32_t>(zero_point) * sum);
  }
  return folded;
}

// A gate scale as prepare makes it: x (or h) scale * weight scale / 2^-12, mostly right shifts.
void gateScale(Rng& rng, int32_t& multiplier, int& shift) {
  multiplier = rng.uniform(1 << 30, INT32_MAX);
  shift = rng.chance(15) ? rng.uniform(1, 3) : rng.uniform(-14, 0);
}

void randomLstmGate(Rng& rng, int32_t input_size, int32_t cells, int32_t x_zero_point,
                    int32_t h_zero_point, LstmGateCase& c) {
  c.input_weights = rng.bytes(size_t(cells) * size_t(input_size));
  c.recurrent_weights = rng.bytes(size_t(cells) * size_t(cells));
  c.input_bias = foldedBias(c.input_weights, input_size, rng.bias(size_t(cells)), x_zero_point);
  c.recurrent_bias =
      foldedBias(c.recurrent_weights, cells, std::vector<int32_t>(size_t(cells)), h_zero_point);
  c.gate.input_weights = c.input_weights.data();
  c.gate.recurrent_weights = c.recurrent_weights.data();
  c.gate.input_bias = rng.chance(90) ? c.input_bias.data() : nullptr;
  c.gate.recurrent_bias = rng.chance(90) ? c.recurrent_bias.data() : nullptr;
  gateScale(rng, c.gate.input_multiplier, c.gate.input_shift);
  gateScale(rng, c.gate.recurrent_multiplier, c.gate.recurrent_shift);
}

TEST(OptimizedLstm, GateMatchesReferenceOnRandomShapes) {
  Rng rng(24012);
  for (int i = 0; i < kCases; ++i) {
    const int32_t rows = rng.uniform(1, 3);
    // Sizes around the 4-cell blocks and the 4- and 2-element loop tails, and larger ones.
    const int32_t input_size = rng.chance(30) ? rng.uniform(1, 9) : rng.uniform(1, 90);
    const int32_t cells = rng.chance(30) ? rng.uniform(1, 9) : rng.uniform(1, 41);
    LstmGateCase c;
    randomLstmGate(rng, input_size, cells, rng.zeroPoint(), rng.zeroPoint(), c);
    // Offsets so the word loads of inputs and hidden states meet every alignment.
    const size_t skew = size_t(rng.uniform(0, 3));
    const auto x = rng.bytes(size_t(rows * input_size) + skew);
    const auto h = rng.bytes(size_t(rows * cells) + skew);
    const auto activation =
        rng.chance(50) ? kernels::LstmGateActivation::kSigmoid : kernels::LstmGateActivation::kTanh;
    std::vector<int16_t> expected(size_t(rows * cells)), actual(expected.size());
    kernels::lstm_step::gateInt8(c.gate, rows, input_size, cells, x.data() + skew, h.data() + skew,
                                 activation, expected.data());
    kernels::opt::lstmGateInt8(c.gate, rows, input_size, cells, x.data() + skew, h.data() + skew,
                               activation, actual.data());
    ASSERT_EQ(expected, actual) << "case " << i << ": rows " << rows << " input " << input_size
                                << " cells " << cells;
  }
}

TEST(OptimizedLstm, GateSaturatesEachProductAndTheirSumLikeTheReference) {
  // All weights and inputs 127 with a small right shift: each product requantizes far beyond
  // int16 and is clamped, and the sum of the two clamped halves saturates; with opposite signs
  // of the recurrent weights the halves cancel instead.
  const int32_t input_size = 13, cells = 7;
  const std::vector<int8_t> x(input_size, 127), h(cells, 127);
  const std::vector<int8_t> input_weights(size_t(cells * input_size), 127);
  std::vector<int8_t> recurrent_weights(size_t(cells * cells), 127);
  for (size_t i = 0; i < size_t(cells); ++i) recurrent_weights[i] = -128;  // first cell's row
  kernels::LstmGateInt8 g;
  g.input_weights = input_weights.data();
  g.recurrent_weights = recurrent_weights.data();
  g.input_multiplier = g.recurrent_multiplier = 1 << 30;
  g.input_shift = g.recurrent_shift = 1;
  for (const auto activation :
       {kernels::LstmGateActivation::kSigmoid, kernels::LstmGateActivation::kTanh}) {
    std::vector<int16_t> expected(static_cast<size_t>(cells)), actual(expected.size());
    kernels::lstm_step::gateInt8(g, 1, input_size, cells, x.data(), h.data(), activation,
                                 expected.data());
    kernels::opt::lstmGateInt8(g, 1, input_size, cells, x.data(), h.data(), activation,
                               actual.data());
    EXPECT_EQ(expected, actual);
    EXPECT_NE(expected[0], expected[1]);  // the first cell's halves cancelled
  }
}

TEST(OptimizedLstm, SequenceMatchesReferenceOutputAndStates) {
  Rng rng(24013);
  for (int i = 0; i < 120; ++i) {
    kernels::LstmInt8Params p;
    p.shape.batches = rng.uniform(1, 3);
    p.shape.time_steps = rng.uniform(0, 4);
    p.shape.input_size = rng.uniform(1, 40);
    p.shape.cells = rng.uniform(1, 21);
    p.shape.time_major = rng.chance(50);
    const int32_t x_zero_point = rng.zeroPoint(), h_zero_point = rng.zeroPoint();
    LstmGateCase gates[4];
    for (auto& g : gates)
      randomLstmGate(rng, p.shape.input_size, p.shape.cells, x_zero_point, h_zero_point, g);
    p.input_gate = gates[0].gate;
    p.forget_gate = gates[1].gate;
    p.cell_gate = gates[2].gate;
    p.output_gate = gates[3].gate;
    kernels::LstmIntegerCell& cell = p.cell;
    cell.forget_times_cell_multiplier = rng.uniform(1 << 30, INT32_MAX);
    cell.forget_times_cell_shift = rng.uniform(-16, -12);
    cell.input_times_cell_gate_multiplier = rng.uniform(1 << 30, INT32_MAX);
    cell.input_times_cell_gate_shift = rng.uniform(-20, -14);
    cell.clip_cell = rng.chance(50);
    cell.cell_clip = static_cast<int16_t>(rng.uniform(0, 32767));
    cell.cell_tanh.input_multiplier = rng.uniform(1, 6);
    cell.cell_tanh.input_right_shift = rng.uniform(0, 2);
    cell.hidden_multiplier = rng.uniform(1 << 30, INT32_MAX);
    cell.hidden_shift = rng.uniform(-24, -20);
    cell.hidden_zero_point = h_zero_point;

    const size_t rows = size_t(p.shape.batches) * size_t(p.shape.time_steps);
    const size_t state = size_t(p.shape.batches) * size_t(p.shape.cells);
    const auto input = rng.bytes(rows * size_t(p.shape.input_size));
    const auto hidden0 = rng.bytes(state);
    std::vector<int16_t> cell0(state);
    for (auto& v : cell0) v = static_cast<int16_t>(rng.uniform(-32768, 32767));

    struct Run {
      std::vector<int8_t> output, hidden;
      std::vector<int16_t> cell, scratch;
    };
    Run ref{std::vector<int8_t>(rows * size_t(p.shape.cells)), hidden0, cell0,
            std::vector<int16_t>(kernels::lstmScratchElements(p.shape))};
    Run opt = ref;
    const auto buffers = [&input](Run& r) {
      kernels::LstmInt8Buffers b;
      b.input = input.data();
      b.output = r.output.data();
      b.hidden_state = r.hidden.data();
      b.cell_state = r.cell.data();
      b.scratch = r.scratch.data();
      return b;
    };
    kernels::lstmInt8(p, buffers(ref));
    kernels::opt::lstmInt8(p, buffers(opt));
    ASSERT_EQ(ref.output, opt.output) << "case " << i;
    ASSERT_EQ(ref.hidden, opt.hidden) << "case " << i;
    ASSERT_EQ(ref.cell, opt.cell) << "case " << i;
  }
}

}  // namespace
}  // namespace hilsim::test
