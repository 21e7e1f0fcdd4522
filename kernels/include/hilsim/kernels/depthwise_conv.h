#pragma once
// DEPTHWISE_CONV_2D, int8 with per-channel int8 filters and int32 bias, with TensorFlow Lite
// Micro's arithmetic (reference/integer_ops/depthwise_conv.h): output channel
// c = ic * depth_multiplier + m starts from bias[c] and adds w[fy][fx][c] * (x[ic] + input_offset)
// over the taps inside the input, in int32 that wraps; then it is requantized per channel
// (conv_quant.h). Freestanding.

#include <cstdint>

#include "hilsim/kernels/conv_quant.h"
#include "hilsim/kernels/conv_window.h"

namespace hilsim::kernels {

struct DepthwiseConvParams {
  WindowGeometry geo;  // out_c = in_c * depth_multiplier
  ChannelRequant quant;
  int32_t depth_multiplier = 1;
};

// input: [batches, in_h, in_w, in_c]; filter: [1, filter_h, filter_w, out_c];
// output: [batches, out_h, out_w, out_c].
void depthwiseConvInt8(const DepthwiseConvParams& p, const int8_t* input, const int8_t* filter,
                       int8_t* output);

}  // namespace hilsim::kernels
