#include "hilsim/kernels/depthwise_conv.h"

#include <cstddef>

namespace hilsim::kernels {

// TFLite Micro's loop order: one output value at a time, its taps summed in a register. The sum
// wraps modulo 2^32 like TFLite Micro's int32 accumulator.
void depthwiseConvInt8(const DepthwiseConvParams& p, const int8_t* input, const int8_t* filter,
                       int8_t* output) {
  // Local copies: stores through the int8 output may alias anything read through `p`.
  const WindowGeometry g = p.geo;
  const ChannelRequant quant = p.quant;
  const int32_t depth_multiplier = p.depth_multiplier;
  const int32_t offset = quant.input_offset;
  const size_t in_c = size_t(g.in_c), out_c = size_t(g.out_c);
  const size_t in_row = size_t(g.in_w) * in_c, filter_row = size_t(g.filter_w) * out_c;

  for (int32_t b = 0; b < g.batches; ++b) {
    const int8_t* image = input + size_t(b) * size_t(g.in_h) * in_row;
    for (int32_t out_y = 0; out_y < g.out_h; ++out_y) {
      const int32_t y0 = out_y * g.stride_h - g.pad_h;
      for (int32_t out_x = 0; out_x < g.out_w; ++out_x) {
        const int32_t x0 = out_x * g.stride_w - g.pad_w;
        for (int32_t ic = 0; ic < g.in_c; ++ic) {
          for (int32_t m = 0; m < depth_multiplier; ++m) {
            const int32_t oc = ic * depth_multiplier + m;
            uint32_t sum = 0;
            for (int32_t fy = 0; fy < g.filter_h; ++fy) {
              const int32_t in_y = y0 + fy * g.dilation_h;
              if (in_y < 0 || in_y >= g.in_h) continue;
              const int8_t* x_row = image + size_t(in_y) * in_row + size_t(ic);
              const int8_t* w_row = filter + size_t(fy) * filter_row + size_t(oc);
              for (int32_t fx = 0; fx < g.filter_w; ++fx) {
                const int32_t in_x = x0 + fx * g.dilation_w;
                if (in_x < 0 || in_x >= g.in_w) continue;
                sum += static_cast<uint32_t>(int32_t{w_row[size_t(fx) * out_c]} *
                                             (int32_t{x_row[size_t(in_x) * in_c]} + offset));
              }
            }
            *output++ = quant.output(wrapAdd(static_cast<int32_t>(sum), quant.bias[oc]), oc);
          }
        }
      }
    }
  }
}

}  // namespace hilsim::kernels
