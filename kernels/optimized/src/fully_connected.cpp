#include "hilsim/kernels/optimized/fully_connected.h"

#include <cstddef>

#include "hilsim/kernels/optimized/dot.h"
#include "hilsim/kernels/optimized/requant.h"

namespace hilsim::kernels::opt {

void fullyConnectedInt8FoldBias(const FullyConnectedInt8Params& p, const int8_t* filter,
                                const int32_t* bias, int32_t* folded_bias) {
  for (int32_t o = 0; o < p.n; ++o) {
    const uint32_t weight_sum = static_cast<uint32_t>(sumS8(filter + size_t(o) * size_t(p.k), p.k));
    const uint32_t folded = static_cast<uint32_t>(bias ? bias[o] : 0) +
                            static_cast<uint32_t>(p.input_offset) * weight_sum;
    folded_bias[o] = static_cast<int32_t>(folded);
  }
}

void fullyConnectedInt8(const FullyConnectedInt8Params& p, const int8_t* input,
                        const int8_t* filter, const int32_t* folded_bias, int8_t* output) {
  // Local copies: stores through the int8 output may alias anything read through `p`.
  const int32_t rows = p.rows, k = p.k, n = p.n;
  const int32_t output_offset = p.output_offset, act_min = p.act_min, act_max = p.act_max;
  const int32_t* multipliers = p.multipliers;
  const int32_t* shifts = p.shifts;
  const size_t ks = size_t(k), ns = size_t(n);

  int32_t b = 0;
  for (; b + 2 <= rows; b += 2) {
    const int8_t* x0 = input + size_t(b) * ks;
    const int8_t* x1 = x0 + ks;
    int8_t* y0 = output + size_t(b) * ns;
    int8_t* y1 = y0 + ns;
    int32_t o = 0;
    for (; o + 2 <= n; o += 2) {
      int32_t acc[4] = {folded_bias[o], folded_bias[o + 1], folded_bias[o], folded_bias[o + 1]};
      const int8_t* w0 = filter + size_t(o) * ks;
      dot2x2S8(x0, x1, w0, w0 + ks, k, acc);
      for (int32_t c = 0; c < 2; ++c) {
        const int32_t m = multipliers[o + c], s = shifts[o + c];
        y0[o + c] = requantizeToInt8(acc[c], m, s, output_offset, act_min, act_max);
        y1[o + c] = requantizeToInt8(acc[2 + c], m, s, output_offset, act_min, act_max);
      }
    }
    if (o < n) {
      const int8_t* w = filter + size_t(o) * ks;
      const int32_t m = multipliers[o], s = shifts[o];
      y0[o] = requantizeToInt8(dot1x1S8(x0, w, k, folded_bias[o]), m, s, output_offset, act_min,
                               act_max);
      y1[o] = requantizeToInt8(dot1x1S8(x1, w, k, folded_bias[o]), m, s, output_offset, act_min,
                               act_max);
    }
  }
  if (b < rows) {
    // One row left (the common single-batch case): four outputs per pass share the input words.
    const int8_t* x = input + size_t(b) * ks;
    int8_t* y = output + size_t(b) * ns;
    int32_t o = 0;
    for (; o + 4 <= n; o += 4) {
      int32_t acc[4] = {folded_bias[o], folded_bias[o + 1], folded_bias[o + 2], folded_bias[o + 3]};
      dot1x4S8(x, filter + size_t(o) * ks, k, k, acc);
      for (int32_t c = 0; c < 4; ++c)
        y[o + c] = requantizeToInt8(acc[c], multipliers[o + c], shifts[o + c], output_offset,
                                    act_min, act_max);
    }
    for (; o < n; ++o)
      y[o] = requantizeToInt8(dot1x1S8(x, filter + size_t(o) * ks, k, folded_bias[o]),
                              multipliers[o], shifts[o], output_offset, act_min, act_max);
  }
}

}  // namespace hilsim::kernels::opt
