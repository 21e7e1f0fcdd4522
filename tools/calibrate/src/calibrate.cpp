#include "hilsim/calibrate/calibrate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

#include "hilsim/calibrate/one_op_models.h"
#include "hilsim/errors.h"
#include "hilsim/iss/core_model.h"
#include "hilsim/rt/interpreter.h"
#include "hilsim/sim/run.h"

namespace hilsim::calibrate {
namespace {

using Op = tflite::BuiltinOperator;
using timing::CpuCoefficients;
using timing::OpWork;

// Solves a (small, symmetric positive definite) system by Gaussian elimination with pivoting;
// returns false when it is singular.
bool solve(std::vector<std::vector<double>> a, std::vector<double> b, std::vector<double>* x) {
  const size_t n = b.size();
  for (size_t c = 0; c < n; ++c) {
    size_t pivot = c;
    for (size_t r = c + 1; r < n; ++r)
      if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
    if (std::abs(a[pivot][c]) < 1e-12) return false;
    std::swap(a[c], a[pivot]);
    std::swap(b[c], b[pivot]);
    for (size_t r = c + 1; r < n; ++r) {
      const double f = a[r][c] / a[c][c];
      for (size_t k = c; k < n; ++k) a[r][k] -= f * a[c][k];
      b[r] -= f * b[c];
    }
  }
  x->assign(n, 0.0);
  for (size_t c = n; c-- > 0;) {
    double s = b[c];
    for (size_t k = c + 1; k < n; ++k) s -= a[c][k] * (*x)[k];
    (*x)[c] = s / a[c][c];
  }
  return true;
}

// One term of an operator's formula: the coefficient it multiplies and its regressor.
struct Term {
  double CpuCoefficients::*coefficient;
  const char* name;
  std::function<double(const OpWork&, const CpuCoefficients&)> regressor;
  // Fitted for the optimized library only: a cost the reference kernels do not have (they keep
  // the preset's 0).
  bool optimized_only = false;
};

double insideMacsTerm(const OpWork& w, const CpuCoefficients&) {
  return double(w.inside_macs);
}
double outputsTerm(const OpWork& w, const CpuCoefficients&) {
  return double(w.outputs);
}
double elementsTerm(const OpWork& w, const CpuCoefficients&) {
  return double(w.elements);
}
double tapsTerm(const OpWork& w, const CpuCoefficients&) {
  return double(w.window_elements);
}
double windowRowsTerm(const OpWork& w, const CpuCoefficients&) {
  return double(w.window_rows);
}
double one(const OpWork&, const CpuCoefficients&) {
  return 1.0;
}
// Every term of the group applies to every operator in it.
bool everyTerm(Op, const OpWork&, size_t) {
  return true;
}

// A group of operators fitted together: the terms of their formulas (hilsim/timing/
// cpu_cost_model.h) and, per operator, which terms apply. Operators sharing op_per_call are one
// group so that the shared coefficient gets one value.
struct Group {
  std::vector<Op> ops;
  std::vector<Term> terms;
  std::function<bool(Op, const OpWork&, size_t term)> applies;
};

// An int8 FULLY_CONNECTED's K padded to the coefficients' reduction_multiple.
uint64_t paddedK(const OpWork& w, const CpuCoefficients& c) {
  const uint64_t m = c.reduction_multiple ? c.reduction_multiple : 1;
  return (uint64_t{w.gemm_k} + m - 1) / m * m;
}

std::vector<Group> groups() {
  std::vector<Group> out;
  out.push_back({{Op::FULLY_CONNECTED},
                 {{&CpuCoefficients::fc_per_mac, "fc_per_mac",
                   [](const OpWork& w, const CpuCoefficients& c) {
                     const uint64_t k = paddedK(w, c);
                     return c.weight_memory_factor * double(uint64_t{w.gemm_rows} * k * w.gemm_n);
                   }},
                  {&CpuCoefficients::fc_per_weight_read, "fc_per_weight_read",
                   [](const OpWork& w, const CpuCoefficients& c) {
                     const uint64_t k = paddedK(w, c);
                     return c.weight_memory_factor *
                            double(timing::fullyConnectedWeightReads(w.gemm_rows, k, w.gemm_n));
                   },
                   true},
                  {&CpuCoefficients::fc_per_tail_mac, "fc_per_tail_mac",
                   [](const OpWork& w, const CpuCoefficients& c) {
                     const uint64_t k = paddedK(w, c);
                     return c.weight_memory_factor *
                            double(timing::fullyConnectedTailMacs(w.gemm_rows, k, w.gemm_n));
                   },
                   true},
                  {&CpuCoefficients::fc_per_output, "fc_per_output",
                   [](const OpWork& w, const CpuCoefficients&) {
                     return double(uint64_t{w.gemm_rows} * w.gemm_n);
                   }},
                  {&CpuCoefficients::fc_per_call, "fc_per_call", one},
                  {&CpuCoefficients::fc_float_per_mac, "fc_float_per_mac",
                   [](const OpWork& w, const CpuCoefficients& c) {
                     return c.weight_memory_factor *
                            double(uint64_t{w.gemm_rows} * w.gemm_k * w.gemm_n -
                                   w.zero_operand_macs);
                   }},
                  {&CpuCoefficients::fc_float_per_zero_mac, "fc_float_per_zero_mac",
                   [](const OpWork& w, const CpuCoefficients& c) {
                     return c.weight_memory_factor * double(w.zero_operand_macs);
                   }},
                  {&CpuCoefficients::fc_float_per_output, "fc_float_per_output",
                   [](const OpWork& w, const CpuCoefficients&) {
                     return double(uint64_t{w.gemm_rows} * w.gemm_n);
                   }},
                  {&CpuCoefficients::fc_float_per_call, "fc_float_per_call", one}},
                 // int8 and float32 layers share no term: two independent fits.
                 [](Op, const OpWork& w, size_t term) { return (term >= 5) == w.float_input; }});
  out.push_back({{Op::SVDF},
                 {{&CpuCoefficients::svdf_per_feature_mac, "svdf_per_feature_mac",
                   [](const OpWork& w, const CpuCoefficients& c) {
                     return c.weight_memory_factor * double(w.macs - w.time_macs);
                   }},
                  {&CpuCoefficients::svdf_per_time_mac, "svdf_per_time_mac",
                   [](const OpWork& w, const CpuCoefficients& c) {
                     return c.weight_memory_factor * double(w.time_macs);
                   }},
                  {&CpuCoefficients::svdf_state_per_byte, "svdf_state_per_byte",
                   [](const OpWork& w, const CpuCoefficients&) { return double(w.state_bytes); }},
                  {&CpuCoefficients::svdf_per_filter, "svdf_per_filter",
                   [](const OpWork& w, const CpuCoefficients&) { return double(w.filters); }},
                  {&CpuCoefficients::svdf_per_unit, "svdf_per_unit", outputsTerm},
                  {&CpuCoefficients::svdf_per_call, "svdf_per_call", one}},
                 everyTerm});
  out.push_back(
      {{Op::CONV_2D},
       {{&CpuCoefficients::conv1x1_per_mac, "conv1x1_per_mac", insideMacsTerm},
        {&CpuCoefficients::conv_per_mac, "conv_per_mac", insideMacsTerm},
        {&CpuCoefficients::conv_per_tap, "conv_per_tap", tapsTerm},
        {&CpuCoefficients::conv_per_output, "conv_per_output", outputsTerm},
        {&CpuCoefficients::conv_per_call, "conv_per_call", one},
        {&CpuCoefficients::conv_per_padded_mac, "conv_per_padded_mac",
         [](const OpWork& w, const CpuCoefficients&) {
           return double(w.macs - std::min(w.macs, w.inside_macs));
         },
         true},
        {&CpuCoefficients::conv_per_patch_element, "conv_per_patch_element",
         [](const OpWork& w, const CpuCoefficients&) { return double(w.patch_elements); }, true},
        {&CpuCoefficients::conv_per_pixel_tap, "conv_per_pixel_tap",
         [](const OpWork& w, const CpuCoefficients&) { return double(w.pixel_taps); }, true},
        {&CpuCoefficients::conv_per_tail_mac, "conv_per_tail_mac",
         [](const OpWork& w, const CpuCoefficients&) { return double(w.tail_macs); }, true},
        {&CpuCoefficients::conv_per_unaligned_load, "conv_per_unaligned_load",
         [](const OpWork& w, const CpuCoefficients&) { return double(w.unaligned_loads); }, true}},
       [](Op, const OpWork& w, size_t term) {
         if (term == 0) return w.pointwise;
         if (term == 1 || term >= 5) return !w.pointwise;
         return true;
       }});
  out.push_back(
      {{Op::DEPTHWISE_CONV_2D},
       {{&CpuCoefficients::dwconv_per_mac, "dwconv_per_mac", insideMacsTerm},
        {&CpuCoefficients::dwconv_per_tap, "dwconv_per_tap", tapsTerm},
        {&CpuCoefficients::dwconv_per_row, "dwconv_per_row",
         [](const OpWork& w, const CpuCoefficients&) { return double(w.window_rows); }},
        {&CpuCoefficients::dwconv_per_output, "dwconv_per_output", outputsTerm},
        {&CpuCoefficients::dwconv_per_call, "dwconv_per_call", one},
        {&CpuCoefficients::dwconv_per_scalar_mac, "dwconv_per_scalar_mac",
         [](const OpWork& w, const CpuCoefficients&) { return double(w.scalar_macs); }, true},
        {&CpuCoefficients::dwconv_per_pixel, "dwconv_per_pixel",
         [](const OpWork& w, const CpuCoefficients&) { return double(w.pixels); }, true},
        {&CpuCoefficients::dwconv_per_general_pixel, "dwconv_per_general_pixel",
         [](const OpWork& w, const CpuCoefficients&) { return double(w.general_pixels); }, true},
        {&CpuCoefficients::dwconv_per_quad_pixel, "dwconv_per_quad_pixel",
         [](const OpWork& w, const CpuCoefficients&) { return double(w.quad_pixels); }, true},
        {&CpuCoefficients::dwconv_per_filter_miss, "dwconv_per_filter_miss",
         [](const OpWork& w, const CpuCoefficients& c) {
           return double(timing::depthwiseFilterMisses(w, c.weight_cache, c.kernels));
         }},
        {&CpuCoefficients::dwconv_per_quad, "dwconv_per_quad",
         [](const OpWork& w, const CpuCoefficients&) { return double(w.general_quads); }, true},
        {&CpuCoefficients::dwconv_per_quad_row, "dwconv_per_quad_row",
         [](const OpWork& w, const CpuCoefficients&) { return double(w.general_quad_rows); }, true},
        {&CpuCoefficients::dwconv_per_scalar_channel, "dwconv_per_scalar_channel",
         [](const OpWork& w, const CpuCoefficients&) { return double(w.general_scalar_channels); },
         true},
        {&CpuCoefficients::dwconv_per_scalar_row, "dwconv_per_scalar_row",
         [](const OpWork& w, const CpuCoefficients&) { return double(w.general_scalar_rows); },
         true}},
       everyTerm});
  // Pooling, SOFTMAX, ADD and MUL: per element (window element) and per call, each its own.
  out.push_back({{Op::AVERAGE_POOL_2D},
                 {{&CpuCoefficients::pool_per_element, "pool_per_element", tapsTerm},
                  {&CpuCoefficients::pool_per_output, "pool_per_output", outputsTerm},
                  {&CpuCoefficients::pool_per_call, "pool_per_call", one},
                  {&CpuCoefficients::pool_per_row, "pool_per_row", windowRowsTerm, true}},
                 everyTerm});
  out.push_back({{Op::MAX_POOL_2D},
                 {{&CpuCoefficients::maxpool_per_element, "maxpool_per_element", tapsTerm},
                  {&CpuCoefficients::maxpool_per_output, "maxpool_per_output", outputsTerm},
                  {&CpuCoefficients::maxpool_per_call, "maxpool_per_call", one},
                  {&CpuCoefficients::maxpool_per_row, "maxpool_per_row", windowRowsTerm, true}},
                 everyTerm});
  out.push_back({{Op::SOFTMAX},
                 {{&CpuCoefficients::softmax_per_element, "softmax_per_element", elementsTerm},
                  {&CpuCoefficients::softmax_per_call, "softmax_per_call", one}},
                 everyTerm});
  out.push_back({{Op::ADD},
                 {{&CpuCoefficients::add_per_element, "add_per_element", elementsTerm},
                  {&CpuCoefficients::add_per_call, "add_per_call", one}},
                 everyTerm});
  out.push_back({{Op::MUL},
                 {{&CpuCoefficients::mul_per_element, "mul_per_element", elementsTerm},
                  {&CpuCoefficients::mul_per_call, "mul_per_call", one}},
                 everyTerm});
  // QUANTIZE, DEQUANTIZE, LOGISTIC and TANH: a per-element coefficient each and the shared
  // op_per_call.
  out.push_back(
      {{Op::QUANTIZE, Op::DEQUANTIZE, Op::LOGISTIC, Op::TANH},
       {{&CpuCoefficients::quantize_per_element, "quantize_per_element", elementsTerm},
        {&CpuCoefficients::quantize_float_per_element, "quantize_float_per_element", elementsTerm},
        {&CpuCoefficients::dequantize_per_element, "dequantize_per_element", elementsTerm},
        {&CpuCoefficients::activation_per_element, "activation_per_element", elementsTerm},
        {&CpuCoefficients::op_per_call, "op_per_call", one}},
       [](Op op, const OpWork& w, size_t term) {
         switch (term) {
           case 0:
             return op == Op::QUANTIZE && !w.float_input;
           case 1:
             return op == Op::QUANTIZE && w.float_input;
           case 2:
             return op == Op::DEQUANTIZE;
           case 3:
             return op == Op::LOGISTIC || op == Op::TANH;
           default:
             return true;
         }
       }});
  out.push_back(
      {{Op::UNIDIRECTIONAL_SEQUENCE_LSTM},
       {{&CpuCoefficients::lstm_per_mac, "lstm_per_mac",
         [](const OpWork& w, const CpuCoefficients& c) {
           return c.weight_memory_factor * double(w.macs - w.recurrent_macs);
         }},
        {&CpuCoefficients::lstm_per_recurrent_mac, "lstm_per_recurrent_mac",
         [](const OpWork& w, const CpuCoefficients& c) {
           return c.weight_memory_factor * double(w.recurrent_macs);
         }},
        {&CpuCoefficients::lstm_per_unaligned_load, "lstm_per_unaligned_load",
         [](const OpWork& w, const CpuCoefficients&) { return double(w.unaligned_loads); }, true},
        {&CpuCoefficients::lstm_per_tail_mac, "lstm_per_tail_mac",
         [](const OpWork& w, const CpuCoefficients&) { return double(w.tail_macs); }, true},
        {&CpuCoefficients::lstm_cell_per_element, "lstm_cell_per_element", elementsTerm},
        {&CpuCoefficients::lstm_per_step, "lstm_per_step",
         [](const OpWork& w, const CpuCoefficients&) { return double(w.steps); }},
        {&CpuCoefficients::lstm_per_call, "lstm_per_call", one}},
       everyTerm});
  out.push_back({{Op::RESHAPE},
                 {{&CpuCoefficients::reshape_per_byte, "reshape_per_byte", elementsTerm},
                  {&CpuCoefficients::reshape_per_call, "reshape_per_call", one}},
                 everyTerm});
  return out;
}

// Measures every calibration shape: its work from the kernels' prepare (and the zero operands
// counted on the data it ran on) and its executed cycles.
std::vector<Sample> measure(const config::HardwareConfig& config,
                            const ProgressCallback& progress) {
  std::vector<Sample> samples;
  const rt::OpResolver resolver = rt::referenceOpResolver();
  const std::vector<OneOpModel>& shapes = calibrationShapes();
  const bool optimized = config.cpu.kernels == timing::KernelLibrary::kOptimized;
  size_t done = 0;
  for (const OneOpModel& shape : shapes) {
    // Only the optimized kernels have code paths a shape may run for the first time.
    ++done;
    if (shape.new_paths && !optimized) {
      if (progress) progress(done, shapes.size());
      continue;
    }
    Sample s;
    s.op = shape.op;
    s.label = shape.label;
    uint8_t earlier_paths = 0;  // the feeding layer's (new_paths)
    {
      rt::Model model = rt::Model::fromBytes(shape.bytes, shape.label);
      rt::Interpreter interp(model, resolver);
      interp.allocate();
      s.work = interp.work().at(shape.layer);
      earlier_paths = interp.work().at(0).fc_paths;
    }
    rt::Model model = rt::Model::fromBytes(shape.bytes, shape.label);
    sim::RunSpec spec;
    spec.mode = sim::Mode::kRef;
    spec.config = config;
    spec.config_source = "calibrate";
    const sim::RunResult result = sim::runModel(model, spec);
    const std::vector<rt::LayerRecord>& layers = result.report.layers;
    if (layers.size() != shape.warm_layer + 1 ||
        layers[shape.layer].ref_cycles_source != rt::RefCyclesSource::kExecuted ||
        layers[shape.warm_layer].ref_cycles_source != rt::RefCyclesSource::kExecuted)
      throw SimulationError("calibrate: " + shape.label +
                            ": the instruction-set simulator did not report the layer's cycles");
    s.cycles = layers[shape.warm_layer].ref_cycles;
    const int64_t first_call_extra =
        int64_t(layers[shape.layer].ref_cycles) - int64_t(layers[shape.warm_layer].ref_cycles);
    if (shape.layer == 0) s.first_call_cycles = first_call_extra;
    if (shape.new_paths) {
      const int paths = __builtin_popcount(unsigned(s.work.fc_paths & ~earlier_paths));
      if (paths == 0)
        throw SimulationError("calibrate: " + shape.label + ": runs no code path of its own");
      s.new_path_cycles = double(first_call_extra) / paths;
    }
    s.work.zero_operand_macs = layers[shape.warm_layer].zero_operand_macs;
    s.flash = layers[shape.warm_layer].flash;
    samples.push_back(std::move(s));
    if (progress) progress(done, shapes.size());
  }
  return samples;
}

void fitGroup(const Group& group, const std::vector<Sample>& samples, Calibration* cal) {
  std::vector<std::vector<double>> rows;
  std::vector<double> y;
  std::vector<bool> used(group.terms.size(), false);
  for (const Sample& s : samples) {
    if (std::find(group.ops.begin(), group.ops.end(), s.op) == group.ops.end() || s.new_path_cycles)
      continue;
    std::vector<double> row;
    for (size_t t = 0; t < group.terms.size(); ++t) {
      const bool optimized = cal->cpu.kernels == timing::KernelLibrary::kOptimized;
      const bool applies =
          group.applies(s.op, s.work, t) && (!group.terms[t].optimized_only || optimized);
      row.push_back(applies ? group.terms[t].regressor(s.work, cal->coefficients) : 0.0);
      if (applies && row.back() != 0.0) used[t] = true;
    }
    rows.push_back(std::move(row));
    y.push_back(double(std::max<uint64_t>(s.cycles, 1)));
  }
  if (rows.empty()) return;
  const std::vector<double> x = fitNonNegative(rows, y);
  for (size_t t = 0; t < group.terms.size(); ++t) {
    if (!used[t]) continue;  // the shapes do not exercise it: keep the preset's value
    cal->coefficients.*(group.terms[t].coefficient) = x[t];
    cal->fitted.push_back(group.terms[t].name);
  }
}

// The first-call coefficients (timing::firstCallCoefficient) by name.
const std::vector<std::pair<double CpuCoefficients::*, const char*>>& firstCallTerms() {
  static const std::vector<std::pair<double CpuCoefficients::*, const char*>> terms = {
      {&CpuCoefficients::fc_first_call, "fc_first_call"},
      {&CpuCoefficients::fc_float_first_call, "fc_float_first_call"},
      {&CpuCoefficients::conv_first_call, "conv_first_call"},
      {&CpuCoefficients::dwconv_first_call, "dwconv_first_call"},
      {&CpuCoefficients::svdf_first_call, "svdf_first_call"},
      {&CpuCoefficients::lstm_first_call, "lstm_first_call"},
      {&CpuCoefficients::reshape_first_call, "reshape_first_call"},
      {&CpuCoefficients::op_first_call, "op_first_call"}};
  return terms;
}

// Each first-call coefficient: the mean extra cycles of the first calls of the operators it
// prices (never below 0).
void fitFirstCalls(const std::vector<Sample>& samples, Calibration* cal) {
  for (const auto& [coefficient, name] : firstCallTerms()) {
    double sum = 0.0;
    size_t count = 0;
    for (const Sample& s : samples) {
      if (!s.first_call_cycles || timing::firstCallCoefficient(s.op, s.work) != coefficient)
        continue;
      sum += double(*s.first_call_cycles);
      ++count;
    }
    if (count == 0) continue;
    cal->coefficients.*coefficient = std::max(0.0, sum / double(count));
    cal->fitted.push_back(name);
  }
  // fc_path_first_call: the mean cost of a code path's first run (optimized library only).
  double sum = 0.0;
  size_t count = 0;
  for (const Sample& s : samples) {
    if (!s.new_path_cycles) continue;
    sum += *s.new_path_cycles;
    ++count;
  }
  if (count == 0) return;
  cal->coefficients.fc_path_first_call = std::max(0.0, sum / double(count));
  cal->fitted.push_back("fc_path_first_call");
}

}  // namespace

std::vector<double> fitNonNegative(const std::vector<std::vector<double>>& rows,
                                   const std::vector<double>& y) {
  const size_t n = rows.empty() ? 0 : rows[0].size();
  std::vector<bool> active(n, true);
  // Columns scaled to unit mean magnitude keep the normal equations well conditioned.
  std::vector<double> scale(n, 0.0);
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t j = 0; j < n; ++j) scale[j] += std::abs(rows[i][j] / y[i]);
  for (size_t j = 0; j < n; ++j) {
    if (scale[j] == 0.0) active[j] = false;
    scale[j] = scale[j] > 0.0 ? scale[j] / double(rows.size()) : 1.0;
  }
  for (;;) {
    std::vector<size_t> cols;
    for (size_t j = 0; j < n; ++j)
      if (active[j]) cols.push_back(j);
    std::vector<double> out(n, 0.0);
    if (cols.empty()) return out;
    std::vector<std::vector<double>> ata(cols.size(), std::vector<double>(cols.size(), 0.0));
    std::vector<double> atb(cols.size(), 0.0);
    for (size_t i = 0; i < rows.size(); ++i) {
      for (size_t a = 0; a < cols.size(); ++a) {
        const double va = rows[i][cols[a]] / y[i] / scale[cols[a]];
        atb[a] += va;  // y[i] / y[i]
        for (size_t b = 0; b < cols.size(); ++b)
          ata[a][b] += va * rows[i][cols[b]] / y[i] / scale[cols[b]];
      }
    }
    std::vector<double> x;
    size_t drop = cols.size();
    if (solve(ata, atb, &x)) {
      for (size_t a = 0; a < cols.size(); ++a)
        if (x[a] < 0.0 && (drop == cols.size() || x[a] < x[drop])) drop = a;
      if (drop == cols.size()) {
        for (size_t a = 0; a < cols.size(); ++a) out[cols[a]] = x[a] / scale[cols[a]];
        return out;
      }
    } else {
      drop = cols.size() - 1;  // singular: give up the last term (the per-call constant)
    }
    active[cols[drop]] = false;
  }
}

Calibration calibrate(const config::HardwareConfig& given, const ProgressCallback& progress) {
  if (!iss::coreForPreset(given.cpu.preset)) {
    std::string with_iss;
    for (const std::string& p : iss::issPresetNames())
      with_iss += (with_iss.empty() ? "" : ", ") + p;
    throw UsageError("calibrate: cpu.preset '" + given.cpu.preset +
                     "' has no instruction-set simulator (presets with one: " + with_iss + ")");
  }
  config::HardwareConfig config = given;
  config.cpu.model = config::CpuModel::kIss;

  Calibration cal;
  cal.cpu = config.cpu;
  cal.coefficients = config.cpu.coefficients;
  cal.samples = measure(config, progress);
  for (const Group& g : groups()) fitGroup(g, cal.samples, &cal);
  fitFirstCalls(cal.samples, &cal);

  const timing::CpuCostModel model(cal.coefficients);
  std::map<Op, OpFit> fits;
  for (const Sample& s : cal.samples) {
    if (s.new_path_cycles) continue;  // timed for fc_path_first_call only
    OpFit& f = fits[s.op];
    f.op = s.op;
    const double predicted = double(model.cycles(s.op, s.work));
    const double err =
        100.0 * std::abs(predicted - double(s.cycles)) / double(std::max<uint64_t>(s.cycles, 1));
    f.mean_error_pct += err;
    f.max_error_pct = std::max(f.max_error_pct, err);
    ++f.shapes;
  }
  for (auto& [op, f] : fits) {
    f.mean_error_pct /= double(f.shapes);
    cal.fits.push_back(f);
  }
  return cal;
}

std::string calibrationYaml(const Calibration& cal) {
  char line[256];
  std::string out = "# CPU cost-model coefficients fitted by `hilsim calibrate` to the " +
                    std::string(config::toString(cal.cpu.kernels)) +
                    " kernels\n"
                    "# executed on the instruction-set simulator of cpu.preset " +
                    cal.cpu.preset + "\n";
  std::snprintf(line, sizeof line, "# (flash wait states %u, SRAM wait states %u).\n",
                cal.cpu.memory.flash_wait_states, cal.cpu.memory.sram_wait_states);
  out += line;
  out += "# Fit per operator: shapes, mean and max relative error of the fitted formula.\n";
  for (const OpFit& f : cal.fits) {
    std::snprintf(line, sizeof line, "#   %-18s %3zu shapes, mean error %.2f%%, max error %.2f%%\n",
                  tflite::EnumNameBuiltinOperator(f.op), f.shapes, f.mean_error_pct,
                  f.max_error_pct);
    out += line;
  }
  out += "cpu:\n  preset: " + cal.cpu.preset + "\n";
  out += "  kernels: " + std::string(config::toString(cal.cpu.kernels)) + "\n";
  std::snprintf(line, sizeof line, "  flash_wait_states: %u\n  sram_wait_states: %u\n",
                cal.cpu.memory.flash_wait_states, cal.cpu.memory.sram_wait_states);
  out += line;
  const iss::FlashOptions& f = cal.cpu.memory.flash;
  std::snprintf(line, sizeof line,
                "  flash:\n    line_bytes: %u\n    prefetch: %s\n    icache_lines: %u\n"
                "    icache_ways: %u\n    dcache_lines: %u\n    dcache_ways: %u\n"
                "    data_through_icache: %s\n",
                f.line_bytes, f.prefetch ? "true" : "false", f.icache_lines, f.icache_ways,
                f.dcache_lines, f.dcache_ways, f.data_through_icache ? "true" : "false");
  out += line;
  out += "  coefficients:\n";
  const auto write = [&](double CpuCoefficients::*coefficient, const char* name) {
    if (std::find(cal.fitted.begin(), cal.fitted.end(), name) == cal.fitted.end()) return;
    std::snprintf(line, sizeof line, "    %s: %.6g\n", name, cal.coefficients.*coefficient);
    out += line;
  };
  for (const Group& g : groups())
    for (const Term& t : g.terms) write(t.coefficient, t.name);
  for (const auto& [coefficient, name] : firstCallTerms()) write(coefficient, name);
  write(&CpuCoefficients::fc_path_first_call, "fc_path_first_call");
  return out;
}

}  // namespace hilsim::calibrate
