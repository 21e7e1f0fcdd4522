// Reference MAXIMUM and MINIMUM kernels: int8, int16, int32, int64 and float32 with broadcasting
// (hilsim/kernels/maximum_minimum.h). Like TFLite Micro they compare the stored values, so
// quantized inputs are only meaningful with the output's scale and zero point.

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

enum class Extremum : uint8_t { kMaximum, kMinimum };

class MaximumMinimumRef final : public Kernel {
 public:
  explicit MaximumMinimumRef(Extremum extremum) : extremum_(extremum) {}

  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 2, 2);
    const Tensor& in1 = requiredInput(node, 0, "input1");
    const Tensor& in2 = requiredInput(node, 1, "input2");
    const Tensor& out = *node.output(0);
    expectSameTypes(in1, in2, out);
    loops_ = planBinaryBroadcast(in1, in2, out);
    type_ = out.type;
    switch (type_) {
      case TensorType::INT8:
      case TensorType::INT16:
      case TensorType::INT32:
      case TensorType::INT64:
      case TensorType::FLOAT32:
        break;
      default:
        throw ModelError("unsupported type " + describe(out) +
                         " (hilsim supports int8, int16, int32, int64 and float32)");
    }
    expectValidQuantizationIfPresent(in1, "input1");
    expectValidQuantizationIfPresent(in2, "input2");
    expectValidQuantizationIfPresent(out, "output");
    OpWork work;
    work.elements = static_cast<uint64_t>(out.elements());
    return work;
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    namespace abi = kernels::abi;
    const Tensor& in1 = *node.input(0);
    const Tensor& in2 = *node.input(1);
    Tensor& out = *node.output(0);
    const bool max = extremum_ == Extremum::kMaximum;
    switch (type_) {
      case TensorType::INT8:
        max ? run<abi::MaximumInt8Call>(ctx, in1, in2, out)
            : run<abi::MinimumInt8Call>(ctx, in1, in2, out);
        break;
      case TensorType::INT16:
        max ? run<abi::MaximumInt16Call>(ctx, in1, in2, out)
            : run<abi::MinimumInt16Call>(ctx, in1, in2, out);
        break;
      case TensorType::INT32:
        max ? run<abi::MaximumInt32Call>(ctx, in1, in2, out)
            : run<abi::MinimumInt32Call>(ctx, in1, in2, out);
        break;
      case TensorType::INT64:
        max ? run<abi::MaximumInt64Call>(ctx, in1, in2, out)
            : run<abi::MinimumInt64Call>(ctx, in1, in2, out);
        break;
      default:
        max ? run<abi::MaximumFloatCall>(ctx, in1, in2, out)
            : run<abi::MinimumFloatCall>(ctx, in1, in2, out);
        break;
    }
  }

 private:
  template <class Call>
  void run(InvokeContext& ctx, const Tensor& in1, const Tensor& in2, Tensor& out) const {
    using T = std::remove_pointer_t<decltype(Call::output)>;
    Call call{loops_, in1.as<T>(), in2.as<T>(), out.as<T>()};
    runCall(ctx, call);
  }

  Extremum extremum_;
  TensorType type_ = TensorType::INT8;
  kernels::BroadcastLoops loops_;
};

}  // namespace

std::unique_ptr<Kernel> makeMaximumRef() {
  return std::make_unique<MaximumMinimumRef>(Extremum::kMaximum);
}

std::unique_ptr<Kernel> makeMinimumRef() {
  return std::make_unique<MaximumMinimumRef>(Extremum::kMinimum);
}

}  // namespace hilsim::rt
