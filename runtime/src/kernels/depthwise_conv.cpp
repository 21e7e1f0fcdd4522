// DEPTHWISE_CONV_2D kernel, int8 with per-channel int8 filters and int32 bias: the reference
// arithmetic (hilsim/kernels/depthwise_conv.h) or the optimized library's
// (hilsim/kernels/optimized/depthwise_conv.h); prepare validates the node and computes the
// per-channel requantization once.

#include <cstdint>
#include <string>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/kernels/optimized/abi_calls.h"
#include "hilsim/rt/kernels/conv_common.h"
#include "hilsim/rt/kernels/conv_layer.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

class DepthwiseConv2DRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext& ctx, Node& node) override {
    expectArity(node, 2, 3);
    const Tensor& in = requiredInput(node, 0, "input");
    const Tensor& filter = requiredInput(node, 1, "filter");
    const Tensor* bias = node.input(2);
    Tensor& out = *node.output(0);
    const ConvOptions options = convOptions(node);
    expectRank(filter, 4, "filter");
    if (filter.dim(0) != 1)
      throw ModelError("filter must be [1, h, w, channels], is " + describe(filter));

    p_ = {};
    p_.geo = convWindow(in, out, filter, options);
    const WindowGeometry& g = p_.geo;
    p_.depth_multiplier = options.depth_multiplier;
    if (p_.depth_multiplier <= 0 || int64_t{g.in_c} * p_.depth_multiplier != g.out_c)
      throw ModelError("output channels " + std::to_string(g.out_c) + " must be input channels " +
                       std::to_string(g.in_c) + " x depth multiplier " +
                       std::to_string(p_.depth_multiplier));
    if (filter.dim(3) != g.out_c)
      throw ModelError("filter " + describe(filter) + " does not have the " +
                       std::to_string(g.out_c) + " output channels of output " + describe(out));
    if (in.type == TensorType::FLOAT32)
      throw ModelError("float32 DEPTHWISE_CONV_2D is not supported (hilsim supports int8)");
    p_.quant = prepareConvQuant(ctx, in, filter, bias, out, options.activation, g.out_c, 3);
    optimized_ = ctx.kernelLibrary() == timing::KernelLibrary::kOptimized;

    return timing::convolutionWork(describeConvLayer(node)->geometry, 1);
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    const int8_t* input = node.input(0)->as<int8_t>();
    const int8_t* filter = node.input(1)->as<int8_t>();
    int8_t* output = node.output(0)->as<int8_t>();
    if (optimized_) {
      kernels::abi::OptDepthwiseConvInt8Call call{p_, input, filter, output};
      runCall(ctx, call);
      return;
    }
    kernels::abi::DepthwiseConvInt8Call call{p_, input, filter, output};
    runCall(ctx, call);
  }

 private:
  kernels::DepthwiseConvParams p_;  // its requantization arrays are in persistent memory
  bool optimized_ = false;          // the optimized library's kernel (3x3 or general path)
};

}  // namespace

std::unique_ptr<Kernel> makeDepthwiseConv2DRef() {
  return std::make_unique<DepthwiseConv2DRef>();
}

}  // namespace hilsim::rt
