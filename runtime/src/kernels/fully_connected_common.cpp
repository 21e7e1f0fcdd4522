#include "hilsim/rt/kernels/fully_connected_common.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "hilsim/errors.h"
#include "hilsim/kernels/abi/calls.h"
#include "hilsim/kernels/optimized/abi_calls.h"
#include "hilsim/kernels/optimized/fully_connected.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/quant.h"

namespace hilsim::rt {
namespace {

std::string describe(const Tensor& t) {
  return std::string(typeName(t.type)) + " " + shapeString(t.shape);
}

}  // namespace

void int8ActivationRange(tflite::ActivationFunctionType activation, float scale, int32_t zero_point,
                         int32_t* act_min, int32_t* act_max) {
  // zero_point + int32(round(value / scale)), in int64: a bound beyond int32 (scales below about
  // 3e-9) would make the float-to-int conversion undefined, so such a layer is rejected.
  auto quantize = [&](float value) {
    const float rounded = std::round(value / scale);
    if (!(rounded >= -2147483648.0f && rounded < 2147483648.0f))
      throw ModelError("activation bound " + std::to_string(value) + " / output scale " +
                       std::to_string(scale) + " does not fit in int32");
    return int64_t{zero_point} + static_cast<int64_t>(rounded);
  };
  int64_t lo = -128;
  int64_t hi = 127;
  switch (activation) {
    case tflite::ActivationFunctionType::RELU:
      lo = std::max(lo, quantize(0.0f));
      break;
    case tflite::ActivationFunctionType::RELU6:
      lo = std::max(lo, quantize(0.0f));
      hi = std::min(hi, quantize(6.0f));
      break;
    case tflite::ActivationFunctionType::RELU_N1_TO_1:
      lo = std::max(lo, quantize(-1.0f));
      hi = std::min(hi, quantize(1.0f));
      break;
    default:
      break;
  }
  *act_min = static_cast<int32_t>(lo);
  *act_max = static_cast<int32_t>(hi);
}

void floatActivationRange(tflite::ActivationFunctionType activation, float* act_min,
                          float* act_max) {
  *act_min = std::numeric_limits<float>::lowest();
  *act_max = std::numeric_limits<float>::max();
  switch (activation) {
    case tflite::ActivationFunctionType::RELU:
      *act_min = 0.0f;
      break;
    case tflite::ActivationFunctionType::RELU6:
      *act_min = 0.0f;
      *act_max = 6.0f;
      break;
    case tflite::ActivationFunctionType::RELU_N1_TO_1:
      *act_min = -1.0f;
      *act_max = 1.0f;
      break;
    default:
      break;
  }
}

namespace {

// Tensors and options of the node: input, filter, optional bias, one output.
FullyConnectedParams readOperands(const Node& node) {
  if (node.inputs.size() < 2 || node.inputs.size() > 3)
    throw ModelError("expects 2 or 3 inputs, has " + std::to_string(node.inputs.size()));
  if (node.outputs.size() != 1)
    throw ModelError("expects 1 output, has " + std::to_string(node.outputs.size()));
  FullyConnectedParams p;
  p.input = node.input(0);
  p.filter = node.input(1);
  p.bias = node.input(2);
  p.output = node.output(0);
  if (!p.input || !p.filter) throw ModelError("input and filter are required");
  if (const auto* options = node.op_fb->builtin_options_as_FullyConnectedOptions()) {
    p.activation = options->fused_activation_function();
    if (options->weights_format() != tflite::FullyConnectedOptionsWeightsFormat::DEFAULT)
      throw ModelError("shuffled weights format is not supported");
  }
  return p;
}

// The GEMM view: the input read as rows of k, whatever its rank, against an [n, k] filter.
void checkShapes(FullyConnectedParams& p) {
  const Tensor& in = *p.input;
  const Tensor& w = *p.filter;
  const Tensor& out = *p.output;
  if (w.rank() != 2) throw ModelError("filter must be 2-D [n, k], is " + describe(w));
  const int64_t n = w.dim(0);
  const int64_t k = w.dim(1);
  if (n <= 0 || k <= 0) throw ModelError("filter " + describe(w) + " is empty");
  const int64_t in_elems = in.elements();
  if (in.rank() < 1 || in_elems % k != 0)
    throw ModelError("input " + describe(in) +
                     " is not a whole number of rows of k=" + std::to_string(k));
  const int64_t rows = in_elems / k;
  if (out.rank() < 1 || out.shape.back() != n || out.elements() != rows * n)
    throw ModelError("output " + describe(out) + " does not match " + std::to_string(rows) +
                     " rows of n=" + std::to_string(n));
  if (rows > std::numeric_limits<int32_t>::max() ||
      rows * k > std::numeric_limits<int32_t>::max() ||
      rows * n > std::numeric_limits<int32_t>::max())
    throw ModelError("input " + describe(in) + " has too many rows");
  p.shape = {static_cast<uint32_t>(rows), static_cast<uint32_t>(k), static_cast<uint32_t>(n)};
  if (p.bias) {
    if (p.bias->elements() != n)
      throw ModelError("bias " + describe(*p.bias) + " does not have n=" + std::to_string(n) +
                       " elements");
    if (!p.bias->is_constant) throw ModelError("bias must be a constant tensor");
  }
  if (!w.is_constant) throw ModelError("filter must be a constant tensor");
}

void prepareFloat(FullyConnectedParams& p) {
  const Tensor& w = *p.filter;
  const Tensor& out = *p.output;
  if (w.type != TensorType::FLOAT32 || out.type != TensorType::FLOAT32 ||
      (p.bias && p.bias->type != TensorType::FLOAT32))
    throw ModelError(
        "float32 input needs float32 filter, bias and output (hybrid models "
        "are not supported); filter is " +
        describe(w) + ", output " + describe(out));
  p.type = TensorType::FLOAT32;
  floatActivationRange(p.activation, &p.act_min_f, &p.act_max_f);
  const float* filter = w.as<float>();  // constant (checkShapes)
  p.zero_weights_per_input.assign(p.shape.k, 0);
  for (size_t o = 0; o < p.shape.n; ++o)
    for (size_t i = 0; i < p.shape.k; ++i)
      p.zero_weights_per_input[i] += filter[o * p.shape.k + i] == 0.0f;
}

// Per-output multipliers: per-channel when the filter has more than one scale, else one
// per-tensor multiplier (its scale product taken in float32 first, as TFLite Micro does).
void quantizeOutputs(FullyConnectedParams& p) {
  const Tensor& w = *p.filter;
  const size_t n = p.shape.n;
  const float in_scale = p.input->quant.scale0();
  const float out_scale = p.output->quant.scale0();
  const size_t num_scales = w.quant.scale.size();
  p.per_channel = num_scales > 1;
  p.multipliers.resize(n);
  p.shifts.resize(n);
  if (p.per_channel) {
    if (num_scales != n || w.quant.quantized_dimension != 0)
      throw ModelError("per-channel filter needs " + std::to_string(n) +
                       " scales along dimension 0, has " + std::to_string(num_scales) +
                       " along dimension " + std::to_string(w.quant.quantized_dimension));
    for (size_t o = 0; o < n; ++o) {
      const double real = static_cast<double>(in_scale) * static_cast<double>(w.quant.scale[o]) /
                          static_cast<double>(out_scale);
      const QuantizedMultiplier qm = quantizeMultiplier(real);
      p.multipliers[o] = qm.multiplier;
      p.shifts[o] = qm.shift;
    }
    return;
  }
  const double product = static_cast<double>(in_scale * w.quant.scale0());
  if (p.bias && !p.bias->quant.empty()) {
    const double bias_scale = p.bias->quant.scale0();
    if (std::abs(product - bias_scale) / static_cast<double>(out_scale) > 0.02)
      throw ModelError("bias scale " + std::to_string(bias_scale) +
                       " does not match input scale x filter scale " + std::to_string(product));
  }
  const QuantizedMultiplier qm = quantizeMultiplier(product / static_cast<double>(out_scale));
  std::fill(p.multipliers.begin(), p.multipliers.end(), qm.multiplier);
  std::fill(p.shifts.begin(), p.shifts.end(), qm.shift);
}

void prepareInt8(FullyConnectedParams& p) {
  const Tensor& in = *p.input;
  const Tensor& w = *p.filter;
  const Tensor& out = *p.output;
  if (in.type != TensorType::INT8 || w.type != TensorType::INT8 || out.type != TensorType::INT8)
    throw ModelError("unsupported types: input " + describe(in) + ", filter " + describe(w) +
                     ", output " + describe(out) + " (hilsim supports int8 and float32)");
  if (p.bias && p.bias->type != TensorType::INT32)
    throw ModelError("int8 layer needs an int32 bias, has " + describe(*p.bias));
  if (in.quant.empty() || w.quant.empty() || out.quant.empty())
    throw ModelError("int8 input, filter and output must be quantized");
  for (int64_t zp : w.quant.zero_point)
    if (zp != 0) throw ModelError("filter zero point must be 0, is " + std::to_string(zp));
  p.type = TensorType::INT8;
  p.input_zero_point = in.quant.zero_point0();
  p.output_zero_point = out.quant.zero_point0();
  quantizeOutputs(p);
  int8ActivationRange(p.activation, out.quant.scale0(), p.output_zero_point, &p.act_min,
                      &p.act_max);
}

}  // namespace

FullyConnectedParams prepareFullyConnected(const Node& node) {
  FullyConnectedParams p = readOperands(node);
  checkShapes(p);
  if (p.input->type == TensorType::FLOAT32)
    prepareFloat(p);
  else
    prepareInt8(p);
  return p;
}

namespace {

kernels::FullyConnectedInt8Params int8Params(const FullyConnectedParams& p) {
  kernels::FullyConnectedInt8Params q;
  q.rows = static_cast<int32_t>(p.shape.rows);
  q.k = static_cast<int32_t>(p.shape.k);
  q.n = static_cast<int32_t>(p.shape.n);
  q.input_offset = -p.input_zero_point;
  q.output_offset = p.output_zero_point;
  q.filter_offset = 0;  // the filter zero point, checked to be 0 by prepare
  q.per_channel = p.per_channel ? 1 : 0;
  q.act_min = p.act_min;
  q.act_max = p.act_max;
  q.multipliers = p.persistent_multipliers ? p.persistent_multipliers : p.multipliers.data();
  q.shifts = p.persistent_shifts ? p.persistent_shifts : p.shifts.data();
  return q;
}

}  // namespace

FullyConnectedParams prepareFullyConnected(PrepareContext& ctx, const Node& node) {
  FullyConnectedParams p = prepareFullyConnected(node);
  if (p.type == TensorType::INT8) {
    const size_t n = p.multipliers.size();
    int32_t* multipliers = allocatePersistentArray<int32_t>(ctx, n);
    int32_t* shifts = allocatePersistentArray<int32_t>(ctx, n);
    std::copy(p.multipliers.begin(), p.multipliers.end(), multipliers);
    std::copy(p.shifts.begin(), p.shifts.end(), shifts);
    p.persistent_multipliers = multipliers;
    p.persistent_shifts = shifts;
    if (ctx.kernelLibrary() == timing::KernelLibrary::kOptimized && p.filter->is_constant &&
        (!p.bias || p.bias->is_constant)) {
      int32_t* folded = allocatePersistentArray<int32_t>(ctx, n);
      kernels::opt::fullyConnectedInt8FoldBias(int8Params(p), p.filter->as<int8_t>(),
                                               p.bias ? p.bias->as<int32_t>() : nullptr, folded);
      p.folded_bias = folded;
    }
  }
  return p;
}

OpWork fullyConnectedWork(const FullyConnectedParams& params) {
  OpWork work;
  work.macs = params.shape.macs();
  work.outputs = uint64_t{params.shape.rows} * params.shape.n;
  work.gemm_rows = params.shape.rows;
  work.gemm_k = params.shape.k;
  work.gemm_n = params.shape.n;
  work.float_input = params.type == TensorType::FLOAT32;
  if (params.type == TensorType::INT8)
    work.fc_paths = timing::fullyConnectedPaths(params.shape.rows, params.shape.n);
  return work;
}

uint64_t zeroOperandMacs(const FullyConnectedParams& p) {
  const float* input = p.input->as<float>();
  const size_t k = p.shape.k;
  uint64_t zero = 0;
  for (size_t r = 0; r < p.shape.rows; ++r)
    for (size_t i = 0; i < k; ++i)
      zero += input[r * k + i] == 0.0f ? p.shape.n : p.zero_weights_per_input[i];
  return zero;
}

void runFullyConnectedReference(InvokeContext& ctx, const FullyConnectedParams& p) {
  const auto rows = static_cast<int32_t>(p.shape.rows);
  const auto k = static_cast<int32_t>(p.shape.k);
  const auto n = static_cast<int32_t>(p.shape.n);
  if (p.type == TensorType::FLOAT32) {
    OpWork work = fullyConnectedWork(p);
    work.zero_operand_macs = zeroOperandMacs(p);
    ctx.priceReference(work);
    kernels::abi::FullyConnectedFloatCall call;
    call.params = {rows, k, n, p.act_min_f, p.act_max_f};
    call.input = p.input->as<float>();
    call.filter = p.filter->as<float>();
    call.bias = p.bias ? p.bias->as<float>() : nullptr;
    call.output = p.output->as<float>();
    runCall(ctx, call);
    return;
  }
  if (p.folded_bias) {
    kernels::abi::OptFullyConnectedInt8Call call;
    call.params = int8Params(p);
    call.input = p.input->as<int8_t>();
    call.filter = p.filter->as<int8_t>();
    call.folded_bias = p.folded_bias;
    call.output = p.output->as<int8_t>();
    runCall(ctx, call);
    return;
  }
  kernels::abi::FullyConnectedInt8Call call;
  call.params = int8Params(p);
  call.input = p.input->as<int8_t>();
  call.filter = p.filter->as<int8_t>();
  call.bias = p.bias ? p.bias->as<int32_t>() : nullptr;
  call.output = p.output->as<int8_t>();
  runCall(ctx, call);
}

}  // namespace hilsim::rt
