// Reference LOGISTIC and TANH kernels: float32, int8 and int16 (hilsim/kernels/logistic.h,
// tanh.h), prepared like TensorFlow Lite Micro's CalculateArithmeticOpDataLogistic and
// TanhPrepare. One kernel serves both; their ActivationOp below says where they differ.

#include <cstdint>
#include <limits>
#include <string>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/kernels/activation_scaling.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

struct ActivationOp {
  const char* name;  // in errors
  // The int8 output is read with a fixed scale and this zero point.
  int32_t int8_output_zero_point;
  // An int16 input scale of 2^-11 also takes the power-of-two path (int16ActivationScaling).
  bool int16_allow_left_shift_one;
};

// LOGISTIC's int8 output is read as scale 1/256 and zero point -128; TFLite Micro checks only
// the zero point, and so does this kernel. TANH's is read as scale 1/128 and zero point 0;
// TFLite Micro checks neither, but a zero point other than 0 would silently shift every result,
// so this kernel rejects it.
constexpr ActivationOp kLogistic = {"logistic", -128, false};
constexpr ActivationOp kTanh = {"tanh", 0, true};

// The operator's kernel calls for int8, int16 and float32 (abi/calls.h).
template <class Int8Call, class Int16Call, class FloatCall>
class ActivationRef final : public Kernel {
 public:
  explicit ActivationRef(const ActivationOp& op) : op_(op) {}

  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 1, 1);
    const Tensor& in = requiredInput(node, 0, "input");
    const Tensor& out = *node.output(0);
    if (out.shape != in.shape)
      throw ModelError("output " + describe(out) + " does not have the shape of input " +
                       describe(in));
    if (out.type != in.type)
      throw ModelError("output " + describe(out) + " does not have the type of input " +
                       describe(in));
    if (in.elements() > std::numeric_limits<int32_t>::max())
      throw ModelError("input " + describe(in) + " has more than 2^31 - 1 elements");
    const int32_t count = static_cast<int32_t>(in.elements());
    type_ = in.type;
    switch (in.type) {
      case TensorType::FLOAT32:
        count_ = count;
        break;
      case TensorType::INT8:
        prepareInt8(in, out, count);
        break;
      case TensorType::INT16:
        prepareInt16(in, out, count);
        break;
      default:
        throw ModelError("unsupported input " + describe(in) +
                         " (hilsim supports float32, int8 and int16 " + op_.name + ")");
    }
    OpWork work;
    work.elements = static_cast<uint64_t>(count);
    return work;
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    const Tensor& in = *node.input(0);
    Tensor& out = *node.output(0);
    if (type_ == TensorType::INT8) {
      Int8Call call{int8_, in.as<int8_t>(), out.as<int8_t>()};
      runCall(ctx, call);
    } else if (type_ == TensorType::INT16) {
      Int16Call call{int16_, in.as<int16_t>(), out.as<int16_t>()};
      runCall(ctx, call);
    } else {
      FloatCall call{count_, in.as<float>(), out.as<float>()};
      runCall(ctx, call);
    }
  }

 private:
  void prepareInt8(const Tensor& in, const Tensor& out, int32_t count) {
    expectQuantized(in, "input");
    expectQuantized(out, "output");
    const int32_t in_zero_point = in.quant.zero_point0();
    if (in_zero_point < -128 || in_zero_point > 127)
      throw ModelError("input zero point " + std::to_string(in_zero_point) +
                       " is outside the int8 range");
    if (out.quant.zero_point0() != op_.int8_output_zero_point)
      throw ModelError("int8 output must have zero point " +
                       std::to_string(op_.int8_output_zero_point) + ", has " +
                       std::to_string(out.quant.zero_point0()));
    int8_ = {};
    int8_.count = count;
    int8_.input_zero_point = in_zero_point;
    if (const char* why = kernels::int8ActivationScaling(in.quant.scale0(), &int8_))
      throw ModelError(std::string(why) + " (input " + describe(in) + ", scale " +
                       std::to_string(in.quant.scale0()) + ")");
  }

  // Symmetric quantization only: zero points 0, output scale 2^-15; an input scale of 2^-12
  // (and for TANH 2^-11) takes the power-of-two path.
  void prepareInt16(const Tensor& in, const Tensor& out, int32_t count) {
    expectQuantized(in, "input");
    expectQuantized(out, "output");
    if (in.quant.zero_point0() != 0 || out.quant.zero_point0() != 0)
      throw ModelError("int16 input and output must have zero point 0, have " +
                       std::to_string(in.quant.zero_point0()) + " and " +
                       std::to_string(out.quant.zero_point0()));
    int out_log2 = 0;
    if (!kernels::checkedLog2(out.quant.scale0(), &out_log2) || out_log2 != -15)
      throw ModelError("int16 output scale must be 2^-15, is " +
                       std::to_string(out.quant.scale0()));
    int16_ = {};
    int16_.count = count;
    if (const char* why = kernels::int16ActivationScaling(in.quant.scale0(),
                                                          op_.int16_allow_left_shift_one, &int16_))
      throw ModelError(std::string(why) + " (input " + describe(in) + ", scale " +
                       std::to_string(in.quant.scale0()) + ")");
  }

  const ActivationOp& op_;
  TensorType type_ = TensorType::FLOAT32;
  int32_t count_ = 0;
  kernels::Int8ActivationParams int8_;
  kernels::Int16ActivationParams int16_;
};

}  // namespace

std::unique_ptr<Kernel> makeLogisticRef() {
  namespace abi = kernels::abi;
  return std::make_unique<
      ActivationRef<abi::LogisticInt8Call, abi::LogisticInt16Call, abi::LogisticFloatCall>>(
      kLogistic);
}

std::unique_ptr<Kernel> makeTanhRef() {
  namespace abi = kernels::abi;
  return std::make_unique<ActivationRef<abi::TanhInt8Call, abi::TanhInt16Call, abi::TanhFloatCall>>(
      kTanh);
}

}  // namespace hilsim::rt
