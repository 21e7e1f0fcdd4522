// Reference AVERAGE_POOL_2D kernel, int8 (hilsim/kernels/pooling.h): input and output must share
// their quantization, as TensorFlow Lite Micro requires.

#include <cstdint>
#include <string>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/kernels/pooling.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/reference.h"
#include "pooling_common.h"

namespace hilsim::rt {
namespace {

class AveragePool2DRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext& ctx, Node& node) override {
    expectArity(node, 1, 1);
    const Tensor& in = requiredInput(node, 0, "input");
    Tensor& out = *node.output(0);
    const tflite::Pool2DOptions& options = poolOptions(node);

    p_ = {};
    p_.geo = poolWindow(in, out, options);
    const WindowGeometry& g = p_.geo;
    if (in.type != TensorType::INT8 || out.type != TensorType::INT8)
      throw ModelError("unsupported types: input " + describe(in) + ", output " + describe(out) +
                       " (hilsim supports int8)");
    expectQuantized(in, "input");
    expectQuantized(out, "output");
    expectSharedQuantization(in, out);
    int8ActivationRange(options.fused_activation_function(), out.quant.scale0(),
                        out.quant.zero_point0(), &p_.act_min, &p_.act_max);
    if (!kernels::poolWindowsCoverInput(g))
      throw ModelError("a pooling window of input " + describe(in) + " covers no input");
    acc_ = allocatePersistentArray<int32_t>(ctx, size_t(g.in_c));
    return poolWork(g);
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
