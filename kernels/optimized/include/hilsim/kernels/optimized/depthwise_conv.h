#pragma once
// Optimized DEPTHWISE_CONV_2D, int8 with per-channel requantization, bit-exact with TensorFlow
// Lite Micro's reference arithmetic (hilsim/kernels/depthwise_conv.h, same parameters).
//
// Per output pixel the rows and columns of the window that lie inside the input are computed
// once (no per-tap bounds test); then, with depth multiplier 1, four neighbouring channels are
// accumulated together in registers over the window: one word of inputs and one of weights per
// tap, widened with SXTAB16 (which also adds the input offset) and SXTB16, multiplied with
// SMLABB / SMLATT into four separate channel sums. Other depth multipliers take one output
// channel at a time over the same window ranges.
//
// The 3x3 path (3x3 filter, dilation 1, depth multiplier 1) unrolls the nine taps for pixels
// whose window lies inside the input and uses the general loop at the borders.
// Freestanding.

#include <cstdint>

#include "hilsim/kernels/depthwise_conv.h"

namespace hilsim::kernels::opt {

// Whether the 3x3 path applies to `p`.
bool depthwiseConvInt8Is3x3(const DepthwiseConvParams& p);

// Same output as kernels::depthwiseConvInt8 for every valid `p`.
void depthwiseConvInt8(const DepthwiseConvParams& p, const int8_t* input, const int8_t* filter,
                       int8_t* output);

// The 3x3 path: same output as kernels::depthwiseConvInt8 when depthwiseConvInt8Is3x3(p).
void depthwiseConvInt8_3x3(const DepthwiseConvParams& p, const int8_t* input, const int8_t* filter,
                           int8_t* output);

}  // namespace hilsim::kernels::opt
