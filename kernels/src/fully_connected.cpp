#include "hilsim/kernels/fully_connected.h"

#include "hilsim/kernels/quant_math.h"

namespace hilsim::kernels {

void fullyConnectedInt8(const FullyConnectedInt8Params& p, const int8_t* input,
                        const int8_t* filter, const int32_t* bias, int8_t* output) {
  const int32_t rows = p.rows, k = p.k, n = p.n;
  const int32_t input_offset = p.input_offset, output_offset = p.output_offset;
  const int32_t act_min = p.act_min, act_max = p.act_max;
  for (int32_t b = 0; b < rows; ++b) {
    const int8_t* x = input + b * k;
    for (int32_t o = 0; o < n; ++o) {
      const int8_t* w = filter + o * k;
      uint32_t sum = 0;  // wraps like TFLite Micro's int32 accumulator
      for (int32_t d = 0; d < k; ++d)
        sum += static_cast<uint32_t>(int32_t{w[d]} * (int32_t{x[d]} + input_offset));
      int32_t acc = static_cast<int32_t>(sum);
      if (bias) acc = wrapAdd(acc, bias[o]);
      acc = multiplyByQuantizedMultiplier(acc, p.multipliers[o], p.shifts[o]);
      acc = wrapAdd(acc, output_offset);
      acc = acc < act_min ? act_min : acc > act_max ? act_max : acc;
      output[b * n + o] = static_cast<int8_t>(acc);
    }
  }
}

void fullyConnectedFloat(const FullyConnectedFloatParams& p, const float* input,
                         const float* filter, const float* bias, float* output) {
  const int32_t rows = p.rows, k = p.k, n = p.n;
  for (int32_t b = 0; b < rows; ++b) {
    for (int32_t o = 0; o < n; ++o) {
      float total = 0.0f;
      for (int32_t d = 0; d < k; ++d) total += input[b * k + d] * filter[o * k + d];
      const float value = total + (bias ? bias[o] : 0.0f);
      output[b * n + o] = value < p.act_min ? p.act_min : value > p.act_max ? p.act_max : value;
    }
  }
}

}  // namespace hilsim::kernels
