// Reference MUL kernel: int8, int16, float32 and int32 with broadcasting
// (hilsim/kernels/mul.h).

#include <cstdint>
#include <string>
#include <type_traits>

#include "elementwise_common.h"
#include "hilsim/kernels/abi/calls.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

class MulRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 2, 2);
    const Tensor& in1 = requiredInput(node, 0, "input1");
    const Tensor& in2 = requiredInput(node, 1, "input2");
    const Tensor& out = *node.output(0);
    const auto* options = node.op_fb->builtin_options_as_MulOptions();
    if (!options) throw ModelError("missing MulOptions");
    const auto activation = checkedActivation(options->fused_activation_function());
    expectSameTypes(in1, in2, out);
    loops_ = planBinaryBroadcast(in1, in2, out);
    type_ = out.type;
    switch (type_) {
      case TensorType::INT8:
      case TensorType::INT16:
        prepareQuantized(in1, in2, out, activation);
        break;
      case TensorType::FLOAT32:
        float_ = floatActivation(activation);
        break;
      case TensorType::INT32:
        int32_ = int32Activation(activation);
        break;
      default:
        throw ModelError("unsupported type " + describe(out) +
                         " (hilsim supports int8, int16, float32 and int32 MUL)");
    }
    OpWork work;
    work.elements = static_cast<uint64_t>(out.elements());
    return work;
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    const Tensor& in1 = *node.input(0);
    const Tensor& in2 = *node.input(1);
    Tensor& out = *node.output(0);
    switch (type_) {
      case TensorType::INT8:
        run<kernels::abi::MulInt8Call>(ctx, quant_, in1, in2, out);
        break;
      case TensorType::INT16:
        run<kernels::abi::MulInt16Call>(ctx, quant_, in1, in2, out);
        break;
      case TensorType::FLOAT32:
        run<kernels::abi::MulFloatCall>(ctx, float_, in1, in2, out);
        break;
      default:
        run<kernels::abi::MulInt32Call>(ctx, int32_, in1, in2, out);
        break;
    }
  }

 private:
  template <class Call, class Params>
  void run(InvokeContext& ctx, const Params& params, const Tensor& in1, const Tensor& in2,
           Tensor& out) const {
    using T = std::remove_pointer_t<decltype(Call::output)>;
    Call call{params, loops_, in1.as<T>(), in2.as<T>(), out.as<T>()};
    runCall(ctx, call);
  }

  void prepareQuantized(const Tensor& in1, const Tensor& in2, const Tensor& out,
                        tflite::ActivationFunctionType activation) {
    expectPerTensorQuantized(in1, "input1");
    expectPerTensorQuantized(in2, "input2");
    expectPerTensorQuantized(out, "output");
    if (out.type == TensorType::INT16 &&
        (in1.quant.zero_point0() != 0 || in2.quant.zero_point0() != 0 ||
         out.quant.zero_point0() != 0))
      throw ModelError("int16 MUL needs zero points 0, has " +
                       std::to_string(in1.quant.zero_point0()) + ", " +
                       std::to_string(in2.quant.zero_point0()) + " and " +
                       std::to_string(out.quant.zero_point0()));
    const QuantizedMultiplier qm = quantizeMultiplier(static_cast<double>(in1.quant.scale0()) *
                                                      static_cast<double>(in2.quant.scale0()) /
                                                      static_cast<double>(out.quant.scale0()));
    quant_ = {};
    quant_.input1_offset = -in1.quant.zero_point0();
    quant_.input2_offset = -in2.quant.zero_point0();
    quant_.output_multiplier = qm.multiplier;
    quant_.output_shift = qm.shift;
    quant_.output_offset = out.quant.zero_point0();
    quantizedActivationRange(activation, out, &quant_.act_min, &quant_.act_max);
  }

  TensorType type_ = TensorType::INT8;
  kernels::BroadcastLoops loops_;
  kernels::QuantizedMulParams quant_;
  kernels::FloatActivation float_;
  kernels::Int32Activation int32_;
};

}  // namespace

std::unique_ptr<Kernel> makeMulRef() {
  return std::make_unique<MulRef>();
}

}  // namespace hilsim::rt
