// Reference HARD_SWISH kernel: int8 and float32 (hilsim/kernels/hard_swish.h).

#include <cstdint>
#include <limits>
#include <string>

#include "elementwise_common.h"
#include "hilsim/kernels/abi/calls.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

// TFLite's DownScaleInt32ToInt16Multiplier: a Q31 multiplier rounded to Q15.
int16_t downScaleToInt16(int32_t multiplier) {
  constexpr int32_t kRoundingOffset = 1 << 15;
  if (multiplier >= std::numeric_limits<int32_t>::max() - kRoundingOffset)
    return std::numeric_limits<int16_t>::max();
  return static_cast<int16_t>((multiplier + kRoundingOffset) >> 16);
}

class HardSwishRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 1, 1);
    const Tensor& in = requiredInput(node, 0, "input");
    const Tensor& out = *node.output(0);
    if (in.shape != out.shape)
      throw ModelError("output " + describe(out) + " does not have the shape of input " +
                       describe(in));
    if (in.type != out.type)
      throw ModelError("input " + describe(in) + " and output " + describe(out) +
                       " must have one type");
    type_ = in.type;
    params_ = {};
    params_.count = static_cast<int32_t>(in.elements());
    if (type_ == TensorType::INT8)
      prepareInt8(in, out);
    else if (type_ != TensorType::FLOAT32)
      throw ModelError("unsupported type " + describe(in) +
                       " (hilsim supports int8 and float32 HARD_SWISH)");
    OpWork work;
    work.elements = static_cast<uint64_t>(out.elements());
    return work;
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    const Tensor& in = *node.input(0);
    Tensor& out = *node.output(0);
    if (type_ == TensorType::INT8) {
      kernels::abi::HardSwishInt8Call call{params_, in.as<int8_t>(), out.as<int8_t>()};
      runCall(ctx, call);
    } else {
      kernels::abi::HardSwishFloatCall call{params_.count, in.as<float>(), out.as<float>()};
      runCall(ctx, call);
    }
  }

 private:
  void prepareInt8(const Tensor& in, const Tensor& out) {
    expectPerTensorQuantized(in, "input");
    expectPerTensorQuantized(out, "output");
    params_.input_zero_point = in.quant.zero_point0();
    params_.output_zero_point = out.quant.zero_point0();
    // The scales are combined in float32, as TFLite Micro does, before widening.
    const float hires_input_scale = (1.0f / 128.0f) * in.quant.scale0();
    const float reluish_scale = 3.0f / 32768.0f;
    const QuantizedMultiplier output_qm =
        quantizeMultiplier(static_cast<double>(hires_input_scale / out.quant.scale0()));
    if (output_qm.shift > 0)
      throw ModelError("input scale / (128 * output scale) = " +
                       std::to_string(hires_input_scale / out.quant.scale0()) +
                       " must be below 1 (input " + describe(in) + ", output " + describe(out) +
                       ")");
    params_.output_multiplier_fixedpoint_int16 = downScaleToInt16(output_qm.multiplier);
    params_.output_multiplier_exponent = output_qm.shift;
    const QuantizedMultiplier reluish_qm =
        quantizeMultiplier(static_cast<double>(hires_input_scale / reluish_scale));
    params_.reluish_multiplier_fixedpoint_int16 = downScaleToInt16(reluish_qm.multiplier);
    params_.reluish_multiplier_exponent = reluish_qm.shift;
  }

  TensorType type_ = TensorType::INT8;
  kernels::HardSwishParams params_;
};

}  // namespace

std::unique_ptr<Kernel> makeHardSwishRef() {
  return std::make_unique<HardSwishRef>();
}

}  // namespace hilsim::rt
