// Reference CONV_2D kernel, int8 with per-channel int8 filters and int32 bias
// (hilsim/kernels/conv.h); prepare validates the node and computes the per-channel
// requantization once.

#include <cstdint>
#include <string>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/rt/kernels/conv_common.h"
#include "hilsim/rt/kernels/conv_layer.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

class Conv2DRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext& ctx, Node& node) override {
    expectArity(node, 2, 3);
    const Tensor& in = requiredInput(node, 0, "input");
    const Tensor& filter = requiredInput(node, 1, "filter");
    const Tensor* bias = node.input(2);
    Tensor& out = *node.output(0);
    const ConvOptions options = convOptions(node);
    expectRank(filter, 4, "filter");

    p_ = {};
    p_.geo = convWindow(in, out, filter, options);
    const WindowGeometry& g = p_.geo;
    if (filter.dim(0) != g.out_c)
      throw ModelError("filter " + describe(filter) + " does not have the " +
                       std::to_string(g.out_c) + " output channels of output " + describe(out));
    p_.filter_in_c = filter.dim(3);
    if (p_.filter_in_c <= 0 || g.in_c % p_.filter_in_c != 0)
      throw ModelError("filter " + describe(filter) + " depth does not divide the " +
                       std::to_string(g.in_c) + " input channels");
    const int32_t groups = g.in_c / p_.filter_in_c;
    if (g.out_c % groups != 0)
      throw ModelError(std::to_string(g.out_c) + " output channels do not split into " +
                       std::to_string(groups) + " groups");
    p_.filters_per_group = g.out_c / groups;
    if (in.type == TensorType::FLOAT32)
      throw ModelError("float32 CONV_2D is not supported (hilsim supports int8)");
    p_.quant = prepareConvQuant(ctx, in, filter, bias, out, options.activation, g.out_c, 0);

    return timing::convolutionWork(describeConvLayer(node)->geometry, uint32_t(p_.filter_in_c));
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    kernels::abi::ConvInt8Call call{p_, node.input(0)->as<int8_t>(), node.input(1)->as<int8_t>(),
                                    node.output(0)->as<int8_t>()};
    runCall(ctx, call);
  }

 private:
  kernels::ConvParams p_;  // its requantization arrays are in persistent memory
};

}  // namespace

std::unique_ptr<Kernel> makeConv2DRef() {
  return std::make_unique<Conv2DRef>();
}

}  // namespace hilsim::rt
