#include "hilsim/kernels/optimized/pooling.h"

#include <cstddef>

#include "hilsim/kernels/optimized/simd.h"

namespace hilsim::kernels::opt {
namespace {

struct TapRange {
  int32_t first, end;
};

TapRange tapRange(int32_t origin, int32_t taps, int32_t size) {
  const int32_t first = origin < 0 ? -origin : 0;
  const int32_t end = size - origin < taps ? size - origin : taps;
  return {first, end};
}

inline int8_t clampS8(int32_t v, int32_t lo, int32_t hi) {
  return static_cast<int8_t>(v < lo ? lo : v > hi ? hi : v);
}

// Calls visit(pixel of the window's first valid tap, rows, cols, output) for every output pixel.
template <typename Visit>
void forEachWindow(const WindowGeometry& g, const int8_t* input, int8_t* output, Visit visit) {
  const size_t channels = size_t(g.in_c);
  const size_t in_row = size_t(g.in_w) * channels;
  for (int32_t b = 0; b < g.batches; ++b) {
    const int8_t* image = input + size_t(b) * size_t(g.in_h) * in_row;
    for (int32_t out_y = 0; out_y < g.out_h; ++out_y) {
      const int32_t y0 = out_y * g.stride_h - g.pad_h;
      const TapRange rows = tapRange(y0, g.filter_h, g.in_h);
      for (int32_t out_x = 0; out_x < g.out_w; ++out_x, output += channels) {
        const int32_t x0 = out_x * g.stride_w - g.pad_w;
        const TapRange cols = tapRange(x0, g.filter_w, g.in_w);
        const int8_t* first =
            image + size_t(y0 + rows.first) * in_row + size_t(x0 + cols.first) * channels;
        visit(first, rows.end > rows.first ? rows.end - rows.first : 0,
              cols.end > cols.first ? cols.end - cols.first : 0, output);
      }
    }
  }
}

}  // namespace

void maxPoolInt8(const PoolParams& p, const int8_t* input, int8_t* output) {
  const WindowGeometry g = p.geo;
  const int32_t act_min = p.act_min, act_max = p.act_max;
  const int32_t channels = g.in_c;
  const size_t in_row = size_t(g.in_w) * size_t(channels);
  forEachWindow(g, input, output, [&](const int8_t* first, int32_t rows, int32_t cols, int8_t* y) {
    int32_t c = 0;
#if HILSIM_OPT_DSP
    for (; c + 4 <= channels; c += 4) {
      uint32_t m = 0x80808080u;
      const int8_t* row = first + c;
      for (int32_t r = 0; r < rows; ++r, row += in_row) {
        const int8_t* x = row;
        for (int32_t t = 0; t < cols; ++t, x += channels) m = max4S8(load4(x), m);
      }
      for (int32_t lane = 0; lane < 4; ++lane)
        y[c + lane] = clampS8(static_cast<int8_t>(m >> (8 * lane)), act_min, act_max);
    }
#endif
    for (; c < channels; ++c) {
      int32_t m = -128;
      const int8_t* row = first + c;
      for (int32_t r = 0; r < rows; ++r, row += in_row) {
        const int8_t* x = row;
        for (int32_t t = 0; t < cols; ++t, x += channels) m = *x > m ? *x : m;
      }
      y[c] = clampS8(m, act_min, act_max);
    }
  });
}

void averagePoolInt8(const PoolParams& p, const int8_t* input, int32_t* acc, int8_t* output) {
  const WindowGeometry g = p.geo;
  const int32_t act_min = p.act_min, act_max = p.act_max;
  const int32_t channels = g.in_c;
  const size_t in_row = size_t(g.in_w) * size_t(channels);
  forEachWindow(g, input, output, [&](const int8_t* first, int32_t rows, int32_t cols, int8_t* y) {
    const int32_t count = rows * cols;
    int32_t c = 0;
#if HILSIM_OPT_DSP
    if (count <= 256) {
      for (; c + 4 <= channels; c += 4) {
        uint32_t even = 0, odd = 0;  // halfword sums of channels (c, c + 2) and (c + 1, c + 3)
        const int8_t* row = first + c;
        for (int32_t r = 0; r < rows; ++r, row += in_row) {
          const int8_t* x = row;
          for (int32_t t = 0; t < cols; ++t, x += channels) {
            const uint32_t w = load4(x);
            even = sadd16(even, sxtb16(w));
            odd = sadd16(odd, sxtb16Odd(w));
          }
        }
        const int32_t sums[4] = {static_cast<int16_t>(even & 0xFFFFu),
                                 static_cast<int16_t>(odd & 0xFFFFu),
                                 static_cast<int16_t>(even >> 16), static_cast<int16_t>(odd >> 16)};
        for (int32_t lane = 0; lane < 4; ++lane)
          y[c + lane] = clampS8(roundedAverage(sums[lane], count), act_min, act_max);
      }
    }
#endif
    // The remaining channels: int32 sums, a pass over the window per tap row with all of them.
    const int32_t rest = channels - c;
    if (rest == 0) return;
    for (int32_t i = 0; i < rest; ++i) acc[i] = 0;
    const int8_t* row = first + c;
    for (int32_t r = 0; r < rows; ++r, row += in_row) {
      const int8_t* x = row;
      for (int32_t t = 0; t < cols; ++t, x += channels)
        for (int32_t i = 0; i < rest; ++i) acc[i] += x[i];
    }
    for (int32_t i = 0; i < rest; ++i)
      y[c + i] = clampS8(roundedAverage(acc[i], count), act_min, act_max);
  });
}

}  // namespace hilsim::kernels::opt
