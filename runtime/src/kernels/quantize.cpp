// Reference QUANTIZE kernel: float32 -> int8/int16 (affine quantization) and integer ->
// integer requantization, with TensorFlow Lite Micro's arithmetic (quantize_common.cc).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"
#include "hilsim/rt/quant.h"

namespace hilsim::rt {
namespace {

struct QuantizeParams {
  const Tensor* input = nullptr;
  Tensor* output = nullptr;
  size_t count = 0;
  float output_scale = 0.0f;  // float path
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  int32_t multiplier = 0;  // requantize path: input scale / output scale
  int shift = 0;
};

using QuantizeFn = void (*)(const QuantizeParams&);

// x86's conversion of an out-of-range float to int32 yields INT32_MIN; TFLite Micro's
// static_cast compiles to it, so out-of-range inputs behave as on its x86 build.
inline int32_t toInt32LikeX86(float value) {
  if (value >= -2147483648.0f && value < 2147483648.0f) return static_cast<int32_t>(value);
  return std::numeric_limits<int32_t>::min();
}

inline int32_t wrappingAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

template <typename Out>
void affineQuantize(const QuantizeParams& p) {
  constexpr int32_t kMin = std::numeric_limits<Out>::min();
  constexpr int32_t kMax = std::numeric_limits<Out>::max();
  const float* input = p.input->as<float>();
  Out* output = p.output->as<Out>();
  for (size_t i = 0; i < p.count; ++i) {
    const int32_t rounded = toInt32LikeX86(std::round(input[i] / p.output_scale));
    const int32_t value = wrappingAdd(rounded, p.output_zero_point);
    output[i] = static_cast<Out>(std::clamp(value, kMin, kMax));
  }
}

template <typename In, typename Out>
void requantize(const QuantizeParams& p) {
  constexpr int32_t kMin = std::numeric_limits<Out>::min();
  constexpr int32_t kMax = std::numeric_limits<Out>::max();
  const In* input = p.input->as<In>();
  Out* output = p.output->as<Out>();
  for (size_t i = 0; i < p.count; ++i) {
    const int32_t centered = wrappingAdd(static_cast<int32_t>(input[i]), -p.input_zero_point);
    const int32_t scaled = multiplyByQuantizedMultiplier(centered, p.multiplier, p.shift);
    output[i] = static_cast<Out>(std::clamp(wrappingAdd(scaled, p.output_zero_point), kMin, kMax));
  }
}

// The requantize function for a pair of integer types, or nullptr if TFLite Micro lacks it.
QuantizeFn requantizeFor(TensorType in, TensorType out) {
  using T = TensorType;
  if (in == T::INT8) {
    if (out == T::INT8) return requantize<int8_t, int8_t>;
    if (out == T::INT16) return requantize<int8_t, int16_t>;
    if (out == T::INT32) return requantize<int8_t, int32_t>;
  } else if (in == T::INT16) {
    if (out == T::INT8) return requantize<int16_t, int8_t>;
    if (out == T::INT16) return requantize<int16_t, int16_t>;
    if (out == T::INT32) return requantize<int16_t, int32_t>;
  } else if (in == T::INT32) {
    if (out == T::INT8) return requantize<int32_t, int8_t>;
    if (out == T::INT16) return requantize<int32_t, int16_t>;
  }
  return nullptr;
}

class QuantizeRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 1, 1);
    const Tensor& in = requiredInput(node, 0, "input");
    Tensor& out = *node.output(0);
    if (in.elements() != out.elements())
      throw ModelError("input " + describe(in) + " and output " + describe(out) +
                       " have different element counts");
    expectQuantized(out, "output");
    if (out.quant.scale.size() != 1)
      throw ModelError("output must be quantized per tensor, has " +
                       std::to_string(out.quant.scale.size()) + " scales");

    params_ = {};
    params_.input = &in;
    params_.output = &out;
    params_.count = static_cast<size_t>(in.elements());
    params_.output_scale = out.quant.scale0();
    params_.output_zero_point = out.quant.zero_point0();
    run_ = nullptr;
    if (in.type == TensorType::FLOAT32) {
      if (out.type == TensorType::INT8) run_ = affineQuantize<int8_t>;
      if (out.type == TensorType::INT16) run_ = affineQuantize<int16_t>;
    } else {
      run_ = requantizeFor(in.type, out.type);
      if (run_) {
        expectQuantized(in, "input");
        params_.input_zero_point = in.quant.zero_point0();
        const QuantizedMultiplier qm = quantizeMultiplier(static_cast<double>(in.quant.scale0()) /
                                                          static_cast<double>(out.quant.scale0()));
        params_.multiplier = qm.multiplier;
        params_.shift = qm.shift;
      }
    }
    if (!run_)
      throw ModelError("unsupported conversion from " + describe(in) + " to " + describe(out) +
                       " (supported: float32 -> int8/int16; int8 -> int8/int16/int32; int16 -> "
                       "int8/int16/int32; int32 -> int8/int16)");

    OpWork work;
    work.elements = params_.count;
    return work;
  }

  void invoke(InvokeContext&, Node&) override { run_(params_); }

 private:
  QuantizeParams params_;
  QuantizeFn run_ = nullptr;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantizeRef() {
  return std::make_unique<QuantizeRef>();
}

}  // namespace hilsim::rt
