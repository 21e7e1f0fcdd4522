#include "hilsim/kernels/svdf.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <limits>

#include "hilsim/kernels/quant_math.h"

namespace hilsim::kernels {
namespace {

template <typename T>
void svdfInteger(const SvdfParams& p, const int8_t* input, const int8_t* weights_feature,
                 const T* weights_time, const int32_t* bias, T* state, int8_t* output,
                 int32_t* filter_out, int32_t* unit_out) {
  const size_t filters = size_t(p.filters), memory = size_t(p.memory);
  const size_t state_size = size_t(p.batches) * filters * memory;
  std::memmove(state, state + 1, (state_size - 1) * sizeof(T));

  constexpr int32_t kStateMin = std::numeric_limits<T>::min();
  constexpr int32_t kStateMax = std::numeric_limits<T>::max();
  for (size_t b = 0; b < size_t(p.batches); ++b) {
    const int8_t* x = input + b * size_t(p.input_size);
    T* newest = state + b * filters * memory + (memory - 1);
    for (size_t f = 0; f < filters; ++f) {
      const int8_t* w = weights_feature + f * size_t(p.input_size);
      uint32_t sum = 0;  // wraps like TFLite Micro's int32 accumulator
      for (int32_t i = 0; i < p.input_size; ++i)
        sum += static_cast<uint32_t>(int32_t{w[i]} * (int32_t{x[i]} - p.input_zero_point));
      const int32_t dot = multiplyByQuantizedMultiplier(static_cast<int32_t>(sum),
                                                        p.feature_multiplier, p.feature_shift);
      // The zero point is added after the clamp and the sum narrowed to T, wrapping when it
      // leaves T's range: what the TFLite Micro snapshot does (later versions clamp after).
      const int32_t clamped = std::clamp(dot, kStateMin, kStateMax);
      newest[f * memory] = static_cast<T>(p.state_zero_point + clamped);
    }
  }

  // From here the sums wrap modulo 2^32 like TFLite Micro's int32 arithmetic on x86: int16
  // time weights and state can overflow it.
  for (size_t b = 0; b < size_t(p.batches); ++b) {
    const T* s = state + b * filters * memory;
    for (size_t f = 0; f < filters; ++f) {
      const T* w = weights_time + f * memory;
      const T* history = s + f * memory;
      uint32_t dot = 0;
      for (size_t t = 0; t < memory; ++t)
        dot += static_cast<uint32_t>(int64_t{w[t]} * (int64_t{history[t]} - p.state_zero_point));
      filter_out[b * filters + f] = static_cast<int32_t>(dot);
    }
  }

  const size_t units = size_t(p.units), rank = size_t(p.rank);
  for (size_t b = 0; b < size_t(p.batches); ++b) {
    for (size_t u = 0; u < units; ++u) {
      uint32_t sum = bias ? static_cast<uint32_t>(bias[u]) : 0;
      for (size_t r = 0; r < rank; ++r)
        sum += static_cast<uint32_t>(filter_out[b * filters + u * rank + r]);
      unit_out[b * units + u] = static_cast<int32_t>(sum);
    }
  }
  for (size_t i = 0; i < size_t(p.batches) * units; ++i) {
    const int32_t scaled =
        multiplyByQuantizedMultiplier(unit_out[i], p.time_multiplier, p.time_shift);
    output[i] =
        static_cast<int8_t>(std::clamp<int32_t>(wrapAdd(scaled, p.output_zero_point), -128, 127));
  }
}

}  // namespace

void svdfInt8State(const SvdfParams& p, const int8_t* input, const int8_t* weights_feature,
                   const int8_t* weights_time, const int32_t* bias, int8_t* state, int8_t* output,
                   int32_t* filter_scratch, int32_t* unit_scratch) {
  svdfInteger(p, input, weights_feature, weights_time, bias, state, output, filter_scratch,
              unit_scratch);
}

void svdfInt16State(const SvdfParams& p, const int8_t* input, const int8_t* weights_feature,
                    const int16_t* weights_time, const int32_t* bias, int16_t* state,
                    int8_t* output, int32_t* filter_scratch, int32_t* unit_scratch) {
  svdfInteger(p, input, weights_feature, weights_time, bias, state, output, filter_scratch,
              unit_scratch);
}

}  // namespace hilsim::kernels
