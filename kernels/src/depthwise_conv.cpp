#include "hilsim/kernels/depthwise_conv.h"

#include <cstddef>

namespace hilsim::kernels {
namespace {

// Adds one tap's contribution to the accumulators of every output channel. The accumulators
// wrap modulo 2^32 like TFLite Micro's int32 ones.
inline void accumulateTap(const int8_t* w, const int8_t* x, int32_t offset, int32_t in_c,
                          int32_t depth_multiplier, uint32_t* acc) {
  if (depth_multiplier == 1) {
    for (int32_t c = 0; c < in_c; ++c)
      acc[c] += static_cast<uint32_t>(int32_t{w[c]} * (int32_t{x[c]} + offset));
    return;
  }
  for (int32_t ic = 0; ic < in_c; ++ic) {
    const int32_t value = int32_t{x[ic]} + offset;
    const int8_t* w_ic = w + size_t(ic) * size_t(depth_multiplier);
    uint32_t* acc_ic = acc + size_t(ic) * size_t(depth_multiplier);
    for (int32_t m = 0; m < depth_multiplier; ++m)
      acc_ic[m] += static_cast<uint32_t>(int32_t{w_ic[m]} * value);
  }
}

}  // namespace

void depthwiseConvInt8(const DepthwiseConvParams& p, const int8_t* input, const int8_t* filter,
                       int32_t* acc_scratch, int8_t* output) {
  // Local copies: stores through the int8 output may alias anything read through `p`.
  const WindowGeometry g = p.geo;
  const ChannelRequant quant = p.quant;
  const int32_t depth_multiplier = p.depth_multiplier;
  const size_t out_c = size_t(g.out_c);
  // Signed and unsigned views of the same int32 storage may alias.
  uint32_t* acc = reinterpret_cast<uint32_t*>(acc_scratch);

  for (int32_t b = 0; b < g.batches; ++b) {
    const int8_t* image = input + size_t(b) * size_t(g.in_h) * size_t(g.in_w) * size_t(g.in_c);
    for (int32_t out_y = 0; out_y < g.out_h; ++out_y) {
      const int32_t y0 = out_y * g.stride_h - g.pad_h;
      for (int32_t out_x = 0; out_x < g.out_w; ++out_x) {
        const int32_t x0 = out_x * g.stride_w - g.pad_w;
        for (size_t c = 0; c < out_c; ++c) acc[c] = static_cast<uint32_t>(quant.bias[c]);
        for (int32_t fy = 0; fy < g.filter_h; ++fy) {
          const int32_t in_y = y0 + fy * g.dilation_h;
          if (in_y < 0 || in_y >= g.in_h) continue;
          for (int32_t fx = 0; fx < g.filter_w; ++fx) {
            const int32_t in_x = x0 + fx * g.dilation_w;
            if (in_x < 0 || in_x >= g.in_w) continue;
            accumulateTap(filter + (size_t(fy) * size_t(g.filter_w) + size_t(fx)) * out_c,
                          image + (size_t(in_y) * size_t(g.in_w) + size_t(in_x)) * size_t(g.in_c),
                          quant.input_offset, g.in_c, depth_multiplier, acc);
          }
        }
        for (size_t c = 0; c < out_c; ++c)
          *output++ = quant.output(static_cast<int32_t>(acc[c]), static_cast<int32_t>(c));
      }
    }
  }
}

}  // namespace hilsim::kernels
