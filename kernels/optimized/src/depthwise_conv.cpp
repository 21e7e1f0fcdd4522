#include "hilsim/kernels/optimized/depthwise_conv.h"

#include <cstddef>

#include "hilsim/kernels/optimized/requant.h"
#include "hilsim/kernels/optimized/simd.h"

namespace hilsim::kernels::opt {
namespace {

// [first, end) of the filter taps along one axis whose input coordinate start + t * dilation
// lies in [0, size).
struct TapRange {
  int32_t first, end;
};

TapRange tapRange(int32_t start, int32_t dilation, int32_t taps, int32_t size) {
  int32_t first = start < 0 ? (-start + dilation - 1) / dilation : 0;
  int32_t end = size - start <= 0 ? 0 : (size - start + dilation - 1) / dilation;
  if (end > taps) end = taps;
  if (first > end) first = end;
  return {first, end};
}

// Sums of four neighbouring channels (c .. c + 3) over the taps of one window.
struct Sum4 {
  int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;

  // Adds w[c..c+3] * (x[c..c+3] + offset); `offset2` holds the offset in both halfwords.
  void add(const int8_t* x, const int8_t* w, int32_t offset, uint32_t offset2) {
#if HILSIM_OPT_DSP
    (void)offset;
    const uint32_t xw = load4(x), ww = load4(w);
    const uint32_t xe = sxtab16(offset2, xw), xo = sxtab16Odd(offset2, xw);
    const uint32_t we = sxtb16(ww), wo = sxtb16Odd(ww);
    s0 = smlabb(xe, we, s0);
    s2 = smlatt(xe, we, s2);
    s1 = smlabb(xo, wo, s1);
    s3 = smlatt(xo, wo, s3);
#else
    (void)offset2;
    s0 = static_cast<int32_t>(static_cast<uint32_t>(s0) +
                              static_cast<uint32_t>(int32_t{w[0]} * (int32_t{x[0]} + offset)));
    s1 = static_cast<int32_t>(static_cast<uint32_t>(s1) +
                              static_cast<uint32_t>(int32_t{w[1]} * (int32_t{x[1]} + offset)));
    s2 = static_cast<int32_t>(static_cast<uint32_t>(s2) +
                              static_cast<uint32_t>(int32_t{w[2]} * (int32_t{x[2]} + offset)));
    s3 = static_cast<int32_t>(static_cast<uint32_t>(s3) +
                              static_cast<uint32_t>(int32_t{w[3]} * (int32_t{x[3]} + offset)));
#endif
  }
};

struct Output {
  const ChannelRequant& q;
  int8_t* y;
  void store(int32_t c, int32_t sum) const {
    y[c] = requantizeToInt8(wrapAdd(sum, q.bias[c]), q.multipliers[c], q.shifts[c],
                            q.output_zero_point, q.act_min, q.act_max);
  }
};

// GCC 12.2's loop vectorizer (-O3) turns the four-channel reduction below into wrong code on
// x86-64 (channels 2 and 3 get wrong sums; clang and GCC -O2 are right), so it is kept scalar.
#if defined(__GNUC__) && !defined(__clang__)
#define HILSIM_OPT_NO_LOOP_VECTORIZE __attribute__((optimize("no-tree-loop-vectorize")))
#else
#define HILSIM_OPT_NO_LOOP_VECTORIZE
#endif

// One output pixel over the taps [ry) x [rx) of its window; image points at the window's
// (0, 0) tap (which may lie outside the input), in units of pixels. The geometry and the
// requantization come by value: the int8 stores through `y` cannot alias a copy of its own,
// so they stay in registers across the output stage instead of being read again per channel.
HILSIM_OPT_NO_LOOP_VECTORIZE void pixelGeneral(const WindowGeometry g, int32_t depth_multiplier,
                                               const ChannelRequant q, const int8_t* image,
                                               int32_t y0, int32_t x0, TapRange ry, TapRange rx,
                                               const int8_t* filter, int8_t* y) {
  const size_t in_c = size_t(g.in_c), out_c = size_t(g.out_c);
  const size_t in_row = size_t(g.in_w) * in_c, filter_row = size_t(g.filter_w) * out_c;
  const int32_t offset = q.input_offset;
  const uint32_t offset2 = (static_cast<uint32_t>(offset) & 0xFFFFu) * 0x10001u;
  const Output out{q, y};
  const size_t x_step = size_t(g.dilation_w) * in_c;
  auto tapInput = [&](int32_t fy, int32_t fx) {
    return image + size_t(y0 + fy * g.dilation_h) * in_row + size_t(x0 + fx * g.dilation_w) * in_c;
  };

  if (depth_multiplier == 1) {
    const int32_t columns = rx.end - rx.first;
    int32_t c = 0;
    for (; c + 4 <= g.in_c; c += 4) {
      Sum4 sum;
      for (int32_t fy = ry.first; fy < ry.end; ++fy) {
        const int8_t* x = tapInput(fy, rx.first) + c;
        const int8_t* w = filter + size_t(fy) * filter_row + size_t(rx.first) * out_c + size_t(c);
        // Rows of two or three taps (a 3x3 filter at the border) without the column loop.
        if (columns == 2 || columns == 3) {
          sum.add(x, w, offset, offset2);
          sum.add(x + x_step, w + out_c, offset, offset2);
          if (columns == 3) sum.add(x + 2 * x_step, w + 2 * out_c, offset, offset2);
          continue;
        }
        for (int32_t n = columns; n > 0; --n, x += x_step, w += out_c)
          sum.add(x, w, offset, offset2);
      }
      out.store(c, sum.s0);
      out.store(c + 1, sum.s1);
      out.store(c + 2, sum.s2);
      out.store(c + 3, sum.s3);
    }
    for (; c < g.in_c; ++c) {
      uint32_t sum = 0;
      for (int32_t fy = ry.first; fy < ry.end; ++fy)
        for (int32_t fx = rx.first; fx < rx.end; ++fx)
          sum += static_cast<uint32_t>(
              int32_t{filter[size_t(fy) * filter_row + size_t(fx) * out_c + size_t(c)]} *
              (int32_t{tapInput(fy, fx)[c]} + offset));
      out.store(c, static_cast<int32_t>(sum));
    }
    return;
  }
  for (int32_t ic = 0; ic < g.in_c; ++ic) {
    for (int32_t m = 0; m < depth_multiplier; ++m) {
      const int32_t oc = ic * depth_multiplier + m;
      uint32_t sum = 0;
      for (int32_t fy = ry.first; fy < ry.end; ++fy)
        for (int32_t fx = rx.first; fx < rx.end; ++fx)
          sum += static_cast<uint32_t>(
              int32_t{filter[size_t(fy) * filter_row + size_t(fx) * out_c + size_t(oc)]} *
              (int32_t{tapInput(fy, fx)[ic]} + offset));
      out.store(oc, static_cast<int32_t>(sum));
    }
  }
}

template <bool kUnrolled3x3>
void run(const DepthwiseConvParams& p, const int8_t* input, const int8_t* filter, int8_t* output) {
  // Local copies: stores through the int8 output may alias anything read through `p`.
  const WindowGeometry g = p.geo;
  const ChannelRequant q = p.quant;
  const int32_t depth_multiplier = p.depth_multiplier;
  const size_t in_c = size_t(g.in_c), out_c = size_t(g.out_c);
  const size_t in_row = size_t(g.in_w) * in_c, filter_row = size_t(g.filter_w) * out_c;
  const int32_t offset = q.input_offset;
  const uint32_t offset2 = (static_cast<uint32_t>(offset) & 0xFFFFu) * 0x10001u;

  for (int32_t b = 0; b < g.batches; ++b) {
    const int8_t* image = input + size_t(b) * size_t(g.in_h) * in_row;
    for (int32_t out_y = 0; out_y < g.out_h; ++out_y) {
      const int32_t y0 = out_y * g.stride_h - g.pad_h;
      const TapRange ry = tapRange(y0, g.dilation_h, g.filter_h, g.in_h);
      for (int32_t out_x = 0; out_x < g.out_w; ++out_x, output += out_c) {
        const int32_t x0 = out_x * g.stride_w - g.pad_w;
        const TapRange rx = tapRange(x0, g.dilation_w, g.filter_w, g.in_w);
        const bool interior = ry.first == 0 && ry.end == 3 && rx.first == 0 && rx.end == 3;
        if (!kUnrolled3x3 || !interior) {
          pixelGeneral(g, depth_multiplier, q, image, y0, x0, ry, rx, filter, output);
          continue;
        }
        const int8_t* r0 = image + size_t(y0) * in_row + size_t(x0) * in_c;
        const int8_t* r1 = r0 + in_row;
        const int8_t* r2 = r1 + in_row;
        const int8_t* f0 = filter;
        const int8_t* f1 = f0 + filter_row;
        const int8_t* f2 = f1 + filter_row;
        const Output out{q, output};
        int32_t c = 0;
        // At depth multiplier 1 a filter row is three channel rows (filter_row = 3 * in_c), so
        // the three taps of a row lie in_c apart in the input and in the filter alike: each tap's
        // weights are read at one distance from its inputs, which changes only between rows. One
        // pointer and that distance keep the loop's pointers, sums and operands in registers.
        for (; c + 4 <= g.in_c; c += 4) {
          Sum4 sum;
          const int8_t* x = r0 + c;
          uintptr_t to_w = reinterpret_cast<uintptr_t>(f0 + c) - reinterpret_cast<uintptr_t>(x);
          const auto weights = [&to_w](const int8_t* tap) {
            return reinterpret_cast<const int8_t*>(reinterpret_cast<uintptr_t>(tap) + to_w);
          };
          const int8_t* const x_end = x + 3 * in_row;
          for (; x != x_end; x += in_row, to_w += 3 * in_c - in_row) {
            const int8_t* x1 = x + in_c;
            const int8_t* x2 = x1 + in_c;
            sum.add(x, weights(x), offset, offset2);
            sum.add(x1, weights(x1), offset, offset2);
            sum.add(x2, weights(x2), offset, offset2);
          }
          out.store(c, sum.s0);
          out.store(c + 1, sum.s1);
          out.store(c + 2, sum.s2);
          out.store(c + 3, sum.s3);
        }
        for (; c < g.in_c; ++c) {
          uint32_t sum = 0;
          for (int32_t t = 0; t < 3; ++t) {
            const size_t xi = size_t(t) * in_c + size_t(c), wi = size_t(t) * out_c + size_t(c);
            sum += static_cast<uint32_t>(int32_t{f0[wi]} * (int32_t{r0[xi]} + offset));
            sum += static_cast<uint32_t>(int32_t{f1[wi]} * (int32_t{r1[xi]} + offset));
            sum += static_cast<uint32_t>(int32_t{f2[wi]} * (int32_t{r2[xi]} + offset));
          }
          out.store(c, static_cast<int32_t>(sum));
        }
      }
    }
  }
}

}  // namespace

bool depthwiseConvInt8Is3x3(const DepthwiseConvParams& p) {
  const WindowGeometry& g = p.geo;
  return g.filter_h == 3 && g.filter_w == 3 && g.dilation_h == 1 && g.dilation_w == 1 &&
         p.depth_multiplier == 1;
}

void depthwiseConvInt8(const DepthwiseConvParams& p, const int8_t* input, const int8_t* filter,
                       int8_t* output) {
  run<false>(p, input, filter, output);
}

void depthwiseConvInt8_3x3(const DepthwiseConvParams& p, const int8_t* input, const int8_t* filter,
                           int8_t* output) {
  run<true>(p, input, filter, output);
}

}  // namespace hilsim::kernels::opt
