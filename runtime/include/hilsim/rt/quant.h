#pragma once
// Quantization parameters computed in prepare, plus the freestanding requantization arithmetic
// of hilsim/kernels/quant_math.h under the runtime's namespace.

#include <cstdint>

#include "hilsim/kernels/quant_math.h"

namespace hilsim::rt {

struct QuantizedMultiplier {
  int32_t multiplier = 0;  // Q31 mantissa in [2^30, 2^31), or 0
  int shift = 0;           // positive: left shift
};

// TFLite's QuantizeMultiplier: frexp, round to Q31, renormalise 2^31, flush below 2^-31 to zero.
// Throws ModelError for a multiplier that is negative, not finite or 2^31 or more (no int32
// left shift can apply it; such scales come only from corrupt quantization parameters).
QuantizedMultiplier quantizeMultiplier(double real_multiplier);

using kernels::multiplyByQuantizedMultiplier;
using kernels::multiplyByQuantizedMultiplier64;
using kernels::roundingDivideByPOT;
using kernels::saturatingRoundingDoublingHighMul;
using kernels::wrapAdd;

}  // namespace hilsim::rt
