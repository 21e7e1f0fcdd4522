// Reference QUANTIZE kernel: float32 -> int8/int16 (affine quantization) and integer -> integer
// requantization among int8, int16, int32 and uint8 <-> int8 (hilsim/kernels/quantize.h), the
// pairs TensorFlow Lite Micro's quantize_common.cc supports.

#include <cstdint>
#include <string>
#include <type_traits>

#include "elementwise_common.h"
#include "hilsim/kernels/abi/calls.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"
#include "hilsim/rt/quant.h"

namespace hilsim::rt {
namespace {

// One conversion: its kernel call with the tensor types erased.
using QuantizeFn = void (*)(InvokeContext& ctx, const kernels::AffineQuantizeParams&,
                            const kernels::RequantizeParams&, const uint8_t* input,
                            uint8_t* output);

template <class Call>
void runConversion(InvokeContext& ctx, const kernels::AffineQuantizeParams& affine,
                   const kernels::RequantizeParams& requantize, const uint8_t* input,
                   uint8_t* output) {
  using In = std::remove_pointer_t<decltype(Call::input)>;
  using Out = std::remove_pointer_t<decltype(Call::output)>;
  Call call;
  if constexpr (std::is_same_v<decltype(Call::params), kernels::AffineQuantizeParams>)
    call.params = affine;
  else
    call.params = requantize;
  call.input = reinterpret_cast<In*>(input);
  call.output = reinterpret_cast<Out*>(output);
  runCall(ctx, call);
}

// The conversion for a pair of types, or nullptr if TFLite Micro lacks it.
QuantizeFn conversionFor(TensorType in, TensorType out) {
  using T = TensorType;
  namespace abi = kernels::abi;
  if (in == T::FLOAT32) {
    if (out == T::INT8) return runConversion<abi::QuantizeFloatToInt8Call>;
    if (out == T::INT16) return runConversion<abi::QuantizeFloatToInt16Call>;
  } else if (in == T::INT8) {
    if (out == T::INT8) return runConversion<abi::RequantizeInt8ToInt8Call>;
    if (out == T::INT16) return runConversion<abi::RequantizeInt8ToInt16Call>;
    if (out == T::INT32) return runConversion<abi::RequantizeInt8ToInt32Call>;
    if (out == T::UINT8) return runConversion<abi::RequantizeInt8ToUint8Call>;
  } else if (in == T::UINT8) {
    if (out == T::INT8) return runConversion<abi::RequantizeUint8ToInt8Call>;
  } else if (in == T::INT16) {
    if (out == T::INT8) return runConversion<abi::RequantizeInt16ToInt8Call>;
    if (out == T::INT16) return runConversion<abi::RequantizeInt16ToInt16Call>;
    if (out == T::INT32) return runConversion<abi::RequantizeInt16ToInt32Call>;
  } else if (in == T::INT32) {
    if (out == T::INT8) return runConversion<abi::RequantizeInt32ToInt8Call>;
    if (out == T::INT16) return runConversion<abi::RequantizeInt32ToInt16Call>;
  }
  return nullptr;
}

class QuantizeRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 1, 1);
    const Tensor& in = requiredInput(node, 0, "input");
    const Tensor& out = *node.output(0);
    expectSameElementCount(in, out);
    run_ = conversionFor(in.type, out.type);
    if (!run_)
      throw ModelError("unsupported conversion from " + describe(in) + " to " + describe(out) +
                       " (supported: float32 -> int8/int16; int8 -> int8/int16/int32/uint8; "
                       "uint8 -> int8; int16 -> int8/int16/int32; int32 -> int8/int16)");
    expectPerTensorQuantized(out, "output");

    const auto count = static_cast<int32_t>(in.elements());
    affine_ = {};
    requantize_ = {};
    affine_.count = count;
    affine_.scale = out.quant.scale0();
    affine_.zero_point = out.quant.zero_point0();
    if (in.type != TensorType::FLOAT32) {
      expectPerTensorQuantized(in, "input");
      const QuantizedMultiplier qm = quantizeMultiplier(static_cast<double>(in.quant.scale0()) /
                                                        static_cast<double>(out.quant.scale0()));
      requantize_.count = count;
      requantize_.multiplier = qm.multiplier;
      requantize_.shift = qm.shift;
      requantize_.input_zero_point = in.quant.zero_point0();
      requantize_.output_zero_point = out.quant.zero_point0();
    }
    OpWork work;
    work.elements = static_cast<uint64_t>(count);
    work.float_input = in.type == TensorType::FLOAT32;
    return work;
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    run_(ctx, affine_, requantize_, node.input(0)->data, node.output(0)->data);
  }

 private:
  kernels::AffineQuantizeParams affine_;
  kernels::RequantizeParams requantize_;
  QuantizeFn run_ = nullptr;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantizeRef() {
  return std::make_unique<QuantizeRef>();
}

}  // namespace hilsim::rt
