// Reference SVDF kernel, int8 input and feature weights with int8 or int16 time weights and
// state (hilsim/kernels/svdf.h).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"
#include "hilsim/rt/quant.h"

namespace hilsim::rt {
namespace {

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
    if (p_.filters <= 0) throw ModelError("weights_feature " + describe(wf) + " has no filters");
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
    if (!(wt.type == TensorType::INT8 && state.type == TensorType::INT8) &&
        !(wt.type == TensorType::INT16 && state.type == TensorType::INT16))
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
    int16_state_ = state.type == TensorType::INT16;
    filter_scratch_ = ctx.requestScratch(size_t(p_.batches) * size_t(p_.filters) * sizeof(int32_t));
    unit_scratch_ = ctx.requestScratch(size_t(p_.batches) * size_t(p_.units) * sizeof(int32_t));

    OpWork work;
    const uint64_t batch_filters = uint64_t(p_.batches) * uint64_t(p_.filters);
    work.time_macs = batch_filters * uint64_t(p_.memory);
    work.macs = batch_filters * uint64_t(p_.input_size) + work.time_macs;
    work.state_bytes = state.bytes;
    work.filters = batch_filters;
    work.outputs = uint64_t(p_.batches) * uint64_t(p_.units);
    return work;
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    const int8_t* input = node.input(0)->as<int8_t>();
    const int8_t* weights_feature = node.input(1)->as<int8_t>();
    const Tensor* bias = node.input(3);
    const int32_t* bias_data = bias ? bias->as<int32_t>() : nullptr;
    Tensor& state = *node.input(4);
    int8_t* output = node.output(0)->as<int8_t>();
    auto* filter_scratch = reinterpret_cast<int32_t*>(ctx.scratch(filter_scratch_));
    auto* unit_scratch = reinterpret_cast<int32_t*>(ctx.scratch(unit_scratch_));
    if (int16_state_) {
      kernels::abi::SvdfInt16StateCall call{p_,
                                            input,
                                            weights_feature,
                                            node.input(2)->as<int16_t>(),
                                            bias_data,
                                            state.as<int16_t>(),
                                            output,
                                            filter_scratch,
                                            unit_scratch};
      runCall(ctx, call);
    } else {
      kernels::abi::SvdfInt8StateCall call{p_,
                                           input,
                                           weights_feature,
                                           node.input(2)->as<int8_t>(),
                                           bias_data,
                                           state.as<int8_t>(),
                                           output,
                                           filter_scratch,
                                           unit_scratch};
      runCall(ctx, call);
    }
  }

 private:
  kernels::SvdfParams p_;
  bool int16_state_ = false;
  int filter_scratch_ = -1;
  int unit_scratch_ = -1;
};

}  // namespace

std::unique_ptr<Kernel> makeSvdfRef() {
  return std::make_unique<SvdfRef>();
}

}  // namespace hilsim::rt
