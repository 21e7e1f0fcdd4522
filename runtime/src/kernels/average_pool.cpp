// Reference AVERAGE_POOL_2D kernel, int8 (hilsim/kernels/pooling.h): input and output must share
// their quantization, as TensorFlow Lite Micro requires.

#include <cmath>
#include <cstdint>
#include <string>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/kernels/pooling.h"
#include "hilsim/rt/kernels/conv_common.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

class AveragePool2DRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext& ctx, Node& node) override {
    expectArity(node, 1, 1);
    const Tensor& in = requiredInput(node, 0, "input");
    Tensor& out = *node.output(0);
    const auto* options = node.op_fb->builtin_options_as_Pool2DOptions();
    if (!options) throw ModelError("missing Pool2DOptions");

    p_ = {};
    p_.geo =
        computeWindowGeometry(in, out, options->filter_height(), options->filter_width(),
                              options->padding(), options->stride_h(), options->stride_w(), 1, 1);
    const WindowGeometry& g = p_.geo;
    if (g.out_c != g.in_c)
      throw ModelError("output " + describe(out) + " does not have the channels of input " +
                       describe(in));
    if (in.type != TensorType::INT8 || out.type != TensorType::INT8)
      throw ModelError("unsupported types: input " + describe(in) + ", output " + describe(out) +
                       " (hilsim supports int8)");
    expectQuantized(in, "input");
    expectQuantized(out, "output");
    // TFLite Micro requires input and output to share their quantization.
    const double scale_diff =
        std::abs(static_cast<double>(in.quant.scale0()) - static_cast<double>(out.quant.scale0()));
    if (scale_diff > 1.0e-6 || in.quant.zero_point0() != out.quant.zero_point0())
      throw ModelError("input and output quantization differ (scales " +
                       std::to_string(in.quant.scale0()) + " and " +
                       std::to_string(out.quant.scale0()) + ", zero points " +
                       std::to_string(in.quant.zero_point0()) + " and " +
                       std::to_string(out.quant.zero_point0()) + ")");
    int8ActivationRange(options->fused_activation_function(), out.quant.scale0(),
                        out.quant.zero_point0(), &p_.act_min, &p_.act_max);
    if (!kernels::poolWindowsCoverInput(g))
      throw ModelError("a pooling window of input " + describe(in) + " covers no input");
    acc_ = allocatePersistentArray<int32_t>(ctx, size_t(g.in_c));

    OpWork work;
    work.outputs = g.outputs();
    work.window_elements = work.outputs * uint64_t(g.filter_h) * uint64_t(g.filter_w);
    return work;
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    kernels::abi::AveragePoolInt8Call call{p_, node.input(0)->as<int8_t>(), acc_,
                                           node.output(0)->as<int8_t>()};
    runCall(ctx, call);
  }

 private:
  kernels::PoolParams p_;
  int32_t* acc_ = nullptr;  // persistent: in_c accumulators
};

}  // namespace

std::unique_ptr<Kernel> makeAveragePool2DRef() {
  return std::make_unique<AveragePool2DRef>();
}

}  // namespace hilsim::rt
