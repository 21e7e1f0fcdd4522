// Reference QUANTIZE kernel: float32 -> int8/int16 (affine quantization) and integer -> integer
// requantization among int8, int16, int32 and uint8 <-> int8 (hilsim/kernels/quantize.h), the
// pairs TensorFlow Lite Micro's quantize_common.cc supports.

#include <cstdint>
#include <string>

#include "elementwise_common.h"
#include "hilsim/kernels/quantize.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"
#include "hilsim/rt/quant.h"

namespace hilsim::rt {
namespace {

// One conversion: the freestanding function with its tensor types erased.
using QuantizeFn = void (*)(const kernels::AffineQuantizeParams&, const kernels::RequantizeParams&,
                            const uint8_t* input, uint8_t* output);

template <typename Out, void (*kFn)(const kernels::AffineQuantizeParams&, const float*, Out*)>
void runAffine(const kernels::AffineQuantizeParams& p, const kernels::RequantizeParams&,
               const uint8_t* input, uint8_t* output) {
  kFn(p, reinterpret_cast<const float*>(input), reinterpret_cast<Out*>(output));
}

template <typename In, typename Out, void (*kFn)(const kernels::RequantizeParams&, const In*, Out*)>
void runRequantize(const kernels::AffineQuantizeParams&, const kernels::RequantizeParams& p,
                   const uint8_t* input, uint8_t* output) {
  kFn(p, reinterpret_cast<const In*>(input), reinterpret_cast<Out*>(output));
}

// The conversion for a pair of types, or nullptr if TFLite Micro lacks it.
QuantizeFn conversionFor(TensorType in, TensorType out) {
  using T = TensorType;
  namespace k = kernels;
  if (in == T::FLOAT32) {
    if (out == T::INT8) return runAffine<int8_t, k::quantizeFloatToInt8>;
    if (out == T::INT16) return runAffine<int16_t, k::quantizeFloatToInt16>;
  } else if (in == T::INT8) {
    if (out == T::INT8) return runRequantize<int8_t, int8_t, k::requantizeInt8ToInt8>;
    if (out == T::INT16) return runRequantize<int8_t, int16_t, k::requantizeInt8ToInt16>;
    if (out == T::INT32) return runRequantize<int8_t, int32_t, k::requantizeInt8ToInt32>;
    if (out == T::UINT8) return runRequantize<int8_t, uint8_t, k::requantizeInt8ToUint8>;
  } else if (in == T::UINT8) {
    if (out == T::INT8) return runRequantize<uint8_t, int8_t, k::requantizeUint8ToInt8>;
  } else if (in == T::INT16) {
    if (out == T::INT8) return runRequantize<int16_t, int8_t, k::requantizeInt16ToInt8>;
    if (out == T::INT16) return runRequantize<int16_t, int16_t, k::requantizeInt16ToInt16>;
    if (out == T::INT32) return runRequantize<int16_t, int32_t, k::requantizeInt16ToInt32>;
  } else if (in == T::INT32) {
    if (out == T::INT8) return runRequantize<int32_t, int8_t, k::requantizeInt32ToInt8>;
    if (out == T::INT16) return runRequantize<int32_t, int16_t, k::requantizeInt32ToInt16>;
  }
  return nullptr;
}

class QuantizeRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 1, 1);
    const Tensor& in = requiredInput(node, 0, "input");
    const Tensor& out = *node.output(0);
    if (in.elements() != out.elements())
      throw ModelError("input " + describe(in) + " and output " + describe(out) +
                       " have different element counts");
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
    return work;
  }

  void invoke(InvokeContext&, Node& node) override {
    run_(affine_, requantize_, node.input(0)->data, node.output(0)->data);
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
