// Reference SVDF kernel, int8 input and feature weights with int8 or int16 time weights and
// state, with TensorFlow Lite Micro's arithmetic (svdf_common.cc, EvalIntegerSvdfReference):
//   1. shift the whole state buffer left by one element;
//   2. feature product: state[b][f][memory - 1] = T(state_zp + clamp_T(requant1(
//      sum_i wf[f][i] * (x[b][i] - input_zp)))), the narrowing to T wrapping;
//   3. time product: s[b][f] = sum_t wt[f][t] * (state[b][f][t] - state_zp);
//   4. out[b][u] = clamp_int8(requant2(bias[u] + sum_r s[b][u * rank + r]) + output_zp).
// The fused activation is not applied on this path (TFLite Micro ignores it too).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"
#include "hilsim/rt/quant.h"

namespace hilsim::rt {
namespace {

struct SvdfParams {
  int32_t batches = 0;
  int32_t input_size = 0;
  int32_t filters = 0;
  int32_t units = 0;
  int32_t rank = 0;
  int32_t memory = 0;
  int32_t input_zero_point = 0;
  int32_t state_zero_point = 0;
  int32_t output_zero_point = 0;
  int32_t feature_multiplier = 0;  // input * feature weights -> state
  int feature_shift = 0;
  int32_t time_multiplier = 0;  // state * time weights -> output
  int time_shift = 0;
  const Tensor* input = nullptr;
  const Tensor* weights_feature = nullptr;  // [filters, input_size] int8
  const Tensor* weights_time = nullptr;     // [filters, memory] int8 or int16
  const Tensor* bias = nullptr;             // [units] int32 or nullptr
  Tensor* state = nullptr;   // [batches, filters * memory], same type as weights_time
  Tensor* output = nullptr;  // [batches, units] int8
  int filter_scratch = -1;   // int32 [batches, filters]
  int unit_scratch = -1;     // int32 [batches, units]
};

using SvdfFn = void (*)(const SvdfParams&, int32_t* filter_out, int32_t* unit_out);

template <typename T>
void svdfInteger(const SvdfParams& p, int32_t* filter_out, int32_t* unit_out) {
  const size_t filters = size_t(p.filters), memory = size_t(p.memory);
  const size_t state_size = size_t(p.batches) * filters * memory;
  T* state = p.state->as<T>();
  std::memmove(state, state + 1, (state_size - 1) * sizeof(T));

  constexpr int32_t kStateMin = std::numeric_limits<T>::min();
  constexpr int32_t kStateMax = std::numeric_limits<T>::max();
  const int8_t* input = p.input->as<int8_t>();
  const int8_t* weights_feature = p.weights_feature->as<int8_t>();
  for (size_t b = 0; b < size_t(p.batches); ++b) {
    const int8_t* x = input + b * size_t(p.input_size);
    T* newest = state + b * filters * memory + (memory - 1);
    for (size_t f = 0; f < filters; ++f) {
      const int8_t* w = weights_feature + f * size_t(p.input_size);
      uint32_t sum = 0;  // wraps like TFLite Micro's int32 accumulator
      for (int32_t i = 0; i < p.input_size; ++i)
        sum += static_cast<uint32_t>(int32_t{w[i]} * (int32_t{x[i]} - p.input_zero_point));
      const int32_t dot = multiplyByQuantizedMultiplier(static_cast<int32_t>(sum),
                                                        p.feature_multiplier, p.feature_shift);
      // The zero point is added after the clamp and the sum narrowed to T, wrapping when it
      // leaves T's range: what the TFLite Micro snapshot does (later versions clamp after).
      const int32_t clamped = std::clamp(dot, kStateMin, kStateMax);
      newest[f * memory] = static_cast<T>(p.state_zero_point + clamped);
    }
  }

  // From here the sums wrap modulo 2^32 like TFLite Micro's int32 arithmetic on x86: int16
  // time weights and state can overflow it.
  const T* weights_time = p.weights_time->as<T>();
  for (size_t b = 0; b < size_t(p.batches); ++b) {
    const T* s = state + b * filters * memory;
    for (size_t f = 0; f < filters; ++f) {
      const T* w = weights_time + f * memory;
      const T* history = s + f * memory;
      uint32_t dot = 0;
      for (size_t t = 0; t < memory; ++t)
        dot += static_cast<uint32_t>(int64_t{w[t]} * (int64_t{history[t]} - p.state_zero_point));
      filter_out[b * filters + f] = static_cast<int32_t>(dot);
    }
  }

  const size_t units = size_t(p.units), rank = size_t(p.rank);
  const int32_t* bias = p.bias ? p.bias->as<int32_t>() : nullptr;
  int8_t* output = p.output->as<int8_t>();
  for (size_t b = 0; b < size_t(p.batches); ++b) {
    for (size_t u = 0; u < units; ++u) {
      uint32_t sum = bias ? static_cast<uint32_t>(bias[u]) : 0;
      for (size_t r = 0; r < rank; ++r)
        sum += static_cast<uint32_t>(filter_out[b * filters + u * rank + r]);
      unit_out[b * units + u] = static_cast<int32_t>(sum);
    }
  }
  for (size_t i = 0; i < size_t(p.batches) * units; ++i) {
    const int32_t scaled =
        multiplyByQuantizedMultiplier(unit_out[i], p.time_multiplier, p.time_shift);
    const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(scaled) +
                                                 static_cast<uint32_t>(p.output_zero_point));
    output[i] = static_cast<int8_t>(std::clamp(shifted, -128, 127));
  }
}

class SvdfRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext& ctx, Node& node) override {
    expectArity(node, 5, 5);
    const Tensor& in = requiredInput(node, 0, "input");
    const Tensor& wf = requiredInput(node, 1, "weights_feature");
    const Tensor& wt = requiredInput(node, 2, "weights_time");
    const Tensor* bias = node.input(3);
    Tensor& state = requiredInput(node, 4, "activation state");
    Tensor& out = *node.output(0);
    const auto* options = node.op_fb->builtin_options_as_SVDFOptions();
    if (!options) throw ModelError("missing SVDFOptions");

    p_ = {};
    expectRank(in, 2, "input");
    expectRank(wf, 2, "weights_feature");
    expectRank(wt, 2, "weights_time");
    expectRank(state, 2, "activation state");
    expectRank(out, 2, "output");
    p_.rank = options->rank();
    p_.batches = in.dim(0);
    p_.input_size = in.dim(1);
    p_.filters = wf.dim(0);
    p_.memory = wt.dim(1);
    if (p_.rank <= 0 || p_.filters % p_.rank != 0)
      throw ModelError("rank " + std::to_string(p_.rank) + " does not divide the " +
                       std::to_string(p_.filters) + " filters");
    p_.units = p_.filters / p_.rank;
    if (p_.batches <= 0 || p_.input_size <= 0 || p_.memory <= 0)
      throw ModelError("input " + describe(in) + " or weights_time " + describe(wt) + " is empty");
    if (wf.dim(1) != p_.input_size)
      throw ModelError("weights_feature " + describe(wf) + " does not match input " + describe(in));
    if (wt.dim(0) != p_.filters)
      throw ModelError("weights_time " + describe(wt) + " does not have the " +
                       std::to_string(p_.filters) + " filters of weights_feature");
    if (bias && bias->elements() != p_.units)
      throw ModelError("bias " + describe(*bias) + " does not have " + std::to_string(p_.units) +
                       " elements");
    if (state.dim(0) != p_.batches || int64_t{state.dim(1)} != int64_t{p_.memory} * p_.filters)
      throw ModelError("activation state " + describe(state) + " is not [" +
                       std::to_string(p_.batches) + ", " +
                       std::to_string(int64_t{p_.memory} * p_.filters) + "]");
    if (!state.is_variable || state.is_constant)
      throw ModelError("activation state must be a variable tensor");
    if (out.dim(0) != p_.batches || out.dim(1) != p_.units)
      throw ModelError("output " + describe(out) + " is not [" + std::to_string(p_.batches) + ", " +
                       std::to_string(p_.units) + "]");

    if (in.type != TensorType::INT8 || wf.type != TensorType::INT8 || out.type != TensorType::INT8)
      throw ModelError("unsupported types: input " + describe(in) + ", weights_feature " +
                       describe(wf) + ", output " + describe(out) + " (hilsim supports int8 SVDF)");
    if (wt.type == TensorType::INT8 && state.type == TensorType::INT8)
      run_ = svdfInteger<int8_t>;
    else if (wt.type == TensorType::INT16 && state.type == TensorType::INT16)
      run_ = svdfInteger<int16_t>;
    else
      throw ModelError("weights_time " + describe(wt) + " and activation state " + describe(state) +
                       " must both be int8 or both int16");
    if (bias && bias->type != TensorType::INT32)
      throw ModelError("bias must be int32, is " + describe(*bias));
    expectConstant(wf, "weights_feature");
    expectConstant(wt, "weights_time");
    if (bias) expectConstant(*bias, "bias");
    expectQuantized(in, "input");
    expectQuantized(wf, "weights_feature");
    expectQuantized(wt, "weights_time");
    expectQuantized(state, "activation state");
    expectQuantized(out, "output");

    // TFLite Micro forms both scales in float32 before widening them.
    const float state_scale = state.quant.scale0();
    const double feature_scale =
        static_cast<double>(in.quant.scale0() * wf.quant.scale0() / state_scale);
    const double time_scale =
        static_cast<double>(state_scale * wt.quant.scale0() / out.quant.scale0());
    if (bias && !bias->quant.empty()) {
      const double expected = static_cast<double>(state_scale * wt.quant.scale0());
      if (!(std::abs(static_cast<double>(bias->quant.scale0()) - expected) < 1e-5))
        throw ModelError("bias scale " + std::to_string(bias->quant.scale0()) +
                         " does not match state scale x weights_time scale " +
                         std::to_string(expected));
    }
    const QuantizedMultiplier feature_qm = quantizeMultiplier(feature_scale);
    const QuantizedMultiplier time_qm = quantizeMultiplier(time_scale);
    p_.feature_multiplier = feature_qm.multiplier;
    p_.feature_shift = feature_qm.shift;
    p_.time_multiplier = time_qm.multiplier;
    p_.time_shift = time_qm.shift;
    p_.input_zero_point = in.quant.zero_point0();
    p_.state_zero_point = state.quant.zero_point0();
    p_.output_zero_point = out.quant.zero_point0();
    p_.input = &in;
    p_.weights_feature = &wf;
    p_.weights_time = &wt;
    p_.bias = bias;
    p_.state = &state;
    p_.output = &out;
    p_.filter_scratch =
        ctx.requestScratch(size_t(p_.batches) * size_t(p_.filters) * sizeof(int32_t));
    p_.unit_scratch = ctx.requestScratch(size_t(p_.batches) * size_t(p_.units) * sizeof(int32_t));

    OpWork work;
    const uint64_t batch_filters = uint64_t(p_.batches) * uint64_t(p_.filters);
    work.macs = batch_filters * uint64_t(p_.input_size) + batch_filters * uint64_t(p_.memory);
    work.state_bytes = state.bytes;
    work.extra_outputs = uint64_t(p_.batches) * uint64_t(p_.filters + p_.units);
    work.outputs = uint64_t(p_.batches) * uint64_t(p_.units);
    return work;
  }

  void invoke(InvokeContext& ctx, Node&) override {
    run_(p_, reinterpret_cast<int32_t*>(ctx.scratch(p_.filter_scratch)),
         reinterpret_cast<int32_t*>(ctx.scratch(p_.unit_scratch)));
  }

 private:
  SvdfParams p_;
  SvdfFn run_ = nullptr;
};

}  // namespace

std::unique_ptr<Kernel> makeSvdfRef() {
  return std::make_unique<SvdfRef>();
}

}  // namespace hilsim::rt
