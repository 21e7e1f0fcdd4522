#pragma once
// CONV_2D, int8 with per-channel int8 filters and int32 bias, with TensorFlow Lite Micro's
// arithmetic (reference/integer_ops/conv.h): per output (b, y, x, oc)
//   acc = sum over the taps inside the input of w[oc][fy][fx][ic] * (x[ic] + input_offset)
// in int32 that wraps, then acc + bias[oc] requantized per channel (conv_quant.h). Taps in the
// padding contribute nothing. Grouped convolutions read in_c / groups input channels per
// filter. Freestanding.

#include <cstdint>

#include "hilsim/kernels/conv_quant.h"
#include "hilsim/kernels/conv_window.h"

namespace hilsim::kernels {

struct ConvParams {
  WindowGeometry geo;
  ChannelRequant quant;
  int32_t filter_in_c = 0;        // input channels seen by one filter (in_c / groups)
  int32_t filters_per_group = 0;  // output channels per group
};

// input: [batches, in_h, in_w, in_c]; filter: [out_c, filter_h, filter_w, filter_in_c];
// output: [batches, out_h, out_w, out_c].
void convInt8(const ConvParams& p, const int8_t* input, const int8_t* filter, int8_t* output);

}  // namespace hilsim::kernels
