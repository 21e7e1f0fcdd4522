#include "hilsim/rt/kernels/conv_accel.h"

#include "hilsim/planner/conv_plan.h"
#include "hilsim/planner/predict.h"
#include "hilsim/rt/kernels/conv_common.h"
#include "hilsim/rt/kernels/conv_layer.h"
#include "hilsim/rt/kernels/reference.h"
#include "kernels/accel_kernel.h"

namespace hilsim::rt {
namespace {

class ConvAccel final : public AcceleratedKernel {
 public:
  ConvAccel(AccelContext& context, bool depthwise)
      : AcceleratedKernel(context, depthwise ? "DEPTHWISE_CONV_2D" : "CONV_2D"),
        reference_(depthwise ? makeDepthwiseConv2DRef() : makeConv2DRef()) {}

  OpWork prepare(PrepareContext& pctx, Node& node) override {
    // The reference kernel validates the operator completely and prices it.
    const OpWork work = reference_->prepare(pctx, node);
    index_ = node.index;
    ref_cycles_ = ctx_.cpu().cycles(node.op, work);
    input_ = node.input(0);
    output_ = node.output(0);
    layer_ = *describeConvLayer(node);
    const timing::ConvGeometry& g = layer_.geometry;
    if (layer_.groups != 1) {
      keepOnCpu(PathReason::kNotMapped,
                "grouped convolution (" + std::to_string(layer_.groups) + " groups)");
      return work;
    }
    const tflite::ActivationFunctionType activation =
        g.depthwise
            ? node.op_fb->builtin_options_as_DepthwiseConv2DOptions()->fused_activation_function()
            : node.op_fb->builtin_options_as_Conv2DOptions()->fused_activation_function();
    const Tensor& filter = *node.input(1);
    quant_ = prepareConvQuant(pctx, *input_, filter, node.input(2), *output_, activation,
                              static_cast<int32_t>(g.out_c), g.depthwise ? 3 : 0);
    weights_ = filter.as<int8_t>();
    if (g.depthwise) {
      // [1, h, w, channels] -> each channel's taps in a row, as a GEMM's weights are.
      const uint64_t taps = g.k();
      depthwise_weights_.resize(taps * g.out_c);
      for (uint64_t tap = 0; tap < taps; ++tap)
        for (uint64_t c = 0; c < g.out_c; ++c)
          depthwise_weights_[c * taps + tap] = weights_[tap * g.out_c + c];
      weights_ = depthwise_weights_.data();
    }
    planAndDecide(findAnnotation(node, ctx_.metadataPlans(), planner::convLayer(g)));
    return work;
  }

  void invoke(InvokeContext& ctx, Node& node) override { invokeLayer(ctx, node); }

 private:
  planner::Plan planLayer() const override {
    return planner::makeConvPlan(ctx_.hardware(), layer_.geometry, ctx_.timing());
  }

  std::optional<uint64_t> familyBreakEven(
      const planner::ObjectiveSetting& objective) const override {
    return planner::convBreakEvenMacs(layer_.geometry, ctx_.hardware(), ctx_.timing(), ctx_.cpu(),
                                      objective);
  }

  std::optional<double> utilization() const override {
    if (!plan_) return std::nullopt;
    return planner::predictedUtilization(*plan_, ctx_.timing());
  }

  const Tensor& inputTensor() const override { return *input_; }
  Tensor& outputTensor() const override { return *output_; }

  void runReference(InvokeContext& ctx, Node& node) override { reference_->invoke(ctx, node); }

  planner::LayerArithmetic arithmetic() const override {
    planner::LayerArithmetic arith;
    arith.weights = weights_;
    const auto channels = static_cast<size_t>(layer_.geometry.out_c);
    arith.bias.assign(quant_.bias, quant_.bias + channels);
    arith.multipliers.assign(quant_.multipliers, quant_.multipliers + channels);
    arith.shifts.assign(quant_.shifts, quant_.shifts + channels);
    arith.input_zero_point = -quant_.input_offset;
    arith.output_zero_point = quant_.output_zero_point;
    arith.act_min = quant_.act_min;
    arith.act_max = quant_.act_max;
    return arith;
  }

  std::unique_ptr<Kernel> reference_;
  const Tensor* input_ = nullptr;
  Tensor* output_ = nullptr;
  ConvLayer layer_;
  kernels::ChannelRequant quant_;  // arrays in the persistent pool
  const int8_t* weights_ = nullptr;
  std::vector<int8_t> depthwise_weights_;
};

}  // namespace

std::unique_ptr<Kernel> makeConv2DAccel(AccelContext& context) {
  return std::make_unique<ConvAccel>(context, false);
}

std::unique_ptr<Kernel> makeDepthwiseConv2DAccel(AccelContext& context) {
  return std::make_unique<ConvAccel>(context, true);
}

}  // namespace hilsim::rt
