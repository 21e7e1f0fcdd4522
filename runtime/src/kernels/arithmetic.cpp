// Reference ADD, SUB and MUL kernels: int8, int16, float32 and int32 with broadcasting
// (hilsim/kernels/add.h, sub.h, mul.h). One kernel prepares and invokes all three; what differs
// between them, as in TensorFlow Lite Micro's prepare, is in their ArithmeticOp below. With the
// optimized library, int8 ADD and MUL run its kernels (hilsim/kernels/optimized/elementwise.h).

#include <cstdint>
#include <string>
#include <type_traits>

#include "elementwise_common.h"
#include "hilsim/kernels/abi/calls.h"
#include "hilsim/kernels/optimized/abi_calls.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

using tflite::ActivationFunctionType;

// An operator: its name, its options' fused activation (ModelError if they are missing), its
// int8/int16 parameters, and what its int32 path accepts.
template <class QuantParams>
struct ArithmeticOp {
  const char* name;
  ActivationFunctionType (*activation)(const Node& node);
  QuantParams (*prepare_quantized)(const Tensor& in1, const Tensor& in2, const Tensor& out,
                                   ActivationFunctionType activation);
  Int32Rules int32;
};

template <class Options>
ActivationFunctionType optionsActivation(const Options* options, const char* options_name) {
  if (!options) throw ModelError(std::string("missing ") + options_name);
  return options->fused_activation_function();
}

// TFLite Micro's MUL: one multiplier for in1 x in2 / out; int16 only with zero points 0.
kernels::QuantizedMulParams prepareQuantizedMul(const Tensor& in1, const Tensor& in2,
                                                const Tensor& out,
                                                ActivationFunctionType activation) {
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
  kernels::QuantizedMulParams p;
  p.input1_offset = -in1.quant.zero_point0();
  p.input2_offset = -in2.quant.zero_point0();
  p.output_multiplier = qm.multiplier;
  p.output_shift = qm.shift;
  p.output_offset = out.quant.zero_point0();
  quantizedActivationRange(activation, out, &p.act_min, &p.act_max);
  return p;
}

// TFLite Micro's ADD forms its rescaling factors in double, its SUB in float32. Its int32 ADD
// takes unquantized inputs (the output is not checked) and adds over the full int32 range,
// whatever the fused activation; its int32 SUB takes unquantized inputs and output and applies
// the activation; its int32 MUL checks neither.
const ArithmeticOp<kernels::QuantizedAddParams> kAdd = {
    "ADD",
    [](const Node& node) {
      return optionsActivation(node.op_fb->builtin_options_as_AddOptions(), "AddOptions");
    },
    [](const Tensor& in1, const Tensor& in2, const Tensor& out, ActivationFunctionType a) {
      return prepareQuantizedAdd(in1, in2, out, a, AddScaleMath::kDouble);
    },
    {/*inputs_unquantized=*/true, /*output_unquantized=*/false, /*fused_activation=*/false}};
const ArithmeticOp<kernels::QuantizedAddParams> kSub = {
    "SUB",
    [](const Node& node) {
      return optionsActivation(node.op_fb->builtin_options_as_SubOptions(), "SubOptions");
    },
    [](const Tensor& in1, const Tensor& in2, const Tensor& out, ActivationFunctionType a) {
      return prepareQuantizedAdd(in1, in2, out, a, AddScaleMath::kFloat);
    },
    {/*inputs_unquantized=*/true, /*output_unquantized=*/true, /*fused_activation=*/true}};
const ArithmeticOp<kernels::QuantizedMulParams> kMul = {
    "MUL",
    [](const Node& node) {
      return optionsActivation(node.op_fb->builtin_options_as_MulOptions(), "MulOptions");
    },
    prepareQuantizedMul,
    {/*inputs_unquantized=*/false, /*output_unquantized=*/false, /*fused_activation=*/true}};

// The operator's kernel calls for int8, int16, float32 and int32 (abi/calls.h), and the optimized
// library's int8 call (Int8Call itself where it has none).
template <class Int8Call, class Int16Call, class FloatCall, class Int32Call,
          class OptInt8Call = Int8Call>
class ArithmeticRef final : public Kernel {
 public:
  using QuantParams = decltype(Int8Call::params);

  explicit ArithmeticRef(const ArithmeticOp<QuantParams>& op) : op_(op) {}

  OpWork prepare(PrepareContext& ctx, Node& node) override {
    expectArity(node, 2, 2);
    const Tensor& in1 = requiredInput(node, 0, "input1");
    const Tensor& in2 = requiredInput(node, 1, "input2");
    const Tensor& out = *node.output(0);
    const ActivationFunctionType activation = checkedActivation(op_.activation(node));
    expectSameTypes(in1, in2, out);
    loops_ = planBinaryBroadcast(in1, in2, out);
    type_ = out.type;
    optimized_int8_ = !std::is_same_v<OptInt8Call, Int8Call> &&
                      ctx.kernelLibrary() == timing::KernelLibrary::kOptimized;
    switch (type_) {
      case TensorType::INT8:
      case TensorType::INT16:
        quant_ = op_.prepare_quantized(in1, in2, out, activation);
        break;
      case TensorType::FLOAT32:
        float_ = floatActivation(activation);
        break;
      case TensorType::INT32:
        int32_ = prepareInt32(op_.int32, in1, in2, out, activation);
        break;
      default:
        throw ModelError("unsupported type " + describe(out) +
                         " (hilsim supports int8, int16, float32 and int32 " + op_.name + ")");
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
        if (optimized_int8_)
          run<OptInt8Call>(ctx, quant_, in1, in2, out);
        else
          run<Int8Call>(ctx, quant_, in1, in2, out);
        break;
      case TensorType::INT16:
        run<Int16Call>(ctx, quant_, in1, in2, out);
        break;
      case TensorType::FLOAT32:
        run<FloatCall>(ctx, float_, in1, in2, out);
        break;
      default:
        run<Int32Call>(ctx, int32_, in1, in2, out);
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

  const ArithmeticOp<QuantParams>& op_;
  TensorType type_ = TensorType::INT8;
  bool optimized_int8_ = false;  // int8: the optimized library's kernel
  kernels::BroadcastLoops loops_;
  QuantParams quant_;
  kernels::FloatActivation float_;
  kernels::Int32Activation int32_;
};

}  // namespace

std::unique_ptr<Kernel> makeAddRef() {
  namespace abi = kernels::abi;
  return std::make_unique<ArithmeticRef<abi::AddInt8Call, abi::AddInt16Call, abi::AddFloatCall,
                                        abi::AddInt32Call, abi::OptAddInt8Call>>(kAdd);
}

std::unique_ptr<Kernel> makeSubRef() {
  namespace abi = kernels::abi;
  return std::make_unique<
      ArithmeticRef<abi::SubInt8Call, abi::SubInt16Call, abi::SubFloatCall, abi::SubInt32Call>>(
      kSub);
}

std::unique_ptr<Kernel> makeMulRef() {
  namespace abi = kernels::abi;
  return std::make_unique<ArithmeticRef<abi::MulInt8Call, abi::MulInt16Call, abi::MulFloatCall,
                                        abi::MulInt32Call, abi::OptMulInt8Call>>(kMul);
}

}  // namespace hilsim::rt
