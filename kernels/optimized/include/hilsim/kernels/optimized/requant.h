#pragma once
// The output stage shared by the optimized kernels: TensorFlow Lite Micro's requantization of a
// biased int32 accumulator (MultiplyByQuantizedMultiplier with gemmlowp rounding), the output
// zero point and the activation clamp. Freestanding.

#include <cstdint>

#include "hilsim/kernels/quant_math.h"

namespace hilsim::kernels::opt {

inline int8_t requantizeToInt8(int32_t acc, int32_t multiplier, int32_t shift,
                               int32_t output_offset, int32_t act_min, int32_t act_max) {
  int32_t v = multiplyByQuantizedMultiplier(acc, multiplier, shift);
  v = wrapAdd(v, output_offset);
  v = v < act_min ? act_min : v;
  v = v > act_max ? act_max : v;
  return static_cast<int8_t>(v);
}

}  // namespace hilsim::kernels::opt
