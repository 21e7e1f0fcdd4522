// Reference SOFTMAX kernel: float32, int8 input to int8 or int16 output, and int16 to int16
// (hilsim/kernels/softmax.h). The int16 kernel's exp and 1 / (1 + x) tables are generated here,
// in prepare, with TensorFlow Lite Micro's LUTPopulate<int16_t> arithmetic in float32. With the
// optimized library, int8 input takes its kernel (hilsim/kernels/optimized/softmax.h), whose exp
// table prepare computes into persistent memory.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/kernels/optimized/abi_calls.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"
#include "hilsim/rt/quant.h"

namespace hilsim::rt {
namespace {

constexpr int kScaledDiffIntegerBits = 5;  // exp() input format Q5.26

// TFLite's LUTPopulate<int16_t> (float arithmetic, in its order): `transform` sampled at the
// 512 interval starts of the input range (input_scale, input_zero_point over int16), each sample
// scaled to the output range and corrected by half the error a linear interpolation would make
// at the interval's midpoint, then clamped to int16; entry 512 is the range's end. Built with
// -ffp-contract=off, so no step is fused.
void populateInt16Lut(float input_scale, int32_t input_zero_point, float output_scale,
                      int32_t output_zero_point, float (*transform)(float), int16_t* lut) {
  const float input_min = input_scale * static_cast<float>(-32768 - input_zero_point);
  const float input_max = input_scale * static_cast<float>(32767 - input_zero_point);
  const float output_min = output_scale * static_cast<float>(-32768 - output_zero_point);
  const float output_max = output_scale * static_cast<float>(32767 - output_zero_point);
  constexpr int kSteps = kernels::kInt16LutEntries - 1;
  const float step = (input_max - input_min) / static_cast<float>(kSteps);
  const float half_step = step / 2.0f;
  const float output_scaling_inv = 65536.0f / (output_max - output_min);
  const auto toInt16 = [](float v) {
    return static_cast<int16_t>(std::min(std::max(v, -32768.0f), 32767.0f));
  };
  for (int i = 0; i < kSteps; ++i) {
    const float at = input_min + static_cast<float>(i) * step;
    const float val = transform(at);
    const float val_midpoint = transform(at + half_step);
    const float val_next = transform(input_min + static_cast<float>(i + 1) * step);
    const float sample_val = std::round(val * output_scaling_inv);
    const float midpoint_interp_val =
        std::round((val_next * output_scaling_inv + std::round(val * output_scaling_inv)) / 2.0f);
    const float midpoint_val = std::round(val_midpoint * output_scaling_inv);
    const float midpoint_err = midpoint_interp_val - midpoint_val;
    const float bias = std::round(midpoint_err / 2.0f);
    lut[i] = toInt16(sample_val - bias);
  }
  lut[kSteps] = toInt16(std::round(transform(input_max) * output_scaling_inv));
}

float expOf(float x) {
  return std::exp(x);
}

float oneOverOnePlus(float x) {
  return 1.0f / (1.0f + x);
}

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
      exp_table_ = nullptr;
      if (ctx.kernelLibrary() == timing::KernelLibrary::kOptimized) {
        int32_t* table =
            allocatePersistentArray<int32_t>(ctx, size_t(kernels::opt::kSoftmaxExpTableEntries));
        kernels::opt::softmaxInt8ExpTable(quant_, table);
        exp_table_ = table;
      }
    } else if (in.type == TensorType::INT16) {
      prepareInt16(ctx, in, out, beta);
      int16_.rows = rows;
      int16_.depth = depth;
    } else {
      throw ModelError("unsupported input " + describe(in) +
                       " (hilsim supports float32, int8 and int16 softmax)");
    }
    in_type_ = in.type;
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
    if (in_type_ == TensorType::INT16) {
      kernels::abi::SoftmaxInt16Call call{int16_, in.as<int16_t>(), exp_lut_, reciprocal_lut_,
                                          out.as<int16_t>()};
      runCall(ctx, call);
      return;
    }
    *result_ = {};
    if (exp_table_ && out_type_ == TensorType::INT16) {
      kernels::abi::OptSoftmaxInt8ToInt16Call call{quant_, exp_table_, in.as<int8_t>(),
                                                   out.as<int16_t>(), result_};
      runCall(ctx, call);
    } else if (exp_table_) {
      kernels::abi::OptSoftmaxInt8ToInt8Call call{quant_, exp_table_, in.as<int8_t>(),
                                                  out.as<int8_t>(), result_};
      runCall(ctx, call);
    } else if (out_type_ == TensorType::INT16) {
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
  // TFLite Micro's int16 SOFTMAX: an int16 output of zero point 0 and scale 1/32768 (within
  // 0.1%), the difference from the row max rescaled so that [-65535, 0] spans [-10, 0] in
  // beta * input scale units, and both tables generated once.
  void prepareInt16(PrepareContext& ctx, const Tensor& in, const Tensor& out, float beta) {
    expectQuantized(in, "input");
    expectQuantized(out, "output");
    if (out.type != TensorType::INT16)
      throw ModelError("int16 input needs an int16 output, has " + describe(out));
    const float out_scale = out.quant.scale0();
    const int32_t out_zero_point = out.quant.zero_point0();
    const float expected = 1.0f / 32768;
    if (out_zero_point != 0 || !(std::abs(out_scale - expected) <= 0.001f * expected))
      throw ModelError("int16 output must have zero point 0 and scale 1/32768, has " +
                       std::to_string(out_zero_point) + " and " + std::to_string(out_scale));
    const int32_t depth = in.shape.back();
    if (depth > kernels::kSoftmaxInt16MaxDepth)
      throw ModelError("rows of " + std::to_string(depth) + " elements: their sum of exps " +
                       "would overflow int32 (at most " +
                       std::to_string(kernels::kSoftmaxInt16MaxDepth) + ")");
    const double real_multiplier =
        static_cast<double>(in.quant.scale0()) * static_cast<double>(beta) / (10.0 / 65535.0);
    const QuantizedMultiplier qm = quantizeMultiplier(real_multiplier);
    int16_ = {};
    int16_.input_multiplier = qm.multiplier;
    int16_.input_left_shift = qm.shift;

    constexpr float kRange = 65535.0f;  // int16 max - min
    exp_lut_ = allocatePersistentArray<int16_t>(ctx, kernels::kInt16LutEntries);
    reciprocal_lut_ = allocatePersistentArray<int16_t>(ctx, kernels::kInt16LutEntries);
    // exp over [-10, 0] (exp(-10) is negligible in the sum), 1 / (1 + x) over [0, 1]; both
    // onto the symmetric output range [-1, 1].
    populateInt16Lut(10.0f / kRange, 32767, 2.0f / kRange, 0, expOf, exp_lut_);
    populateInt16Lut(1.0f / kRange, -32768, 2.0f / kRange, 0, oneOverOnePlus, reciprocal_lut_);
  }

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

  TensorType in_type_ = TensorType::FLOAT32;
  TensorType out_type_ = TensorType::FLOAT32;
  kernels::SoftmaxFloatParams float_;
  kernels::SoftmaxInt8Params quant_;
  kernels::SoftmaxInt16Params int16_;
  int16_t* exp_lut_ = nullptr;                     // persistent, kInt16LutEntries values
  int16_t* reciprocal_lut_ = nullptr;              // persistent, kInt16LutEntries values
  kernels::abi::SoftmaxResult* result_ = nullptr;  // persistent: the call reports into it
  const int32_t* exp_table_ = nullptr;  // persistent, optimized library only (int8 input)
};

}  // namespace

std::unique_ptr<Kernel> makeSoftmaxRef() {
  return std::make_unique<SoftmaxRef>();
}

}  // namespace hilsim::rt
