// Reference ADD kernel: int8, int16, float32 and int32 with broadcasting
// (hilsim/kernels/add.h).

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

class AddRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 2, 2);
    const Tensor& in1 = requiredInput(node, 0, "input1");
    const Tensor& in2 = requiredInput(node, 1, "input2");
    const Tensor& out = *node.output(0);
    const auto* options = node.op_fb->builtin_options_as_AddOptions();
    if (!options) throw ModelError("missing AddOptions");
    const auto activation = checkedActivation(options->fused_activation_function());
    expectSameTypes(in1, in2, out);
    loops_ = planBinaryBroadcast(in1, in2, out);
    type_ = out.type;
    switch (type_) {
      case TensorType::INT8:
      case TensorType::INT16:
        quant_ = prepareQuantizedAdd(in1, in2, out, activation, AddScaleMath::kDouble);
        break;
      case TensorType::FLOAT32:
        float_ = floatActivation(activation);
        break;
      case TensorType::INT32:
        // TFLite Micro adds int32 over the full range, whatever the fused activation.
        expectUnquantized(in1, "input1");
        expectUnquantized(in2, "input2");
        int32_ = int32Activation(tflite::ActivationFunctionType::NONE);
        break;
      default:
        throw ModelError("unsupported type " + describe(out) +
                         " (hilsim supports int8, int16, float32 and int32 ADD)");
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
        run<kernels::abi::AddInt8Call>(ctx, quant_, in1, in2, out);
        break;
      case TensorType::INT16:
        run<kernels::abi::AddInt16Call>(ctx, quant_, in1, in2, out);
        break;
      case TensorType::FLOAT32:
        run<kernels::abi::AddFloatCall>(ctx, float_, in1, in2, out);
        break;
      default:
        run<kernels::abi::AddInt32Call>(ctx, int32_, in1, in2, out);
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

  TensorType type_ = TensorType::INT8;
  kernels::BroadcastLoops loops_;
  kernels::QuantizedAddParams quant_;
  kernels::FloatActivation float_;
  kernels::Int32Activation int32_;
};

}  // namespace

std::unique_ptr<Kernel> makeAddRef() {
  return std::make_unique<AddRef>();
}

}  // namespace hilsim::rt
