#include "hilsim/kernels/conv.h"

#include <cstddef>

namespace hilsim::kernels {
namespace {

// sum_i w[i] * (x[i] + offset) over n contiguous elements, wrapping modulo 2^32 like TFLite
// Micro's int32 accumulator.
inline uint32_t offsetDot(const int8_t* w, const int8_t* x, int32_t offset, int32_t n) {
  uint32_t acc = 0;
  for (int32_t i = 0; i < n; ++i)
    acc += static_cast<uint32_t>(int32_t{w[i]} * (int32_t{x[i]} + offset));
  return acc;
}

}  // namespace

// TFLite Micro's loop structure: per output value, every filter tap is checked against the input
// and the taps inside it add their input channels' products in a register.
void convInt8(const ConvParams& p, const int8_t* input, const int8_t* filter, int8_t* output) {
  // Local copies: stores through the int8 output may alias anything read through `p`.
  const WindowGeometry g = p.geo;
  const ChannelRequant quant = p.quant;
  const int32_t filter_in_c = p.filter_in_c;
  const int32_t filters_per_group = p.filters_per_group;
  const int32_t offset = quant.input_offset;
  const size_t filter_size = size_t(g.filter_h) * size_t(g.filter_w) * size_t(filter_in_c);

  for (int32_t b = 0; b < g.batches; ++b) {
    const int8_t* image = input + size_t(b) * size_t(g.in_h) * size_t(g.in_w) * size_t(g.in_c);
    for (int32_t out_y = 0; out_y < g.out_h; ++out_y) {
      const int32_t y0 = out_y * g.stride_h - g.pad_h;
      for (int32_t out_x = 0; out_x < g.out_w; ++out_x) {
        const int32_t x0 = out_x * g.stride_w - g.pad_w;
        for (int32_t oc = 0; oc < g.out_c; ++oc) {
          const int32_t channel_base = (oc / filters_per_group) * filter_in_c;
          const int8_t* w = filter + size_t(oc) * filter_size;
          uint32_t sum = 0;
          for (int32_t fy = 0; fy < g.filter_h; ++fy) {
            const int32_t in_y = y0 + fy * g.dilation_h;
            for (int32_t fx = 0; fx < g.filter_w; ++fx) {
              const int32_t in_x = x0 + fx * g.dilation_w;
              if (in_x < 0 || in_x >= g.in_w || in_y < 0 || in_y >= g.in_h) continue;
              sum += offsetDot(
                  w + (size_t(fy) * size_t(g.filter_w) + size_t(fx)) * size_t(filter_in_c),
                  image + (size_t(in_y) * size_t(g.in_w) + size_t(in_x)) * size_t(g.in_c) +
                      size_t(channel_base),
                  offset, filter_in_c);
            }
          }
          *output++ = quant.output(wrapAdd(static_cast<int32_t>(sum), quant.bias[oc]), oc);
        }
      }
    }
  }
}

}  // namespace hilsim::kernels
