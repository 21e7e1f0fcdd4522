#include "hilsim/kernels/optimized/softmax.h"

#include <cstddef>

#include "hilsim/kernels/fixed_point.h"
#include "hilsim/kernels/optimized/requant.h"
#include "hilsim/kernels/optimized/simd.h"

namespace hilsim::kernels::opt {
namespace {

namespace fp = fixed_point;

constexpr int kScaledDiffIntegerBits = 5;     // exp() input format Q5.26
constexpr int kAccumulationIntegerBits = 12;  // sum of exps format Q12.19

int8_t rowMax(const int8_t* x, size_t depth) {
  size_t c = 0;
  int32_t max = -128;
#if HILSIM_OPT_DSP
  if (depth >= 8) {
    uint32_t m = 0x80808080u;
    for (; c + 4 <= depth; c += 4) m = max4S8(m, load4(x + c));
    for (int lane = 0; lane < 4; ++lane) {
      const int32_t v = static_cast<int8_t>(m >> (8 * lane));
      max = v > max ? v : max;
    }
  }
#endif
  for (; c < depth; ++c) max = x[c] > max ? x[c] : max;
  return static_cast<int8_t>(max);
}

template <typename Out>
SoftmaxStatus softmaxRows(const SoftmaxInt8Params& p, const int32_t* table, const int8_t* input,
                          Out* output, int32_t* failed_row) {
  constexpr int32_t kOutMin = sizeof(Out) == 1 ? -128 : -32768;
  constexpr int32_t kOutMax = sizeof(Out) == 1 ? 127 : 32767;
  constexpr int kOutBits = 8 * static_cast<int>(sizeof(Out));
  const size_t depth = static_cast<size_t>(p.depth);
  for (int32_t r = 0; r < p.rows; ++r) {
    const int8_t* x = input + static_cast<size_t>(r) * depth;
    Out* y = output + static_cast<size_t>(r) * depth;
    const int32_t max = rowMax(x, depth);
    // The table's values rescaled from Q0.31 to Q12.19 (a rounding right shift by 12 of a
    // non-negative value), summed modulo 2^32 like the reference.
    uint32_t sum_of_exps = 0;
    size_t c = 0;
    for (; c + 2 <= depth; c += 2) {
      const auto e0 = static_cast<uint32_t>(table[max - x[c]]);
      const auto e1 = static_cast<uint32_t>(table[max - x[c + 1]]);
      sum_of_exps += ((e0 + 2048u) >> 12) + ((e1 + 2048u) >> 12);
    }
    if (c < depth) sum_of_exps += (static_cast<uint32_t>(table[max - x[c]]) + 2048u) >> 12;

    int num_bits_over_unit = 0;
    const int32_t reciprocal = fp::getReciprocal(static_cast<int32_t>(sum_of_exps),
                                                 kAccumulationIntegerBits, &num_bits_over_unit);
    const int exponent = num_bits_over_unit + 31 - kOutBits;
    if (exponent < 0 || exponent > 31) {
      *failed_row = r;
      return SoftmaxStatus::kSumOfExpsOverflow;
    }
    // reciprocal * exp, then the rounding shift: requantize with multiplier `reciprocal`. A
    // table value of 0 gives 0, the type's minimum, as the reference's diff_min test does.
    for (c = 0; c < depth; ++c) {
      const int32_t v = requantizeShifts(table[max - x[c]], reciprocal, 0, exponent) + kOutMin;
      y[c] = static_cast<Out>(v > kOutMax ? kOutMax : v);
    }
  }
  return SoftmaxStatus::kOk;
}

}  // namespace

void softmaxInt8ExpTable(const SoftmaxInt8Params& p, int32_t* table) {
  for (int32_t d = 0; d < kSoftmaxExpTableEntries; ++d) {
    const int32_t diff = -d;
    if (diff < p.diff_min) {
      table[d] = 0;
      continue;
    }
    const int32_t scaled_diff = fp::multiplyByQuantizedMultiplierGreaterThanOne(
        diff, p.input_multiplier, p.input_left_shift);
    table[d] = fp::expOnNegativeValues<kScaledDiffIntegerBits>(scaled_diff);
  }
}

SoftmaxStatus softmaxInt8ToInt8(const SoftmaxInt8Params& p, const int32_t* exp_table,
                                const int8_t* input, int8_t* output, int32_t* failed_row) {
  return softmaxRows(p, exp_table, input, output, failed_row);
}

SoftmaxStatus softmaxInt8ToInt16(const SoftmaxInt8Params& p, const int32_t* exp_table,
                                 const int8_t* input, int16_t* output, int32_t* failed_row) {
  return softmaxRows(p, exp_table, input, output, failed_row);
}

}  // namespace hilsim::kernels::opt
