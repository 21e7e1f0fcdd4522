#include "hilsim/kernels/optimized/conv.h"

#include "hilsim/kernels/optimized/dot.h"
#include "hilsim/kernels/optimized/requant.h"

namespace hilsim::kernels::opt {
namespace {

// Distance in int16 elements between the two im2col columns: the column length rounded up to
// an even count, so both columns start word aligned.
size_t columnStride(const ConvParams& p) {
  const size_t k = size_t(p.geo.filter_h) * size_t(p.geo.filter_w) * size_t(p.filter_in_c);
  return (k + 1) & ~size_t{1};
}

// The window of output pixel (out_y, out_x) of `image`, channels [channel_base,
// channel_base + filter_in_c), as int16 x + offset; taps in the padding are 0.
void fillColumn(const WindowGeometry& g, int32_t filter_in_c, int32_t channel_base, int32_t offset,
                const int8_t* image, int32_t out_y, int32_t out_x, int16_t* column) {
  const int32_t y0 = out_y * g.stride_h - g.pad_h;
  const int32_t x0 = out_x * g.stride_w - g.pad_w;
  int16_t* dst = column;
  for (int32_t fy = 0; fy < g.filter_h; ++fy) {
    const int32_t in_y = y0 + fy * g.dilation_h;
    const bool row_inside = in_y >= 0 && in_y < g.in_h;
    for (int32_t fx = 0; fx < g.filter_w; ++fx) {
      const int32_t in_x = x0 + fx * g.dilation_w;
      if (row_inside && in_x >= 0 && in_x < g.in_w) {
        const int8_t* src = image +
                            (size_t(in_y) * size_t(g.in_w) + size_t(in_x)) * size_t(g.in_c) +
                            size_t(channel_base);
        for (int32_t c = 0; c < filter_in_c; ++c)
          dst[c] = static_cast<int16_t>(int32_t{src[c]} + offset);
      } else {
        for (int32_t c = 0; c < filter_in_c; ++c) dst[c] = 0;
      }
      dst += filter_in_c;
    }
  }
}

}  // namespace

bool convInt8IsPointwise(const ConvParams& p) {
  const WindowGeometry& g = p.geo;
  return g.filter_h == 1 && g.filter_w == 1 && g.pad_h == 0 && g.pad_w == 0 &&
         p.filter_in_c == g.in_c && p.filters_per_group == g.out_c;
}

void convInt8PointwiseFoldBias(const ConvParams& p, const int8_t* filter, int32_t* folded_bias) {
  const int32_t k = p.filter_in_c;
  for (int32_t oc = 0; oc < p.geo.out_c; ++oc) {
    const uint32_t weight_sum = static_cast<uint32_t>(sumS8(filter + size_t(oc) * size_t(k), k));
    folded_bias[oc] =
        static_cast<int32_t>(static_cast<uint32_t>(p.quant.bias[oc]) +
                             static_cast<uint32_t>(p.quant.input_offset) * weight_sum);
  }
}

void convInt8Pointwise(const ConvParams& p, const int8_t* input, const int8_t* filter,
                       const int32_t* folded_bias, int8_t* output) {
  // Local copies: stores through the int8 output may alias anything read through `p`.
  const WindowGeometry g = p.geo;
  const ChannelRequant q = p.quant;
  const int32_t k = g.in_c, out_c = g.out_c;
  const size_t ks = size_t(k);
  const int32_t pixels_per_image = g.out_h * g.out_w;
  const int32_t pixels = g.batches * pixels_per_image;

  // Input vector of flat output pixel `i`.
  auto pixelInput = [&](int32_t i) {
    const int32_t b = i / pixels_per_image, r = i % pixels_per_image;
    const int32_t in_y = (r / g.out_w) * g.stride_h, in_x = (r % g.out_w) * g.stride_w;
    return input +
           ((size_t(b) * size_t(g.in_h) + size_t(in_y)) * size_t(g.in_w) + size_t(in_x)) * ks;
  };

  int32_t i = 0;
  for (; i + 2 <= pixels; i += 2) {
    const int8_t* x0 = pixelInput(i);
    const int8_t* x1 = pixelInput(i + 1);
    int8_t* y0 = output + size_t(i) * size_t(out_c);
    int8_t* y1 = y0 + out_c;
    int32_t oc = 0;
    for (; oc + 2 <= out_c; oc += 2) {
      int32_t acc[4] = {folded_bias[oc], folded_bias[oc + 1], folded_bias[oc], folded_bias[oc + 1]};
      const int8_t* w0 = filter + size_t(oc) * ks;
      if (x1 == x0 + ks)
        dot2x2S8Strided(x0, w0, k, k, acc);
      else
        dot2x2S8(x0, x1, w0, w0 + ks, k, acc);
      for (int32_t c = 0; c < 2; ++c) {
        const int32_t m = q.multipliers[oc + c], s = q.shifts[oc + c];
        y0[oc + c] = requantizeToInt8(acc[c], m, s, q.output_zero_point, q.act_min, q.act_max);
        y1[oc + c] = requantizeToInt8(acc[2 + c], m, s, q.output_zero_point, q.act_min, q.act_max);
      }
    }
    if (oc < out_c) {
      const int8_t* w = filter + size_t(oc) * ks;
      const int32_t m = q.multipliers[oc], s = q.shifts[oc];
      y0[oc] = requantizeToInt8(dot1x1S8(x0, w, k, folded_bias[oc]), m, s, q.output_zero_point,
                                q.act_min, q.act_max);
      y1[oc] = requantizeToInt8(dot1x1S8(x1, w, k, folded_bias[oc]), m, s, q.output_zero_point,
                                q.act_min, q.act_max);
    }
  }
  if (i < pixels) {
    const int8_t* x = pixelInput(i);
    int8_t* y = output + size_t(i) * size_t(out_c);
    int32_t oc = 0;
    for (; oc + 4 <= out_c; oc += 4) {
      int32_t acc[4] = {folded_bias[oc], folded_bias[oc + 1], folded_bias[oc + 2],
                        folded_bias[oc + 3]};
      dot1x4S8(x, filter + size_t(oc) * ks, k, k, acc);
      for (int32_t c = 0; c < 4; ++c)
        y[oc + c] = requantizeToInt8(acc[c], q.multipliers[oc + c], q.shifts[oc + c],
                                     q.output_zero_point, q.act_min, q.act_max);
    }
    for (; oc < out_c; ++oc)
      y[oc] = requantizeToInt8(dot1x1S8(x, filter + size_t(oc) * ks, k, folded_bias[oc]),
                               q.multipliers[oc], q.shifts[oc], q.output_zero_point, q.act_min,
                               q.act_max);
  }
}

size_t convInt8Im2colScratchElements(const ConvParams& p) {
  return 2 * columnStride(p);
}

void convInt8Im2col(const ConvParams& p, const int8_t* input, const int8_t* filter,
                    int16_t* scratch, int8_t* output) {
  const WindowGeometry g = p.geo;
  const ChannelRequant q = p.quant;
  const int32_t filter_in_c = p.filter_in_c, per_group = p.filters_per_group;
  const int32_t groups = g.out_c / per_group;
  const int32_t k = g.filter_h * g.filter_w * filter_in_c;
  const size_t ks = size_t(k), out_c = size_t(g.out_c);
  int16_t* col0 = scratch;
  int16_t* col1 = scratch + columnStride(p);
  const int32_t pixels_per_image = g.out_h * g.out_w;
  const int32_t pixels = g.batches * pixels_per_image;
  const size_t image_size = size_t(g.in_h) * size_t(g.in_w) * size_t(g.in_c);

  auto fill = [&](int32_t i, int32_t channel_base, int16_t* column) {
    const int32_t b = i / pixels_per_image, r = i % pixels_per_image;
    fillColumn(g, filter_in_c, channel_base, q.input_offset, input + size_t(b) * image_size,
               r / g.out_w, r % g.out_w, column);
    im2colOrder(column, k);
  };
  auto store = [&](int8_t* y, int32_t oc, int32_t acc) {
    y[oc] = requantizeToInt8(wrapAdd(acc, q.bias[oc]), q.multipliers[oc], q.shifts[oc],
                             q.output_zero_point, q.act_min, q.act_max);
  };

  for (int32_t i = 0; i < pixels; i += 2) {
    const bool pair = i + 1 < pixels;
    int8_t* y0 = output + size_t(i) * out_c;
    int8_t* y1 = y0 + out_c;
    for (int32_t group = 0; group < groups; ++group) {
      fill(i, group * filter_in_c, col0);
      if (pair) fill(i + 1, group * filter_in_c, col1);
      const int32_t first = group * per_group, end = first + per_group;
      int32_t oc = first;
      if (pair) {
        for (; oc + 2 <= end; oc += 2) {
          int32_t acc[4] = {0, 0, 0, 0};
          const int8_t* w0 = filter + size_t(oc) * ks;
          dot2x2S16S8(col0, col1, w0, w0 + ks, k, acc);
          store(y0, oc, acc[0]);
          store(y0, oc + 1, acc[1]);
          store(y1, oc, acc[2]);
          store(y1, oc + 1, acc[3]);
        }
      }
      for (; oc < end; ++oc) {
        const int8_t* w = filter + size_t(oc) * ks;
        store(y0, oc, dot1x1S16S8(col0, w, k, 0));
        if (pair) store(y1, oc, dot1x1S16S8(col1, w, k, 0));
      }
    }
  }
}

}  // namespace hilsim::kernels::opt
