// Reference SOFTMAX kernel: float32, and int8 input to int8 or int16 output
// (hilsim/kernels/softmax.h).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"
#include "hilsim/rt/quant.h"

namespace hilsim::rt {
namespace {

constexpr int kScaledDiffIntegerBits = 5;  // exp() input format Q5.26

class SoftmaxRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext& ctx, Node& node) override {
    expectArity(node, 1, 1);
    const Tensor& in = requiredInput(node, 0, "input");
    Tensor& out = *node.output(0);
    if (in.rank() < 1) throw ModelError("input must have rank >= 1, is " + describe(in));
    if (out.shape != in.shape)
      throw ModelError("output " + describe(out) + " does not have the shape of input " +
                       describe(in));
    // TFLite Micro's parser leaves beta at 0 when the options are absent.
    const auto* options = node.op_fb->builtin_options_as_SoftmaxOptions();
    const float beta = options ? options->beta() : 0.0f;

    const int32_t depth = in.shape.back();
    const int32_t rows = depth == 0 ? 0 : static_cast<int32_t>(in.elements() / depth);
    float_ = {};
    quant_ = {};
    float_.rows = quant_.rows = rows;
    float_.depth = quant_.depth = depth;
    out_type_ = out.type;
    if (in.type == TensorType::FLOAT32) {
      if (out.type != TensorType::FLOAT32)
        throw ModelError("float32 input needs a float32 output, has " + describe(out));
      float_.beta = beta;
    } else if (in.type == TensorType::INT8) {
      prepareInt8(in, out, beta);
      result_ = allocatePersistentArray<kernels::abi::SoftmaxResult>(ctx, 1);
    } else {
      throw ModelError("unsupported input " + describe(in) +
                       " (hilsim supports float32 and int8 softmax)");
    }
    OpWork work;
    work.elements = static_cast<uint64_t>(in.elements());
    return work;
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    const Tensor& in = *node.input(0);
    Tensor& out = *node.output(0);
    if (out_type_ == TensorType::FLOAT32) {
      kernels::abi::SoftmaxFloatCall call{float_, in.as<float>(), out.as<float>()};
      runCall(ctx, call);
      return;
    }
    *result_ = {};
    if (out_type_ == TensorType::INT16) {
      kernels::abi::SoftmaxInt8ToInt16Call call{quant_, in.as<int8_t>(), out.as<int16_t>(),
                                                result_};
      runCall(ctx, call);
    } else {
      kernels::abi::SoftmaxInt8ToInt8Call call{quant_, in.as<int8_t>(), out.as<int8_t>(), result_};
      runCall(ctx, call);
    }
    // TFLite Micro stops here (TFLITE_CHECK) too: the row's sum of exps overflowed its format.
    if (result_->status == kernels::SoftmaxStatus::kSumOfExpsOverflow)
      throw ModelError("sum of exponentials of row " + std::to_string(result_->failed_row) +
                       " overflows the Q12.19 accumulator");
  }

 private:
  void prepareInt8(const Tensor& in, const Tensor& out, float beta) {
    expectQuantized(in, "input");
    expectQuantized(out, "output");
    const float out_scale = out.quant.scale0();
    const int32_t out_zero_point = out.quant.zero_point0();
    if (out.type == TensorType::INT16) {
      // TFLite Micro: zero point -32768, scale 1/65536 within 0.1%.
      const float expected = 1.0f / 65536;
      if (out_zero_point != -32768 || std::abs(out_scale - expected) > 0.001f * expected)
        throw ModelError("int16 output must have zero point -32768 and scale 1/65536, has " +
                         std::to_string(out_zero_point) + " and " + std::to_string(out_scale));
    } else if (out.type == TensorType::INT8) {
      if (out_zero_point != -128 || out_scale != 1.0f / 256)
        throw ModelError("int8 output must have zero point -128 and scale 1/256, has " +
                         std::to_string(out_zero_point) + " and " + std::to_string(out_scale));
    } else {
      throw ModelError("int8 input needs an int8 or int16 output, has " + describe(out));
    }

    // PreprocessSoftmaxScaling: beta * scale as a Q(31 - 5) multiplier, capped at 2^31 - 1.
    const double real_multiplier =
        std::min(static_cast<double>(beta) * static_cast<double>(in.quant.scale0()) *
                     static_cast<double>(int64_t{1} << (31 - kScaledDiffIntegerBits)),
                 static_cast<double>((int64_t{1} << 31) - 1));
    if (!(real_multiplier > 1.0))
      throw ModelError("beta * input scale * 2^26 = " + std::to_string(real_multiplier) +
                       " must exceed 1 (beta " + std::to_string(beta) + ", input scale " +
                       std::to_string(in.quant.scale0()) + ")");
    const QuantizedMultiplier qm = quantizeMultiplier(real_multiplier);
    quant_.input_multiplier = qm.multiplier;
    quant_.input_left_shift = qm.shift;
    // CalculateInputRadius: the largest difference whose rescaled value still fits in Q5.26.
    const double max_input_rescaled =
        1.0 * ((1 << kScaledDiffIntegerBits) - 1) *
        static_cast<double>(int64_t{1} << (31 - kScaledDiffIntegerBits)) /
        static_cast<double>(int64_t{1} << qm.shift);
    quant_.diff_min = -static_cast<int32_t>(std::floor(max_input_rescaled));
  }

  TensorType out_type_ = TensorType::FLOAT32;
  kernels::SoftmaxFloatParams float_;
  kernels::SoftmaxInt8Params quant_;
  kernels::abi::SoftmaxResult* result_ = nullptr;  // persistent: the call reports into it
};

}  // namespace

std::unique_ptr<Kernel> makeSoftmaxRef() {
  return std::make_unique<SoftmaxRef>();
}

}  // namespace hilsim::rt
