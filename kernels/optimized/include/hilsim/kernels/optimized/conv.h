#pragma once
// Optimized CONV_2D, int8 with per-channel requantization, bit-exact with TensorFlow Lite
// Micro's reference arithmetic (hilsim/kernels/conv.h, same parameters). Two paths:
//
// - pointwise (1x1 filter, no padding, one group): a matrix product of the output pixels'
//   input vectors and the filters. The input offset is folded into a per-channel bias
//   (convInt8PointwiseFoldBias, at prepare time); the inner loop is the int8 dot product of
//   FULLY_CONNECTED, blocked 2 pixels x 2 output channels.
// - im2col (any geometry, groups, dilation, padding): the windows of two output pixels are
//   copied into int16 columns holding x + input_offset (0 for taps in the padding, which
//   therefore add nothing, as in the reference); then every pair of filters runs over both
//   columns, 2 pixels x 2 channels per pass, with SMLAD on int16 pairs against SXTB16-widened
//   weights.
// Freestanding.

#include <cstddef>
#include <cstdint>

#include "hilsim/kernels/conv.h"

namespace hilsim::kernels::opt {

// Whether the pointwise path applies to `p`.
bool convInt8IsPointwise(const ConvParams& p);

// folded_bias[oc] = bias[oc] + input_offset * sum of filter oc's weights; out_c values owned by
// the caller. Pointwise layers only.
void convInt8PointwiseFoldBias(const ConvParams& p, const int8_t* filter, int32_t* folded_bias);

// The pointwise path: same output as kernels::convInt8 when convInt8IsPointwise(p).
void convInt8Pointwise(const ConvParams& p, const int8_t* input, const int8_t* filter,
                       const int32_t* folded_bias, int8_t* output);

// int16 elements of scratch the im2col path needs: two columns of filter_h * filter_w *
// filter_in_c values.
size_t convInt8Im2colScratchElements(const ConvParams& p);

// The im2col path: same output as kernels::convInt8 for every valid `p`. `scratch` holds
// convInt8Im2colScratchElements(p) int16 values, 4-byte aligned.
void convInt8Im2col(const ConvParams& p, const int8_t* input, const int8_t* filter,
                    int16_t* scratch, int8_t* output);

}  // namespace hilsim::kernels::opt
