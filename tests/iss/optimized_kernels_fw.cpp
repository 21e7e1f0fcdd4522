// Firmware entries that run the optimized kernels on the instruction-set simulator next to the
// reference kernels, compiled with the firmware images' flags for each core (CMakeLists.txt):
//   opt_selfcheck(seed, rounds): rounds of seven random cases, one per kernel and path (odd
//     sizes, padding, strides, dilation, groups, depth multipliers, per-channel requantization,
//     int8-extreme zero points), through both libraries; returns the number of cases whose bytes
//     differ;
//   opt_selfcheck_elementwise(seed, rounds): the same for ADD and MUL (random broadcast shapes,
//     odd run lengths, saturating activation ranges) and SOFTMAX with int8 and int16 outputs;
//   opt_selfcheck_lstm(seed, rounds): the int8 LSTM's gate (opt::lstmGateInt8 against
//     lstm_step::gateInt8) on random gates, one sigmoid and one tanh per round;
//   opt_selfcheck_requantize(seed, rounds): opt::requantize against
//     multiplyByQuantizedMultiplier for every shift, over the int32 edges (the saturating
//     INT32_MIN * INT32_MIN included) and `rounds` random accumulators and multipliers per
//     shift; returns the number of values that differ;
//   bench_elementwise(elements, op, broadcast, mode): ADD (op 0) or MUL (op 1) of `elements`
//     int8 values with a second operand of the same shape (broadcast 0) or one value
//     (broadcast 1), and bench_softmax(rows, depth, mode): SOFTMAX int8 -> int8;
//   bench_fc(k, n, mode), bench_conv1x1(pixels, in_c, out_c, mode), bench_conv3x3(side, in_c,
//     out_c, mode), bench_dw3x3(side, channels, mode),
//     bench_pool(side, channels, average, mode): one call of a kernel on deterministic data
//     (3x3 windows: a side x side image, stride 1, padding 1), mode 0 only prepares the data and
//     the folded bias, 1 adds the reference kernel, 2 the optimized one; the kernel's cycles are
//     the difference to mode 0.

#include <cstddef>
#include <cstdint>

#include "hilsim/kernels/add.h"
#include "hilsim/kernels/broadcast.h"
#include "hilsim/kernels/conv.h"
#include "hilsim/kernels/depthwise_conv.h"
#include "hilsim/kernels/fully_connected.h"
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

namespace {

namespace k = hilsim::kernels;

constexpr size_t kInputBytes = 24 * 1024;
constexpr size_t kFilterBytes = 256 * 1024;
constexpr size_t kOutputBytes = 16 * 1024;
constexpr size_t kChannels = 512;

int8_t g_input[kInputBytes];
int8_t g_filter[kFilterBytes];
int8_t g_expected[kOutputBytes];
int8_t g_actual[kOutputBytes];
int16_t g_scratch[8 * 1024];
int32_t g_acc[kChannels];
int32_t g_bias[kChannels], g_folded[kChannels], g_mult[kChannels], g_shift[kChannels];
int16_t g_expected16[kOutputBytes / 2], g_actual16[kOutputBytes / 2];
int32_t g_exp_table[hilsim::kernels::opt::kSoftmaxExpTableEntries];

struct Lcg {
  uint32_t state;
  uint32_t next() {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  }
  int32_t uniform(int32_t lo, int32_t hi) { return lo + int32_t(next() % uint32_t(hi - lo + 1)); }
  bool chance(int32_t percent) { return uniform(0, 99) < percent; }
  int32_t zeroPoint() {
    const int32_t mode = uniform(0, 3);
    return mode == 0 ? -128 : mode == 1 ? 127 : uniform(-128, 127);
  }
  void fill(int8_t* p, size_t n) {
    const int32_t mode = uniform(0, 9);
    for (size_t i = 0; i < n; ++i)
      p[i] = int8_t(mode == 0 ? -128 : mode == 1 ? 127 : uniform(-128, 127));
  }
  void requant(int32_t n) {
    const bool per_channel = chance(80);
    const bool big_bias = chance(10);
    for (int32_t i = 0; i < n; ++i) {
      g_bias[i] = big_bias ? int32_t(next() << 8) : uniform(-100000, 100000);
      if (i > 0 && !per_channel) {
        g_mult[i] = g_mult[0];
        g_shift[i] = g_shift[0];
      } else {
        g_mult[i] = int32_t((1u << 30) | (next() << 6));
        g_shift[i] = chance(10) ? uniform(1, 4) : uniform(-20, 0);
      }
    }
  }
  void activation(int32_t& lo, int32_t& hi) {
    lo = -128;
    hi = 127;
    if (chance(30)) {
      lo = uniform(-128, 0);
      hi = uniform(lo, 127);
    }
  }
};

bool same(size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (g_expected[i] != g_actual[i]) return false;
  return true;
}

int32_t outSize(int32_t in, int32_t filter, int32_t stride, int32_t dilation, int32_t pad) {
  return (in + 2 * pad - ((filter - 1) * dilation + 1)) / stride + 1;
}

void geometry(Lcg& r, k::WindowGeometry& g, bool pointwise, bool three) {
  g.batches = r.uniform(1, 2);
  g.filter_h = pointwise ? 1 : three ? 3 : r.uniform(1, 5);
  g.filter_w = pointwise ? 1 : three ? 3 : r.uniform(1, 5);
  g.stride_h = r.uniform(1, 3);
  g.stride_w = r.uniform(1, 3);
  g.dilation_h = pointwise || three || r.chance(70) ? 1 : r.uniform(1, 3);
  g.dilation_w = pointwise || three || r.chance(70) ? 1 : r.uniform(1, 3);
  const int32_t eff_h = (g.filter_h - 1) * g.dilation_h + 1;
  const int32_t eff_w = (g.filter_w - 1) * g.dilation_w + 1;
  g.in_h = r.uniform(eff_h, eff_h + 7);
  g.in_w = r.uniform(eff_w, eff_w + 7);
  g.pad_h = pointwise ? 0 : r.uniform(0, eff_h / 2);
  g.pad_w = pointwise ? 0 : r.uniform(0, eff_w / 2);
  g.out_h = outSize(g.in_h, g.filter_h, g.stride_h, g.dilation_h, g.pad_h);
  g.out_w = outSize(g.in_w, g.filter_w, g.stride_w, g.dilation_w, g.pad_w);
}

void quant(Lcg& r, k::ChannelRequant& q, int32_t channels) {
  r.requant(channels);
  q.input_offset = -r.zeroPoint();
  q.output_zero_point = r.zeroPoint();
  r.activation(q.act_min, q.act_max);
  q.bias = g_bias;
  q.multipliers = g_mult;
  q.shifts = g_shift;
}

bool checkFullyConnected(Lcg& r) {
  k::FullyConnectedInt8Params p;
  p.rows = r.uniform(1, 4);
  p.k = r.chance(20) ? r.uniform(1, 8) : r.uniform(1, 300);
  p.n = r.uniform(1, 37);
  p.input_offset = -r.zeroPoint();
  p.output_offset = r.zeroPoint();
  r.activation(p.act_min, p.act_max);
  r.requant(p.n);
  p.multipliers = g_mult;
  p.shifts = g_shift;
  const int32_t skew = r.uniform(0, 3);
  r.fill(g_input, size_t(p.rows * p.k + skew));
  r.fill(g_filter, size_t(p.n * p.k + skew));
  const int32_t* bias = r.chance(80) ? g_bias : nullptr;
  k::fullyConnectedInt8(p, g_input + skew, g_filter + skew, bias, g_expected);
  k::opt::fullyConnectedInt8FoldBias(p, g_filter + skew, bias, g_folded);
  k::opt::fullyConnectedInt8(p, g_input + skew, g_filter + skew, g_folded, g_actual);
  return same(size_t(p.rows * p.n));
}

bool checkConv(Lcg& r, bool pointwise) {
  k::ConvParams p;
  k::WindowGeometry& g = p.geo;
  geometry(r, g, pointwise, false);
  const int32_t groups = pointwise || r.chance(75) ? 1 : r.uniform(2, 3);
  p.filter_in_c = r.chance(20) ? r.uniform(1, 3) : r.uniform(1, 24);
  g.in_c = p.filter_in_c * groups;
  p.filters_per_group = r.uniform(1, 13);
  g.out_c = p.filters_per_group * groups;
  quant(r, p.quant, g.out_c);
  const size_t in_bytes = size_t(g.batches * g.in_h * g.in_w * g.in_c);
  const size_t outputs = size_t(g.outputs());
  if (in_bytes > kInputBytes || outputs > kOutputBytes) return true;  // too large for the buffers
  r.fill(g_input, in_bytes);
  r.fill(g_filter, size_t(g.out_c * g.filter_h * g.filter_w * p.filter_in_c));
  k::convInt8(p, g_input, g_filter, g_expected);
  if (pointwise) {
    k::opt::convInt8PointwiseFoldBias(p, g_filter, g_folded);
    k::opt::convInt8Pointwise(p, g_input, g_filter, g_folded, g_actual);
  } else {
    k::opt::convInt8Im2col(p, g_input, g_filter, g_scratch, g_actual);
  }
  return same(outputs);
}

bool checkDepthwise(Lcg& r, bool three) {
  k::DepthwiseConvParams p;
  k::WindowGeometry& g = p.geo;
  geometry(r, g, false, three);
  p.depth_multiplier = three || r.chance(70) ? 1 : r.uniform(2, 3);
  g.in_c = r.chance(20) ? r.uniform(1, 5) : r.uniform(1, 40);
  g.out_c = g.in_c * p.depth_multiplier;
  quant(r, p.quant, g.out_c);
  const size_t in_bytes = size_t(g.batches * g.in_h * g.in_w * g.in_c);
  const size_t outputs = size_t(g.outputs());
  if (in_bytes > kInputBytes || outputs > kOutputBytes) return true;
  r.fill(g_input, in_bytes);
  r.fill(g_filter, size_t(g.filter_h * g.filter_w * g.out_c));
  k::depthwiseConvInt8(p, g_input, g_filter, g_expected);
  if (three)
    k::opt::depthwiseConvInt8_3x3(p, g_input, g_filter, g_actual);
  else
    k::opt::depthwiseConvInt8(p, g_input, g_filter, g_actual);
  return same(outputs);
}

bool checkPool(Lcg& r, bool average) {
  k::PoolParams p;
  k::WindowGeometry& g = p.geo;
  const bool big = average && r.chance(10);  // more than 256 taps: the int32 sums
  g.batches = r.uniform(1, 2);
  g.filter_h = big ? r.uniform(14, 20) : r.uniform(1, 5);
  g.filter_w = big ? r.uniform(14, 20) : r.uniform(1, 5);
  g.stride_h = r.uniform(1, 3);
  g.stride_w = r.uniform(1, 3);
  g.in_h = r.uniform(g.filter_h, g.filter_h + 6);
  g.in_w = r.uniform(g.filter_w, g.filter_w + 6);
  g.pad_h = r.uniform(0, g.filter_h / 2);
  g.pad_w = r.uniform(0, g.filter_w / 2);
  g.out_h = outSize(g.in_h, g.filter_h, g.stride_h, 1, g.pad_h);
  g.out_w = outSize(g.in_w, g.filter_w, g.stride_w, 1, g.pad_w);
  g.in_c = g.out_c = r.chance(20) ? r.uniform(1, 5) : r.uniform(1, 40);
  r.activation(p.act_min, p.act_max);
  const size_t in_bytes = size_t(g.batches * g.in_h * g.in_w * g.in_c);
  const size_t outputs = size_t(g.outputs());
  if (!k::poolWindowsCoverInput(g) || in_bytes > kInputBytes || outputs > kOutputBytes) return true;
  r.fill(g_input, in_bytes);
  if (average) {
    k::averagePoolInt8(p, g_input, g_acc, g_expected);
    k::opt::averagePoolInt8(p, g_input, g_acc, g_actual);
  } else {
    k::maxPoolInt8(p, g_input, g_expected);
    k::opt::maxPoolInt8(p, g_input, g_actual);
  }
  return same(outputs);
}

// Two operand shapes that broadcast (rank 1-4, odd extents, dimensions of 1 on either side,
// sometimes a scalar or one long flat run), planned; false if the buffers are too small.
bool binaryShapes(Lcg& r, k::BroadcastLoops& loops, size_t& n1, size_t& n2, size_t& outputs) {
  int32_t s1[4], s2[4];
  int32_t rank1 = 1, rank2 = 1;
  const int32_t mode = r.uniform(0, 9);
  if (mode < 2) {
    s1[0] = s2[0] = r.uniform(1, 300);
  } else {
    rank1 = rank2 = r.uniform(1, 4);
    for (int32_t d = 0; d < rank1; ++d) {
      const int32_t extent = r.uniform(1, 9);
      const int32_t which = r.uniform(0, 3);
      s1[d] = which == 1 ? 1 : extent;
      s2[d] = which == 2 ? 1 : extent;
    }
    if (mode == 2) {
      rank2 = 1;
      s2[0] = 1;
    }
  }
  int32_t out_shape[k::kMaxBroadcastRank];
  int32_t out_rank = 0;
  const bool swap = r.chance(50);
  if (k::planBroadcast(swap ? s2 : s1, swap ? rank2 : rank1, swap ? s1 : s2, swap ? rank1 : rank2,
                       &loops, out_shape, &out_rank) != k::BroadcastStatus::kOk)
    return false;
  n1 = n2 = outputs = 1;
  for (int32_t d = 0; d < rank1; ++d) (swap ? n2 : n1) *= size_t(s1[d]);
  for (int32_t d = 0; d < rank2; ++d) (swap ? n1 : n2) *= size_t(s2[d]);
  for (int32_t d = 0; d < out_rank; ++d) outputs *= size_t(out_shape[d]);
  return n1 + n2 <= kInputBytes && outputs <= kOutputBytes;
}

bool checkAdd(Lcg& r) {
  k::BroadcastLoops loops;
  size_t n1 = 0, n2 = 0, outputs = 0;
  if (!binaryShapes(r, loops, n1, n2, outputs)) return true;
  k::QuantizedAddParams p;
  p.input1_offset = -r.zeroPoint();
  p.input2_offset = -r.zeroPoint();
  p.left_shift = 20;
  p.input1_multiplier = int32_t((1u << 30) | (r.next() << 6));
  p.input2_multiplier = int32_t((1u << 30) | (r.next() << 6));
  p.input1_shift = r.chance(50) ? 0 : r.uniform(-8, 0);
  p.input2_shift = r.chance(50) ? 0 : r.uniform(-8, 0);
  p.output_multiplier = int32_t((1u << 30) | (r.next() << 6));
  p.output_shift = r.uniform(-24, -12);
  p.output_offset = r.zeroPoint();
  r.activation(p.act_min, p.act_max);
  r.fill(g_input, n1 + n2);
  k::addInt8(p, loops, g_input, g_input + n1, g_expected);
  k::opt::addInt8(p, loops, g_input, g_input + n1, g_actual);
  return same(outputs);
}

bool checkMul(Lcg& r) {
  k::BroadcastLoops loops;
  size_t n1 = 0, n2 = 0, outputs = 0;
  if (!binaryShapes(r, loops, n1, n2, outputs)) return true;
  k::QuantizedMulParams p;
  p.input1_offset = -r.zeroPoint();
  p.input2_offset = -r.zeroPoint();
  p.output_multiplier = int32_t((1u << 30) | (r.next() << 6));
  p.output_shift = r.chance(10) ? r.uniform(1, 3) : r.uniform(-16, 0);
  p.output_offset = r.zeroPoint();
  r.activation(p.act_min, p.act_max);
  r.fill(g_input, n1 + n2);
  k::mulInt8(p, loops, g_input, g_input + n1, g_expected);
  k::opt::mulInt8(p, loops, g_input, g_input + n1, g_actual);
  return same(outputs);
}

bool checkSoftmax(Lcg& r, bool int16_out) {
  k::SoftmaxInt8Params p;
  p.rows = r.uniform(1, 4);
  p.depth = r.chance(20) ? r.uniform(1, 9) : r.uniform(1, 300);
  p.input_multiplier = int32_t((1u << 30) | (r.next() << 6));
  p.input_left_shift = r.uniform(0, 23);
  p.diff_min = r.chance(20) ? r.uniform(-300, -256) : r.uniform(-255, 0);
  const size_t n = size_t(p.rows * p.depth);
  r.fill(g_input, n);
  k::opt::softmaxInt8ExpTable(p, g_exp_table);
  int32_t row_expected = -1, row_actual = -1;
  if (int16_out) {
    const k::SoftmaxStatus a = k::softmaxInt8ToInt16(p, g_input, g_expected16, &row_expected);
    const k::SoftmaxStatus b =
        k::opt::softmaxInt8ToInt16(p, g_exp_table, g_input, g_actual16, &row_actual);
    if (a != b || row_expected != row_actual) return false;
    for (size_t i = 0; i < n; ++i)
      if (g_expected16[i] != g_actual16[i]) return false;
    return true;
  }
  const k::SoftmaxStatus a = k::softmaxInt8ToInt8(p, g_input, g_expected, &row_expected);
  const k::SoftmaxStatus b =
      k::opt::softmaxInt8ToInt8(p, g_exp_table, g_input, g_actual, &row_actual);
  return a == b && row_expected == row_actual && same(n);
}

// One LSTM gate: rows 1-2, odd input and cell counts for the loop tails, inputs at every
// alignment, any biases (folded or not, the arithmetic is the same), gate scales with left and
// right shifts.
bool checkLstmGate(Lcg& r, k::LstmGateActivation activation) {
  const int32_t rows = r.uniform(1, 2);
  const int32_t input_size = r.chance(30) ? r.uniform(1, 9) : r.uniform(1, 70);
  const int32_t cells = r.chance(30) ? r.uniform(1, 9) : r.uniform(1, 37);
  const int32_t skew = r.uniform(0, 3);
  int8_t* x = g_input + skew;
  int8_t* h = x + rows * input_size + r.uniform(0, 3);
  r.fill(g_input, size_t(skew + rows * (input_size + cells) + 3));
  r.fill(g_filter, size_t(cells * (input_size + cells)));
  r.requant(cells);
  for (int32_t c = 0; c < cells; ++c) g_folded[c] = int32_t(r.next() << 8) >> r.uniform(0, 16);
  k::LstmGateInt8 g;
  g.input_weights = g_filter;
  g.recurrent_weights = g_filter + cells * input_size;
  g.input_bias = r.chance(90) ? g_bias : nullptr;
  g.recurrent_bias = r.chance(90) ? g_folded : nullptr;
  g.input_multiplier = g_mult[0];
  g.input_shift = r.chance(15) ? r.uniform(1, 3) : r.uniform(-14, 0);
  g.recurrent_multiplier = int32_t((1u << 30) | (r.next() << 6));
  g.recurrent_shift = r.chance(15) ? r.uniform(1, 3) : r.uniform(-14, 0);
  k::lstm_step::gateInt8(g, rows, input_size, cells, x, h, activation, g_expected16);
  k::opt::lstmGateInt8(g, rows, input_size, cells, x, h, activation, g_actual16);
  for (int32_t i = 0; i < rows * cells; ++i)
    if (g_expected16[i] != g_actual16[i]) return false;
  return true;
}

void fillBench(size_t in_bytes, size_t filter_bytes, int32_t channels) {
  Lcg r{12345};
  for (size_t i = 0; i < in_bytes; ++i) g_input[i] = int8_t(r.next());
  for (size_t i = 0; i < filter_bytes; ++i) g_filter[i] = int8_t(r.next());
  for (int32_t i = 0; i < channels; ++i) {
    g_bias[i] = int32_t(r.next() & 0xFFFF) - 0x8000;
    g_mult[i] = int32_t((1u << 30) | (r.next() << 6));
    g_shift[i] = -8;
  }
}

}  // namespace

extern "C" {

uint32_t opt_selfcheck(uint32_t seed, uint32_t cases) {
  Lcg r{seed};
  uint32_t failures = 0;
  for (uint32_t i = 0; i < cases; ++i) {
    failures += checkFullyConnected(r) ? 0 : 1;
    failures += checkConv(r, true) ? 0 : 1;
    failures += checkConv(r, false) ? 0 : 1;
    failures += checkDepthwise(r, false) ? 0 : 1;
    failures += checkDepthwise(r, true) ? 0 : 1;
    failures += checkPool(r, false) ? 0 : 1;
    failures += checkPool(r, true) ? 0 : 1;
  }
  return failures;
}

uint32_t opt_selfcheck_elementwise(uint32_t seed, uint32_t cases) {
  Lcg r{seed};
  uint32_t failures = 0;
  for (uint32_t i = 0; i < cases; ++i) {
    failures += checkAdd(r) ? 0 : 1;
    failures += checkMul(r) ? 0 : 1;
    failures += checkSoftmax(r, false) ? 0 : 1;
    failures += checkSoftmax(r, true) ? 0 : 1;
  }
  return failures;
}

uint32_t opt_selfcheck_lstm(uint32_t seed, uint32_t cases) {
  Lcg r{seed};
  uint32_t failures = 0;
  for (uint32_t i = 0; i < cases; ++i) {
    failures += checkLstmGate(r, k::LstmGateActivation::kSigmoid) ? 0 : 1;
    failures += checkLstmGate(r, k::LstmGateActivation::kTanh) ? 0 : 1;
  }
  return failures;
}

uint32_t opt_selfcheck_requantize(uint32_t seed, uint32_t rounds) {
  const int32_t edges[] = {
      INT32_MIN, INT32_MIN + 1, -(1 << 30), -65536,        -3,       -2, -1, 0, 1, 2,
      3,         65535,         1 << 30,    INT32_MAX - 1, INT32_MAX};
  constexpr uint32_t kEdges = sizeof(edges) / sizeof(edges[0]);
  Lcg r{seed};
  uint32_t failures = 0;
  for (int32_t shift = -31; shift <= 31; ++shift) {
    for (uint32_t i = 0; i < kEdges * kEdges + rounds; ++i) {
      const bool edge = i < kEdges * kEdges;
      // next() has 24 random bits: two calls fill a word.
      const int32_t acc = edge ? edges[i % kEdges] : static_cast<int32_t>(r.next() << 8 ^ r.next());
      const int32_t multiplier =
          edge ? edges[i / kEdges] : static_cast<int32_t>(r.next() << 8 ^ r.next());
      if (k::opt::requantize(acc, multiplier, shift) !=
          k::multiplyByQuantizedMultiplier(acc, multiplier, shift))
        ++failures;
    }
  }
  return failures;
}

// ADD (op 0) or MUL (op 1) over `elements` values; the second operand has the same shape
// (broadcast 0) or is one value (broadcast 1). Parameters as a residual ADD's.
uint32_t bench_elementwise(uint32_t elements, uint32_t op, uint32_t broadcast, uint32_t mode) {
  if (elements == 0 || 2 * size_t(elements) > kInputBytes || elements > kOutputBytes) return 1;
  fillBench(2 * size_t(elements), 0, 0);
  const int32_t shape1[1] = {int32_t(elements)};
  const int32_t shape2[1] = {broadcast ? 1 : int32_t(elements)};
  k::BroadcastLoops loops;
  int32_t out_shape[k::kMaxBroadcastRank];
  int32_t out_rank = 0;
  if (k::planBroadcast(shape1, 1, shape2, 1, &loops, out_shape, &out_rank) !=
      k::BroadcastStatus::kOk)
    return 1;
  const int8_t* in2 = g_input + elements;
  if (op == 0) {
    k::QuantizedAddParams p;
    p.input1_offset = 5;
    p.input2_offset = -7;
    p.input1_multiplier = 1 << 30;
    p.input1_shift = 0;
    p.input2_multiplier = 1518500250;
    p.input2_shift = -1;
    p.output_multiplier = 1431655765;
    p.output_shift = -19;
    p.output_offset = -3;
    p.act_min = -128;
    p.act_max = 127;
    if (mode == 1) k::addInt8(p, loops, g_input, in2, g_expected);
    if (mode == 2) k::opt::addInt8(p, loops, g_input, in2, g_actual);
  } else {
    k::QuantizedMulParams p;
    p.input1_offset = 5;
    p.input2_offset = -7;
    p.output_multiplier = 1431655765;
    p.output_shift = -8;
    p.output_offset = -3;
    p.act_min = -128;
    p.act_max = 127;
    if (mode == 1) k::mulInt8(p, loops, g_input, in2, g_expected);
    if (mode == 2) k::opt::mulInt8(p, loops, g_input, in2, g_actual);
  }
  return 0;
}

// SOFTMAX int8 -> int8 of `rows` rows of `depth` values (beta * input scale = 1/16). The exp
// table is prepared in every mode, as the runtime prepares it once per model.
uint32_t bench_softmax(uint32_t rows, uint32_t depth, uint32_t mode) {
  if (size_t(rows) * depth > kInputBytes || size_t(rows) * depth > kOutputBytes) return 1;
  fillBench(size_t(rows) * depth, 0, 0);
  k::SoftmaxInt8Params p;
  p.rows = int32_t(rows);
  p.depth = int32_t(depth);
  // A difference d scales to d * 2^23 * 2^30 / 2^31 = d * 2^22, d / 16 in Q5.26; the input radius
  // is 31 * 2^26 / 2^23 = 248.
  p.input_multiplier = 1 << 30;
  p.input_left_shift = 23;
  p.diff_min = -248;
  k::opt::softmaxInt8ExpTable(p, g_exp_table);
  int32_t row = 0;
  if (mode == 1 && k::softmaxInt8ToInt8(p, g_input, g_expected, &row) != k::SoftmaxStatus::kOk)
    return 2;
  if (mode == 2 &&
      k::opt::softmaxInt8ToInt8(p, g_exp_table, g_input, g_actual, &row) != k::SoftmaxStatus::kOk)
    return 2;
  return 0;
}

// A fully connected layer of one row: k inputs, n outputs. Returns 0, or 1 for a shape too
// large for the buffers.
uint32_t bench_fc(uint32_t k_in, uint32_t n, uint32_t mode) {
  if (n > kChannels || size_t(k_in) * n > kFilterBytes || k_in > kInputBytes) return 1;
  fillBench(k_in, size_t(k_in) * n, int32_t(n));
  k::FullyConnectedInt8Params p;
  p.rows = 1;
  p.k = int32_t(k_in);
  p.n = int32_t(n);
  p.input_offset = 5;
  p.output_offset = -3;
  p.multipliers = g_mult;
  p.shifts = g_shift;
  k::opt::fullyConnectedInt8FoldBias(p, g_filter, g_bias, g_folded);
  if (mode == 1) k::fullyConnectedInt8(p, g_input, g_filter, g_bias, g_expected);
  if (mode == 2) k::opt::fullyConnectedInt8(p, g_input, g_filter, g_folded, g_actual);
  return 0;
}

// A pointwise convolution over `pixels` pixels (one row) of in_c channels to out_c channels.
uint32_t bench_conv1x1(uint32_t pixels, uint32_t in_c, uint32_t out_c, uint32_t mode) {
  if (out_c > kChannels || size_t(pixels) * in_c > kInputBytes ||
      size_t(pixels) * out_c > kOutputBytes || size_t(in_c) * out_c > kFilterBytes)
    return 1;
  fillBench(size_t(pixels) * in_c, size_t(in_c) * out_c, int32_t(out_c));
  k::ConvParams p;
  k::WindowGeometry& g = p.geo;
  g.batches = g.in_h = g.out_h = 1;
  g.in_w = g.out_w = int32_t(pixels);
  g.in_c = p.filter_in_c = int32_t(in_c);
  g.out_c = p.filters_per_group = int32_t(out_c);
  g.filter_h = g.filter_w = 1;
  p.quant.input_offset = 5;
  p.quant.output_zero_point = -3;
  p.quant.bias = g_bias;
  p.quant.multipliers = g_mult;
  p.quant.shifts = g_shift;
  k::opt::convInt8PointwiseFoldBias(p, g_filter, g_folded);
  if (mode == 1) k::convInt8(p, g_input, g_filter, g_expected);
  if (mode == 2) k::opt::convInt8Pointwise(p, g_input, g_filter, g_folded, g_actual);
  return 0;
}

// A 3x3 convolution (stride 1, padding 1) over a side x side image: the im2col path.
uint32_t bench_conv3x3(uint32_t side, uint32_t in_c, uint32_t out_c, uint32_t mode) {
  k::ConvParams p;
  k::WindowGeometry& g = p.geo;
  g.batches = 1;
  g.in_h = g.in_w = g.out_h = g.out_w = int32_t(side);
  g.in_c = p.filter_in_c = int32_t(in_c);
  g.out_c = p.filters_per_group = int32_t(out_c);
  g.filter_h = g.filter_w = 3;
  g.pad_h = g.pad_w = 1;
  if (out_c > kChannels || size_t(side) * side * in_c > kInputBytes || g.outputs() > kOutputBytes ||
      size_t(9) * in_c * out_c > kFilterBytes ||
      k::opt::convInt8Im2colScratchElements(p) > sizeof(g_scratch) / sizeof(g_scratch[0]))
    return 1;
  fillBench(size_t(side) * side * in_c, size_t(9) * in_c * out_c, int32_t(out_c));
  p.quant.input_offset = 5;
  p.quant.output_zero_point = -3;
  p.quant.bias = g_bias;
  p.quant.multipliers = g_mult;
  p.quant.shifts = g_shift;
  if (mode == 1) k::convInt8(p, g_input, g_filter, g_expected);
  if (mode == 2) k::opt::convInt8Im2col(p, g_input, g_filter, g_scratch, g_actual);
  return 0;
}

// A 3x3 depthwise convolution (stride 1, padding 1, multiplier 1) over a side x side image.
uint32_t bench_dw3x3(uint32_t side, uint32_t channels, uint32_t mode) {
  k::DepthwiseConvParams p;
  k::WindowGeometry& g = p.geo;
  g.batches = 1;
  g.in_h = g.in_w = g.out_h = g.out_w = int32_t(side);
  g.in_c = g.out_c = int32_t(channels);
  g.filter_h = g.filter_w = 3;
  g.pad_h = g.pad_w = 1;
  p.depth_multiplier = 1;
  if (channels > kChannels || size_t(side) * side * channels > kInputBytes ||
      g.outputs() > kOutputBytes)
    return 1;
  fillBench(size_t(side) * side * channels, size_t(9) * channels, int32_t(channels));
  p.quant.input_offset = 5;
  p.quant.output_zero_point = -3;
  p.quant.bias = g_bias;
  p.quant.multipliers = g_mult;
  p.quant.shifts = g_shift;
  if (mode == 1) k::depthwiseConvInt8(p, g_input, g_filter, g_expected);
  if (mode == 2) k::opt::depthwiseConvInt8_3x3(p, g_input, g_filter, g_actual);
  return 0;
}

// A 2x2 pooling window at stride 2 over a side x side image (side even): MAX_POOL_2D, or
// AVERAGE_POOL_2D when `average` is 1.
uint32_t bench_pool(uint32_t side, uint32_t channels, uint32_t average, uint32_t mode) {
  k::PoolParams p;
  k::WindowGeometry& g = p.geo;
  g.batches = 1;
  g.in_h = g.in_w = int32_t(side);
  g.out_h = g.out_w = int32_t(side / 2);
  g.in_c = g.out_c = int32_t(channels);
  g.filter_h = g.filter_w = g.stride_h = g.stride_w = 2;
  p.act_min = -128;
  p.act_max = 127;
  if (channels > kChannels || size_t(side) * side * channels > kInputBytes) return 1;
  fillBench(size_t(side) * side * channels, 0, 0);
  if (mode == 1 && average) k::averagePoolInt8(p, g_input, g_acc, g_expected);
  if (mode == 1 && !average) k::maxPoolInt8(p, g_input, g_expected);
  if (mode == 2 && average) k::opt::averagePoolInt8(p, g_input, g_acc, g_actual);
  if (mode == 2 && !average) k::opt::maxPoolInt8(p, g_input, g_actual);
  return 0;
}

// Where a return from an entry stops when the caller sets the return address to it.
__attribute__((naked, noreturn)) void hs_halt(void) {
#if defined(__arm__)
  __asm__ volatile("1: bkpt #0\n b 1b");
#else
  __asm__ volatile("1: ebreak\n j 1b");
#endif
}

}  // extern "C"
