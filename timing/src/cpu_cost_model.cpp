#include "hilsim/timing/cpu_cost_model.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace hilsim::timing {
namespace {

uint64_t toCycles(double cycles) {
  return cycles <= 0.0 ? 0 : static_cast<uint64_t>(std::llround(cycles));
}

// Output positions along one axis whose whole window lies inside the input.
uint64_t windowsInside(uint32_t out, uint32_t stride, uint32_t pad, uint32_t filter,
                       uint32_t dilation, uint32_t in) {
  uint64_t count = 0;
  for (uint32_t o = 0; o < out; ++o) {
    const int64_t first = int64_t{o} * stride - pad;
    const int64_t last = first + (int64_t{filter} - 1) * dilation;
    if (first >= 0 && last < int64_t{in}) ++count;
  }
  return count;
}

// The word loads of an im2col CONV_2D's filter rows (filter f at f * K bytes) that start at an
// address not a multiple of 4, K / 4 per row read: a pair of output pixels reads each filter of
// its group's pairs once and a filter left over from them once per pixel; the last pixel of an
// odd count reads every filter once.
uint64_t im2colUnalignedWeightLoads(const ConvGeometry& g, uint32_t filter_in_c) {
  const uint64_t k = uint64_t{g.filter_h} * g.filter_w * filter_in_c;
  if (k % 4 == 0) return 0;
  const uint32_t groups = filter_in_c == 0 ? 1 : std::max(g.in_c / filter_in_c, 1u);
  const uint32_t per_group = std::max(g.out_c / groups, 1u);
  uint64_t paired = 0, single = 0;
  for (uint32_t f = 0; f < g.out_c; ++f) {
    if ((uint64_t{f} * k) % 4 == 0) continue;
    if (f % per_group < per_group / 2 * 2)
      ++paired;
    else
      ++single;
  }
  const uint64_t pairs = g.pixels() / 2, odd = g.pixels() % 2;
  return k / 4 * (pairs * (paired + 2 * single) + odd * (paired + single));
}

}  // namespace

OpWork convolutionWork(const ConvGeometry& g, uint32_t filter_in_c) {
  OpWork work;
  work.outputs = g.outputBytes();
  const uint64_t taps_checked = work.outputs * g.filter_h * g.filter_w;
  const uint64_t inside_taps = g.insideTaps() * g.out_c;
  if (g.depthwise) {
    work.macs = taps_checked;
    work.window_elements = taps_checked;
    work.window_rows = work.outputs * g.filter_h;
    work.inside_macs = inside_taps;
    const uint64_t scalar_channels = g.depth_multiplier == 1 ? g.in_c % 4 : g.out_c;
    work.scalar_macs = g.insideTaps() * scalar_channels;
    work.pixels = g.pixels();
    const bool unrolled_3x3 = g.filter_h == 3 && g.filter_w == 3 && g.dilation_h == 1 &&
                              g.dilation_w == 1 && g.depth_multiplier == 1;
    const uint64_t unrolled_pixels =
        unrolled_3x3
            ? uint64_t{g.batches} * windowsInside(g.out_h, g.stride_h, g.pad_h, 3, 1, g.in_h) *
                  windowsInside(g.out_w, g.stride_w, g.pad_w, 3, 1, g.in_w)
            : 0;
    work.general_pixels = work.pixels - unrolled_pixels;
    // Filter rows inside the input summed over the general pixels: over all pixels, less the
    // unrolled ones' three each.
    const uint64_t rows_inside =
        uint64_t{g.batches} * g.out_w *
            tapsInside(g.out_h, g.stride_h, g.pad_h, g.filter_h, g.dilation_h, g.in_h) -
        3 * unrolled_pixels;
    const uint64_t quads = g.depth_multiplier == 1 ? g.in_c / 4 : 0;
    work.quad_pixels = quads > 0 ? work.pixels : 0;
    work.filter_taps = g.filter_h * g.filter_w;
    work.filter_channels = g.out_c;
    work.general_quads = quads * work.general_pixels;
    work.general_quad_rows = quads * rows_inside;
    work.general_scalar_channels = scalar_channels * work.general_pixels;
    work.general_scalar_rows = scalar_channels * rows_inside;
  } else {
    work.macs = taps_checked * filter_in_c;
    work.window_elements = inside_taps;
    work.inside_macs = inside_taps * filter_in_c;
    work.pixel_taps = g.pixels() * g.filter_h * g.filter_w;
    work.patch_elements = work.pixel_taps * filter_in_c;
    work.pointwise = g.filter_h == 1 && g.filter_w == 1;
    if (!work.pointwise) {
      const uint64_t k = uint64_t{g.filter_h} * g.filter_w * filter_in_c;
      work.tail_macs = g.pixels() * g.out_c * (k % 4);
      work.unaligned_loads = im2colUnalignedWeightLoads(g, filter_in_c);
    }
  }
  return work;
}

uint64_t fullyConnectedWeightReads(uint32_t rows, uint64_t padded_k, uint32_t n) {
  return (uint64_t{rows} + 1) / 2 * padded_k * n;
}

uint64_t fullyConnectedTailMacs(uint32_t rows, uint64_t padded_k, uint32_t n) {
  return (uint64_t{rows} / 2 * 2 * (n % 2) + uint64_t{rows % 2} * (n % 4)) * padded_k;
}

uint8_t fullyConnectedPaths(uint32_t rows, uint32_t n) {
  uint8_t paths = 0;
  if (rows >= 2 && n >= 2) paths |= kFcPairPath;
  if (rows >= 2 && n % 2 != 0) paths |= kFcPairTailPath;
  if (rows % 2 != 0 && n >= 4) paths |= kFcQuadPath;
  if (rows % 2 != 0 && n % 4 != 0) paths |= kFcSingleTailPath;
  return paths;
}

namespace {

// Rows r < n of a K-wide array that start at an address not a multiple of 4 (r * K mod 4 != 0).
uint64_t unalignedRows(uint64_t n, uint32_t k) {
  if (k % 4 == 0) return 0;
  if (k % 2 == 0) return n / 2;  // the odd rows
  return n - (n + 3) / 4;        // all but every fourth
}

}  // namespace

LstmGateLoads lstmGateLoads(uint32_t time_steps, uint32_t batches, uint32_t input_size,
                            uint32_t cells) {
  constexpr uint64_t kGates = 4;
  const uint64_t rows = uint64_t{time_steps} * batches;  // input rows: one per row-step
  const uint64_t input_words = input_size / 4, cell_words = cells / 4;
  // Per row-step each cell's weight rows are read once, the input (hidden) row once per pass of
  // four cells or one tail cell.
  const uint64_t passes = cells / 4 + cells % 4;
  const uint64_t weights = rows * (unalignedRows(cells, input_size) * input_words +
                                   unalignedRows(cells, cells) * cell_words);
  const uint64_t activations = passes * (unalignedRows(rows, input_size) * input_words +
                                         time_steps * unalignedRows(batches, cells) * cell_words);
  LstmGateLoads g;
  g.unaligned_loads = kGates * (weights + activations);
  g.tail_macs = kGates * rows * cells * (input_size % 4 + cells % 4);
  return g;
}

uint64_t depthwiseFilterMisses(const OpWork& work, const WeightCache& cache,
                               KernelLibrary kernels) {
  const uint64_t taps = work.filter_taps, channels = work.filter_channels;
  if (cache.lines == 0 || cache.line_bytes == 0 || taps == 0 || channels == 0) return 0;
  const uint64_t ways = std::max<uint32_t>(cache.ways, 1);
  const uint64_t sets = std::max<uint64_t>(cache.lines / ways, 1);
  const uint64_t filter_lines = (taps * channels + cache.line_bytes - 1) / cache.line_bytes;
  const auto filterLinesIn = [&](uint64_t set) {
    return filter_lines / sets + (set < filter_lines % sets ? 1 : 0);
  };
  if (filterLinesIn(0) <= ways) return 0;  // the whole filter stays cached
  const auto lineOf = [&](uint64_t tap, uint64_t channel) {
    return (tap * channels + channel) / cache.line_bytes;
  };
  // The first channel of each walk: every channel, or four at a time and then the rest.
  const uint64_t grouped =
      kernels == KernelLibrary::kOptimized && work.quad_pixels > 0 ? channels / 4 * 4 : 0;
  std::vector<uint64_t> walk(sets);
  std::vector<bool> once(filter_lines, false);
  std::vector<uint64_t> loads;  // the lines one walk loads, in order
  loads.reserve(taps);
  uint64_t per_pixel = 0;
  for (uint64_t c = 0; c < channels; c += c < grouped ? 4 : 1) {
    // The lines of this channel's walk, and how many fall in each set (consecutive taps in one
    // line load it once).
    std::fill(walk.begin(), walk.end(), 0);
    loads.clear();
    for (uint64_t t = 0; t < taps; ++t) {
      const uint64_t line = lineOf(t, c);
      if (!loads.empty() && line == loads.back()) continue;
      loads.push_back(line);
      ++walk[line % sets];
    }
    for (const uint64_t line : loads) {
      const uint64_t set = line % sets;
      if (walk[set] > ways)
        ++per_pixel;  // the walk evicts the line before it comes round again
      else if (filterLinesIn(set) > ways)
        once[line] = true;  // kept through the channels sharing it, gone by the next pixel
    }
  }
  per_pixel += uint64_t(std::count(once.begin(), once.end(), true));
  // inside MACs / (taps x channels): the pixels, weighted by the share of their taps inside.
  return (per_pixel * work.inside_macs + taps * channels / 2) / (taps * channels);
}

double CpuCoefficients::*firstCallCoefficient(tflite::BuiltinOperator op, const OpWork& work) {
  using Op = tflite::BuiltinOperator;
  switch (op) {
    case Op::FULLY_CONNECTED:
      return work.float_input ? &CpuCoefficients::fc_float_first_call
                              : &CpuCoefficients::fc_first_call;
    case Op::CONV_2D:
      return &CpuCoefficients::conv_first_call;
    case Op::DEPTHWISE_CONV_2D:
      return &CpuCoefficients::dwconv_first_call;
    case Op::SVDF:
      return &CpuCoefficients::svdf_first_call;
    case Op::UNIDIRECTIONAL_SEQUENCE_LSTM:
      return &CpuCoefficients::lstm_first_call;
    case Op::RESHAPE:
      return &CpuCoefficients::reshape_first_call;
    default:
      return &CpuCoefficients::op_first_call;
  }
}

uint64_t CpuCostModel::firstCallCycles(tflite::BuiltinOperator op, const OpWork& work) const {
  return toCycles(c_.*firstCallCoefficient(op, work));
}

uint64_t CpuCostModel::newPathCycles(const OpWork& work, uint8_t earlier_paths) const {
  const int paths = __builtin_popcount(unsigned(work.fc_paths & ~earlier_paths));
  return toCycles(c_.fc_path_first_call * paths);
}

CpuCostModel::CpuCostModel() : c_(cpuPreset("cortex-m55", KernelLibrary::kReference)) {}

uint64_t CpuCostModel::fullyConnectedCycles(uint32_t rows, uint32_t k, uint32_t n) const {
  const uint64_t multiple = c_.reduction_multiple ? c_.reduction_multiple : 1;
  const uint64_t padded_k = (uint64_t{k} + multiple - 1) / multiple * multiple;
  const double macs = static_cast<double>(uint64_t{rows} * padded_k * n);
  const double outputs = static_cast<double>(uint64_t{rows} * n);
  const double weight_reads = static_cast<double>(fullyConnectedWeightReads(rows, padded_k, n));
  const double tail_macs = static_cast<double>(fullyConnectedTailMacs(rows, padded_k, n));
  return toCycles((c_.fc_per_mac * macs + c_.fc_per_weight_read * weight_reads +
                   c_.fc_per_tail_mac * tail_macs) *
                      c_.weight_memory_factor +
                  c_.fc_per_output * outputs + c_.fc_per_call);
}

uint64_t CpuCostModel::cycles(tflite::BuiltinOperator op, const OpWork& w) const {
  using Op = tflite::BuiltinOperator;
  const auto d = [](uint64_t v) { return static_cast<double>(v); };
  switch (op) {
    case Op::FULLY_CONNECTED:
      if (w.float_input) {
        const uint64_t macs = uint64_t{w.gemm_rows} * w.gemm_k * w.gemm_n;
        const uint64_t zero = std::min(w.zero_operand_macs, macs);
        return toCycles(
            (c_.fc_float_per_mac * d(macs - zero) + c_.fc_float_per_zero_mac * d(zero)) *
                c_.weight_memory_factor +
            c_.fc_float_per_output * d(uint64_t{w.gemm_rows} * w.gemm_n) + c_.fc_float_per_call);
      }
      return fullyConnectedCycles(w.gemm_rows, w.gemm_k, w.gemm_n);
    case Op::CONV_2D: {
      double cycles = (w.pointwise ? c_.conv1x1_per_mac : c_.conv_per_mac) * d(w.inside_macs) +
                      c_.conv_per_tap * d(w.window_elements) + c_.conv_per_output * d(w.outputs) +
                      c_.conv_per_call;
      if (!w.pointwise)
        cycles += c_.conv_per_padded_mac * d(w.macs - std::min(w.macs, w.inside_macs)) +
                  c_.conv_per_patch_element * d(w.patch_elements) +
                  c_.conv_per_pixel_tap * d(w.pixel_taps) + c_.conv_per_tail_mac * d(w.tail_macs) +
                  c_.conv_per_unaligned_load * d(w.unaligned_loads);
      return toCycles(cycles);
    }
    case Op::DEPTHWISE_CONV_2D:
      return toCycles(
          c_.dwconv_per_mac * d(w.inside_macs) + c_.dwconv_per_tap * d(w.window_elements) +
          c_.dwconv_per_row * d(w.window_rows) + c_.dwconv_per_output * d(w.outputs) +
          c_.dwconv_per_scalar_mac * d(w.scalar_macs) + c_.dwconv_per_pixel * d(w.pixels) +
          c_.dwconv_per_general_pixel * d(w.general_pixels) +
          c_.dwconv_per_quad * d(w.general_quads) +
          c_.dwconv_per_quad_row * d(w.general_quad_rows) +
          c_.dwconv_per_scalar_channel * d(w.general_scalar_channels) +
          c_.dwconv_per_scalar_row * d(w.general_scalar_rows) +
          c_.dwconv_per_quad_pixel * d(w.quad_pixels) +
          c_.dwconv_per_filter_miss * d(depthwiseFilterMisses(w, c_.weight_cache, c_.kernels)) +
          c_.dwconv_per_call);
    case Op::AVERAGE_POOL_2D:
      return toCycles(c_.pool_per_element * d(w.window_elements) +
                      c_.pool_per_output * d(w.outputs) + c_.pool_per_row * d(w.window_rows) +
                      c_.pool_per_call);
    case Op::SOFTMAX:
      return toCycles(c_.softmax_per_element * d(w.elements) + c_.softmax_per_call);
    case Op::QUANTIZE:
      return toCycles((w.float_input ? c_.quantize_float_per_element : c_.quantize_per_element) *
                          d(w.elements) +
                      c_.op_per_call);
    case Op::DEQUANTIZE:
      return toCycles(c_.dequantize_per_element * d(w.elements) + c_.op_per_call);
    case Op::RESHAPE:
      return toCycles(c_.reshape_per_byte * d(w.elements) + c_.reshape_per_call);
    case Op::SVDF:
      return toCycles((c_.svdf_per_feature_mac * d(w.macs - w.time_macs) +
                       c_.svdf_per_time_mac * d(w.time_macs)) *
                          c_.weight_memory_factor +
                      c_.svdf_state_per_byte * d(w.state_bytes) +
                      c_.svdf_per_filter * d(w.filters) + c_.svdf_per_unit * d(w.outputs) +
                      c_.svdf_per_call);
    case Op::MAX_POOL_2D:
      return toCycles(c_.maxpool_per_element * d(w.window_elements) +
                      c_.maxpool_per_output * d(w.outputs) + c_.maxpool_per_row * d(w.window_rows) +
                      c_.maxpool_per_call);
    case Op::ADD:
    case Op::SUB:
      return toCycles(c_.add_per_element * d(w.elements) + c_.add_per_call);
    case Op::MUL:
      return toCycles(c_.mul_per_element * d(w.elements) + c_.mul_per_call);
    case Op::MAXIMUM:
    case Op::MINIMUM:
      return toCycles(c_.minmax_per_element * d(w.elements) + c_.op_per_call);
    case Op::LOGISTIC:
    case Op::TANH:
      return toCycles(c_.activation_per_element * d(w.elements) + c_.op_per_call);
    case Op::HARD_SWISH:
      return toCycles(c_.hard_swish_per_element * d(w.elements) + c_.op_per_call);
    case Op::CONCATENATION:
    case Op::PAD:
    case Op::PADV2:
    case Op::TRANSPOSE:
    case Op::STRIDED_SLICE:
    case Op::SQUEEZE:
      return toCycles(c_.copy_per_element * d(w.elements) + c_.op_per_call);
    case Op::MEAN:
      return toCycles(c_.mean_per_element * d(w.elements) + c_.quantize_per_element * d(w.outputs) +
                      c_.op_per_call);
    case Op::UNIDIRECTIONAL_SEQUENCE_LSTM:
      return toCycles((c_.lstm_per_mac * d(w.macs - std::min(w.macs, w.recurrent_macs)) +
                       c_.lstm_per_recurrent_mac * d(w.recurrent_macs)) *
                          c_.weight_memory_factor +
                      c_.lstm_per_unaligned_load * d(w.unaligned_loads) +
                      c_.lstm_per_tail_mac * d(w.tail_macs) +
                      c_.lstm_cell_per_element * d(w.elements) + c_.lstm_per_step * d(w.steps) +
                      c_.lstm_per_call);
    default:
      return toCycles(c_.quantize_per_element * d(w.elements) + c_.op_per_call);
  }
}

}  // namespace hilsim::timing
