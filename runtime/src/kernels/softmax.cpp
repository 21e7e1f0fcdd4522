// Reference SOFTMAX kernel with TensorFlow Lite Micro's arithmetic (softmax_common.cc,
// reference/softmax.h): float32 as max / exp / sum / divide in float32, and int8 input to int8
// or int16 output through gemmlowp fixed point (exp in Q5.26, sum in Q12.19, reciprocal in Q0).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "hilsim/kernels/fixed_point.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"
#include "hilsim/rt/quant.h"

namespace hilsim::rt {
namespace {

constexpr int kScaledDiffIntegerBits = 5;     // exp() input format Q5.26
constexpr int kAccumulationIntegerBits = 12;  // sum of exps format Q12.19

struct SoftmaxParams {
  const Tensor* input = nullptr;
  Tensor* output = nullptr;
  size_t rows = 0;
  size_t depth = 0;              // the last dimension
  float beta = 0.0f;             // float path
  int32_t input_multiplier = 0;  // quantized path: beta * input scale, Q5.26 after the shift
  int input_left_shift = 0;
  int32_t diff_min = 0;  // differences from the row max below this give exactly 0
};

using SoftmaxFn = void (*)(const SoftmaxParams&);

void softmaxFloat(const SoftmaxParams& p) {
  const float* input = p.input->as<float>();
  float* output = p.output->as<float>();
  for (size_t r = 0; r < p.rows; ++r) {
    const float* x = input + r * p.depth;
    float* y = output + r * p.depth;
    float max = std::numeric_limits<float>::lowest();
    for (size_t c = 0; c < p.depth; ++c) max = std::max(max, x[c]);
    float sum = 0.0f;
    for (size_t c = 0; c < p.depth; ++c) {
      y[c] = std::exp((x[c] - max) * p.beta);
      sum += y[c];
    }
    for (size_t c = 0; c < p.depth; ++c) y[c] = y[c] / sum;
  }
}

template <typename Out>
void softmaxInt8(const SoftmaxParams& p) {
  namespace fp = kernels::fixed_point;
  constexpr int32_t kOutMin = std::numeric_limits<Out>::min();
  constexpr int32_t kOutMax = std::numeric_limits<Out>::max();
  constexpr int kOutBits = 8 * static_cast<int>(sizeof(Out));
  const int8_t* input = p.input->as<int8_t>();
  Out* output = p.output->as<Out>();
  // exp(beta * scale * diff) in Q0 for an input difference from the row max.
  const auto expOfDiff = [&p](int32_t diff) {
    const int32_t scaled_diff = fp::multiplyByQuantizedMultiplierGreaterThanOne(
        diff, p.input_multiplier, p.input_left_shift);
    return fp::expOnNegativeValues<kScaledDiffIntegerBits>(scaled_diff);
  };

  for (size_t r = 0; r < p.rows; ++r) {
    const int8_t* x = input + r * p.depth;
    Out* y = output + r * p.depth;
    int8_t max = std::numeric_limits<int8_t>::min();
    for (size_t c = 0; c < p.depth; ++c) max = std::max(max, x[c]);

    uint32_t sum_of_exps = 0;  // Q12.19; wraps like TFLite Micro's int32 sum
    for (size_t c = 0; c < p.depth; ++c) {
      const int32_t diff = int32_t{x[c]} - max;
      if (diff >= p.diff_min)
        sum_of_exps +=
            static_cast<uint32_t>(fp::rescale(expOfDiff(diff), 0, kAccumulationIntegerBits));
    }
    int num_bits_over_unit = 0;
    const int32_t reciprocal = fp::getReciprocal(static_cast<int32_t>(sum_of_exps),
                                                 kAccumulationIntegerBits, &num_bits_over_unit);
    // The reciprocal is in [1/2, 1) * 2^-num_bits_over_unit; the output keeps kOutBits bits.
    const int exponent = num_bits_over_unit + 31 - kOutBits;
    // TFLite Micro stops here (TFLITE_CHECK) too: the row's sum of exps overflowed its format.
    if (exponent < 0 || exponent > 31)
      throw ModelError("sum of exponentials of row " + std::to_string(r) +
                       " overflows the Q12.19 accumulator");

    for (size_t c = 0; c < p.depth; ++c) {
      const int32_t diff = int32_t{x[c]} - max;
      if (diff < p.diff_min) {
        y[c] = static_cast<Out>(kOutMin);
        continue;
      }
      const int32_t unsaturated =
          roundingDivideByPOT(fp::mul(reciprocal, expOfDiff(diff)), exponent);
      y[c] = static_cast<Out>(std::clamp(unsaturated + kOutMin, kOutMin, kOutMax));
    }
  }
}

class SoftmaxRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
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

    params_ = {};
    params_.input = &in;
    params_.output = &out;
    params_.depth = static_cast<size_t>(in.shape.back());
    params_.rows = params_.depth == 0 ? 0 : static_cast<size_t>(in.elements()) / params_.depth;
    if (in.type == TensorType::FLOAT32) {
      if (out.type != TensorType::FLOAT32)
        throw ModelError("float32 input needs a float32 output, has " + describe(out));
      params_.beta = beta;
      run_ = softmaxFloat;
    } else if (in.type == TensorType::INT8) {
      prepareInt8(in, out, beta);
    } else {
      throw ModelError("unsupported input " + describe(in) +
                       " (hilsim supports float32 and int8 softmax)");
    }
    OpWork work;
    work.elements = static_cast<uint64_t>(in.elements());
    return work;
  }

  void invoke(InvokeContext&, Node&) override { run_(params_); }

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
      run_ = softmaxInt8<int16_t>;
    } else if (out.type == TensorType::INT8) {
      if (out_zero_point != -128 || out_scale != 1.0f / 256)
        throw ModelError("int8 output must have zero point -128 and scale 1/256, has " +
                         std::to_string(out_zero_point) + " and " + std::to_string(out_scale));
      run_ = softmaxInt8<int8_t>;
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
    params_.input_multiplier = qm.multiplier;
    params_.input_left_shift = qm.shift;
    // CalculateInputRadius: the largest difference whose rescaled value still fits in Q5.26.
    const double max_input_rescaled =
        1.0 * ((1 << kScaledDiffIntegerBits) - 1) *
        static_cast<double>(int64_t{1} << (31 - kScaledDiffIntegerBits)) /
        static_cast<double>(int64_t{1} << qm.shift);
    params_.diff_min = -static_cast<int32_t>(std::floor(max_input_rescaled));
  }

  SoftmaxParams params_;
  SoftmaxFn run_ = nullptr;
};

}  // namespace

std::unique_ptr<Kernel> makeSoftmaxRef() {
  return std::make_unique<SoftmaxRef>();
}

}  // namespace hilsim::rt
