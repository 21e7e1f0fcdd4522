// CONV_2D kernel, int8 with per-channel int8 filters and int32 bias: the reference arithmetic
// (hilsim/kernels/conv.h), or with the optimized library its pointwise or im2col path
// (hilsim/kernels/optimized/conv.h); prepare validates the node and computes the per-channel
// requantization (and the optimized path's folded bias or scratch) once.

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
    prepareOptimized(ctx, filter);

    return timing::convolutionWork(describeConvLayer(node)->geometry, uint32_t(p_.filter_in_c));
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    const int8_t* input = node.input(0)->as<int8_t>();
    const int8_t* filter = node.input(1)->as<int8_t>();
    int8_t* output = node.output(0)->as<int8_t>();
    switch (path_) {
      case Path::kPointwise: {
        kernels::abi::OptConvInt8PointwiseCall call{p_, input, filter, folded_bias_, output};
        runCall(ctx, call);
        return;
      }
      case Path::kIm2col: {
        kernels::abi::OptConvInt8Im2colCall call{
            p_, input, filter, reinterpret_cast<int16_t*>(ctx.scratch(scratch_)), output};
        runCall(ctx, call);
        return;
      }
      case Path::kReference:
        break;
    }
    kernels::abi::ConvInt8Call call{p_, input, filter, output};
    runCall(ctx, call);
  }

 private:
  enum class Path { kReference, kPointwise, kIm2col };

  // With the optimized library: the pointwise path with its folded bias in persistent memory
  // (needs a constant filter), else the im2col path with its two columns in arena scratch.
  void prepareOptimized(PrepareContext& ctx, const Tensor& filter) {
    path_ = Path::kReference;
    if (ctx.kernelLibrary() != timing::KernelLibrary::kOptimized) return;
    if (kernels::opt::convInt8IsPointwise(p_) && filter.is_constant) {
      int32_t* folded = allocatePersistentArray<int32_t>(ctx, size_t(p_.geo.out_c));
      kernels::opt::convInt8PointwiseFoldBias(p_, filter.as<int8_t>(), folded);
      folded_bias_ = folded;
      path_ = Path::kPointwise;
      return;
    }
    scratch_ =
        ctx.requestScratch(kernels::opt::convInt8Im2colScratchElements(p_) * sizeof(int16_t));
    path_ = Path::kIm2col;
  }

  kernels::ConvParams p_;  // its requantization arrays are in persistent memory
  Path path_ = Path::kReference;
  const int32_t* folded_bias_ = nullptr;  // persistent, out_c values (pointwise path)
  int scratch_ = -1;                      // im2col columns (im2col path)
};

}  // namespace

std::unique_ptr<Kernel> makeConv2DRef() {
  return std::make_unique<Conv2DRef>();
}

}  // namespace hilsim::rt
