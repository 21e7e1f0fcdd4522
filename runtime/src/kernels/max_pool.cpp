// Reference MAX_POOL_2D kernel (hilsim/kernels/pooling.h): int8, int16 and float32 NHWC tensors,
// SAME or VALID padding, any stride, fused activation. Quantized input and output must share
// their scale and zero point, as TensorFlow Lite Micro requires.

#include <algorithm>
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

class MaxPool2DRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext& ctx, Node& node) override {
    expectArity(node, 1, 1);
    const Tensor& in = requiredInput(node, 0, "input");
    const Tensor& out = *node.output(0);
    const tflite::Pool2DOptions& options = poolOptions(node);
    type_ = in.type;
    if (type_ != TensorType::INT8 && type_ != TensorType::INT16 && type_ != TensorType::FLOAT32)
      throw ModelError("unsupported type: input " + describe(in) +
                       " (int8, int16 and float32 are supported)");
    expectSameType(in, out);

    params_ = {};
    params_.geo = poolWindow(in, out, options);
    const WindowGeometry& g = params_.geo;
    const auto activation = options.fused_activation_function();
    if (type_ == TensorType::FLOAT32) {
      floatActivationRange(activation, &params_.act_min_f, &params_.act_max_f);
    } else {
      expectQuantized(in, "input");
      expectQuantized(out, "output");
      expectSharedQuantization(in, out);
      quantizedActivationRange(activation, out, &params_.act_min, &params_.act_max);
      if (params_.act_min > params_.act_max)
        throw ModelError("activation range [" + std::to_string(params_.act_min) + ", " +
                         std::to_string(params_.act_max) + "] is empty (output zero point " +
                         std::to_string(out.quant.zero_point0()) + ")");
    }

    optimized_ = ctx.kernelLibrary() == timing::KernelLibrary::kOptimized;
    return poolWork(g);
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    const Tensor& in = *node.input(0);
    Tensor& out = *node.output(0);
    if (type_ == TensorType::INT8 && optimized_) {
      kernels::abi::OptMaxPoolInt8Call call{params_, in.as<int8_t>(), out.as<int8_t>()};
      runCall(ctx, call);
    } else if (type_ == TensorType::INT8) {
      kernels::abi::MaxPoolInt8Call call{params_, in.as<int8_t>(), out.as<int8_t>()};
      runCall(ctx, call);
    } else if (type_ == TensorType::INT16) {
      kernels::abi::MaxPoolInt16Call call{params_, in.as<int16_t>(), out.as<int16_t>()};
      runCall(ctx, call);
    } else {
      kernels::abi::MaxPoolFloatCall call{params_, in.as<float>(), out.as<float>()};
      runCall(ctx, call);
    }
  }

 private:
  kernels::PoolParams params_;
  TensorType type_ = TensorType::INT8;
  bool optimized_ = false;  // int8: the optimized library's kernel
};

}  // namespace

std::unique_ptr<Kernel> makeMaxPool2DRef() {
  return std::make_unique<MaxPool2DRef>();
}

}  // namespace hilsim::rt
