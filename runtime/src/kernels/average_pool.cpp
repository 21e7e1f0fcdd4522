// Reference AVERAGE_POOL_2D kernel, int8 and int16 (hilsim/kernels/pooling.h): input and output
// must share their quantization, as TensorFlow Lite Micro requires.

#include <cstdint>
#include <string>

#include "elementwise_common.h"
#include "hilsim/kernels/abi/calls.h"
#include "hilsim/kernels/optimized/abi_calls.h"
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
    type_ = in.type;
    if (type_ != TensorType::INT8 && type_ != TensorType::INT16)
      throw ModelError("unsupported type: input " + describe(in) +
                       " (int8 and int16 are supported)");
    expectSameType(in, out);
    expectQuantized(in, "input");
    expectQuantized(out, "output");
    expectSharedQuantization(in, out);
    quantizedActivationRange(options.fused_activation_function(), out, &p_.act_min, &p_.act_max);
    if (p_.act_min > p_.act_max)
      throw ModelError("activation range [" + std::to_string(p_.act_min) + ", " +
                       std::to_string(p_.act_max) + "] is empty (output zero point " +
                       std::to_string(out.quant.zero_point0()) + ")");
    if (!kernels::poolWindowsCoverInput(g))
      throw ModelError("a pooling window of input " + describe(in) + " covers no input");
    acc_ = allocatePersistentArray<int32_t>(ctx, size_t(g.in_c));
    optimized_ = ctx.kernelLibrary() == timing::KernelLibrary::kOptimized;
    return poolWork(g);
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    const Tensor& in = *node.input(0);
    Tensor& out = *node.output(0);
    if (type_ == TensorType::INT8 && optimized_) {
      kernels::abi::OptAveragePoolInt8Call call{p_, in.as<int8_t>(), acc_, out.as<int8_t>()};
      runCall(ctx, call);
    } else if (type_ == TensorType::INT8) {
      kernels::abi::AveragePoolInt8Call call{p_, in.as<int8_t>(), acc_, out.as<int8_t>()};
      runCall(ctx, call);
    } else {
      kernels::abi::AveragePoolInt16Call call{p_, in.as<int16_t>(), acc_, out.as<int16_t>()};
      runCall(ctx, call);
    }
  }

 private:
  kernels::PoolParams p_;
  TensorType type_ = TensorType::INT8;
  int32_t* acc_ = nullptr;  // persistent: in_c accumulators
  bool optimized_ = false;  // int8: the optimized library's kernel
};

}  // namespace

std::unique_ptr<Kernel> makeAveragePool2DRef() {
  return std::make_unique<AveragePool2DRef>();
}

}  // namespace hilsim::rt
