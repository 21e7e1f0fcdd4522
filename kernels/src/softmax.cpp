#include "hilsim/kernels/softmax.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "hilsim/kernels/fixed_point.h"
#include "hilsim/kernels/quant_math.h"

namespace hilsim::kernels {
namespace {

namespace fp = fixed_point;

constexpr int kScaledDiffIntegerBits = 5;     // exp() input format Q5.26
constexpr int kAccumulationIntegerBits = 12;  // sum of exps format Q12.19

template <typename Out>
SoftmaxStatus softmaxInt8(const SoftmaxInt8Params& p, const int8_t* input, Out* output,
                          int32_t* failed_row) {
  constexpr int32_t kOutMin = std::numeric_limits<Out>::min();
  constexpr int32_t kOutMax = std::numeric_limits<Out>::max();
  constexpr int kOutBits = 8 * static_cast<int>(sizeof(Out));
  const size_t depth = static_cast<size_t>(p.depth);
  // exp(beta * scale * diff) in Q0 for an input difference from the row max.
  const auto expOfDiff = [&p](int32_t diff) {
    const int32_t scaled_diff = fp::multiplyByQuantizedMultiplierGreaterThanOne(
        diff, p.input_multiplier, p.input_left_shift);
    return fp::expOnNegativeValues<kScaledDiffIntegerBits>(scaled_diff);
  };

  for (int32_t r = 0; r < p.rows; ++r) {
    const int8_t* x = input + static_cast<size_t>(r) * depth;
    Out* y = output + static_cast<size_t>(r) * depth;
    int8_t max = std::numeric_limits<int8_t>::min();
    for (size_t c = 0; c < depth; ++c) max = std::max(max, x[c]);

    uint32_t sum_of_exps = 0;  // Q12.19; wraps like TFLite Micro's int32 sum
    for (size_t c = 0; c < depth; ++c) {
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
    if (exponent < 0 || exponent > 31) {
      *failed_row = r;
      return SoftmaxStatus::kSumOfExpsOverflow;
    }

    for (size_t c = 0; c < depth; ++c) {
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
  return SoftmaxStatus::kOk;
}

}  // namespace

void softmaxFloat(const SoftmaxFloatParams& p, const float* input, float* output) {
  const size_t depth = static_cast<size_t>(p.depth);
  for (int32_t r = 0; r < p.rows; ++r) {
    const float* x = input + static_cast<size_t>(r) * depth;
    float* y = output + static_cast<size_t>(r) * depth;
    float max = std::numeric_limits<float>::lowest();
    for (size_t c = 0; c < depth; ++c) max = std::max(max, x[c]);
    float sum = 0.0f;
    for (size_t c = 0; c < depth; ++c) {
      y[c] = std::exp((x[c] - max) * p.beta);
      sum += y[c];
    }
    for (size_t c = 0; c < depth; ++c) y[c] = y[c] / sum;
  }
}

SoftmaxStatus softmaxInt8ToInt8(const SoftmaxInt8Params& p, const int8_t* input, int8_t* output,
                                int32_t* failed_row) {
  return softmaxInt8(p, input, output, failed_row);
}

SoftmaxStatus softmaxInt8ToInt16(const SoftmaxInt8Params& p, const int8_t* input, int16_t* output,
                                 int32_t* failed_row) {
  return softmaxInt8(p, input, output, failed_row);
}

void softmaxInt16(const SoftmaxInt16Params& p, const int16_t* input, const int16_t* exp_lut,
                  const int16_t* reciprocal_lut, int16_t* output) {
  const size_t depth = static_cast<size_t>(p.depth);
  const auto saturate16 = [](int32_t v) {
    return static_cast<int16_t>(std::clamp<int32_t>(v, -32768, 32767));
  };
  for (int32_t r = 0; r < p.rows; ++r) {
    const int16_t* x = input + static_cast<size_t>(r) * depth;
    int16_t* y = output + static_cast<size_t>(r) * depth;
    int16_t max = std::numeric_limits<int16_t>::min();
    for (size_t c = 0; c < depth; ++c) max = std::max(max, x[c]);

    // The exps (Q0.15) are kept in the output row until the reciprocal is known, as TFLite
    // Micro does; the input is read before its element is overwritten.
    int32_t sum_of_exps = 0;
    for (size_t c = 0; c < depth; ++c) {
      const int32_t diff = int32_t{x[c]} - max;
      const int32_t scaled_diff =
          multiplyByQuantizedMultiplier(diff, p.input_multiplier, p.input_left_shift);
      y[c] = lutLookupInt16(saturate16(scaled_diff + 32767), exp_lut);
      sum_of_exps += y[c];
    }

    // The sum's leading bit moved to bit 30, kept to 17 bits (Q1.15 in [1, 2)), less 1 and
    // recentred from [0, 65535] to [-32768, 32767] for the 1 / (1 + x) table.
    const int headroom_plus_one = fp::countLeadingZeros(static_cast<uint32_t>(sum_of_exps));
    const int32_t shifted_sum = static_cast<int32_t>(
        ((static_cast<int64_t>(sum_of_exps) << (headroom_plus_one - 1)) + (1 << 13)) >> 14);
    const int16_t reciprocal =
        lutLookupInt16(saturate16(shifted_sum - ((1 << 15) + (1 << 16))), reciprocal_lut);

    const int right_shift = 31 - headroom_plus_one;
    const int64_t round = int64_t{1} << (right_shift - 1);
    for (size_t c = 0; c < depth; ++c) {
      const int64_t scaled = (int64_t{y[c]} * int64_t{reciprocal} + round) >> right_shift;
      y[c] = static_cast<int16_t>(std::clamp<int64_t>(scaled, 0, 32767));
    }
  }
}

}  // namespace hilsim::kernels
