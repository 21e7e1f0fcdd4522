#pragma once
// Per-channel requantization of an int8 convolution (TensorFlow Lite Micro's
// reference_integer_ops::ConvPerChannel / DepthwiseConvPerChannel epilogue): the biased int32
// accumulator of output channel c becomes
//   clamp(MultiplyByQuantizedMultiplier(acc, multipliers[c], shifts[c]) + output_zero_point,
//         act_min, act_max).
// The arrays are prepared once by the runtime and owned by it. Freestanding.

#include <algorithm>
#include <cstdint>

#include "hilsim/kernels/quant_math.h"

namespace hilsim::kernels {

struct ChannelRequant {
  int32_t input_offset = 0;  // -input zero point, added to every input value
  int32_t output_zero_point = 0;
  int32_t act_min = -128;
  int32_t act_max = 127;
  const int32_t* bias = nullptr;         // one per output channel (zeros without a bias tensor)
  const int32_t* multipliers = nullptr;  // one per output channel, Q31
  const int32_t* shifts = nullptr;       // one per output channel, positive: left shift

  // The int8 output of channel `c` for its biased accumulator.
  int8_t output(int32_t acc, int32_t c) const {
    int32_t value = multiplyByQuantizedMultiplier(acc, multipliers[c], shifts[c]);
    value = wrapAdd(value, output_zero_point);
    return static_cast<int8_t>(std::clamp(value, act_min, act_max));
  }
};

}  // namespace hilsim::kernels
