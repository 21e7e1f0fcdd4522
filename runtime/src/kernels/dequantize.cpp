// Reference DEQUANTIZE kernel: int8/int16 -> float32 (hilsim/kernels/dequantize.h).

#include <cstdint>
#include <string>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

class DequantizeRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 1, 1);
    const Tensor& in = requiredInput(node, 0, "input");
    const Tensor& out = *node.output(0);
    expectSameElementCount(in, out);
    if (out.type != TensorType::FLOAT32)
      throw ModelError("output must be float32, is " + describe(out));
    if (in.type != TensorType::INT8 && in.type != TensorType::INT16)
      throw ModelError("input must be int8 or int16, is " + describe(in));
    expectQuantized(in, "input");
    if (in.quant.scale.size() != 1)
      throw ModelError("per-channel dequantization is not supported (input has " +
                       std::to_string(in.quant.scale.size()) + " scales)");

    type_ = in.type;
    params_.count = static_cast<int32_t>(in.elements());
    params_.scale = in.quant.scale0();
    params_.zero_point = in.quant.zero_point0();
    OpWork work;
    work.elements = static_cast<uint64_t>(params_.count);
    return work;
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    const Tensor& in = *node.input(0);
    float* out = node.output(0)->as<float>();
    if (type_ == TensorType::INT8) {
      kernels::abi::DequantizeInt8Call call{params_, in.as<int8_t>(), out};
      runCall(ctx, call);
    } else {
      kernels::abi::DequantizeInt16Call call{params_, in.as<int16_t>(), out};
      runCall(ctx, call);
    }
  }

 private:
  kernels::DequantizeParams params_;
  TensorType type_ = TensorType::INT8;
};

}  // namespace

std::unique_ptr<Kernel> makeDequantizeRef() {
  return std::make_unique<DequantizeRef>();
}

}  // namespace hilsim::rt
