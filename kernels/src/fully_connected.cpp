#include "hilsim/kernels/fully_connected.h"

#include <algorithm>

#include "hilsim/kernels/quant_math.h"

namespace hilsim::kernels {

void fullyConnectedInt8(const FullyConnectedInt8Params& p, const int8_t* input,
                        const int8_t* filter, const int32_t* bias, int8_t* output) {
  const int32_t input_offset = p.input_offset;
  const int32_t filter_offset = p.filter_offset;
  const int32_t output_offset = p.output_offset;
  const int32_t act_min = p.act_min, act_max = p.act_max;
  const int32_t batches = p.rows, output_depth = p.n, accum_depth = p.k;
  const int32_t* multipliers = p.multipliers;
  const int32_t* shifts = p.shifts;
  // The sums wrap like TFLite Micro's int32 accumulator.
  if (p.per_channel) {
    for (int32_t b = 0; b < batches; ++b) {
      for (int32_t out_c = 0; out_c < output_depth; ++out_c) {
        uint32_t acc = 0;
        for (int32_t d = 0; d < accum_depth; ++d) {
          const int32_t input_val = input[b * accum_depth + d];
          const int32_t filter_val = filter[out_c * accum_depth + d];
          acc += static_cast<uint32_t>(filter_val * (input_val + input_offset));
        }
        if (bias) acc += static_cast<uint32_t>(bias[out_c]);
        int32_t value = multiplyByQuantizedMultiplierCall(static_cast<int32_t>(acc),
                                                          multipliers[out_c], shifts[out_c]);
        value = wrapAdd(value, output_offset);
        value = std::max(value, act_min);
        value = std::min(value, act_max);
        output[out_c + output_depth * b] = static_cast<int8_t>(value);
      }
    }
    return;
  }
  if (output_depth <= 0) return;
  const int32_t output_multiplier = multipliers[0];
  const int32_t output_shift = shifts[0];
  for (int32_t b = 0; b < batches; ++b) {
    for (int32_t out_c = 0; out_c < output_depth; ++out_c) {
      uint32_t acc = 0;
      for (int32_t d = 0; d < accum_depth; ++d) {
        const int32_t input_val = input[b * accum_depth + d];
        const int32_t filter_val = filter[out_c * accum_depth + d];
        acc += static_cast<uint32_t>((filter_val + filter_offset) * (input_val + input_offset));
      }
      if (bias) acc += static_cast<uint32_t>(bias[out_c]);
      int32_t value = multiplyByQuantizedMultiplierCall(static_cast<int32_t>(acc),
                                                        output_multiplier, output_shift);
      value = wrapAdd(value, output_offset);
      value = std::max(value, act_min);
      value = std::min(value, act_max);
      output[out_c + output_depth * b] = static_cast<int8_t>(value);
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
