#include "hilsim/kernels/optimized/pooling.h"

#include <cstddef>
#include <cstring>

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
#if !HILSIM_OPT_DSP
  // Every tap updates all channels of the output pixel, walked with strided pointers.
  const int32_t act_min = p.act_min, act_max = p.act_max;
  const int32_t channels = g.in_c;
  const size_t in_row = size_t(g.in_w) * size_t(channels);
  forEachWindow(g, input, output, [&](const int8_t* first, int32_t rows, int32_t cols, int8_t* y) {
    for (int32_t c = 0; c < channels; ++c) y[c] = -128;
    const int8_t* row = first;
    for (int32_t r = 0; r < rows; ++r, row += in_row) {
      const int8_t* x = row;
      for (int32_t t = 0; t < cols; ++t, x += channels)
        for (int32_t c = 0; c < channels; ++c) y[c] = x[c] > y[c] ? x[c] : y[c];
    }
    for (int32_t c = 0; c < channels; ++c) y[c] = clampS8(y[c], act_min, act_max);
  });
#else
  const int32_t act_min = p.act_min, act_max = p.act_max;
  const int32_t channels = g.in_c;
  const size_t in_row = size_t(g.in_w) * size_t(channels);
  // The running maxima live in the output pixel; every tap updates all channels, four per word.
  forEachWindow(g, input, output, [&](const int8_t* first, int32_t rows, int32_t cols, int8_t* y) {
    for (int32_t c = 0; c < channels; ++c) y[c] = -128;
    const int8_t* row = first;
    for (int32_t r = 0; r < rows; ++r, row += in_row) {
      const int8_t* x = row;
      for (int32_t t = 0; t < cols; ++t, x += channels) {
        int32_t c = 0;
        for (; c + 4 <= channels; c += 4) {
          const uint32_t m = max4S8(load4(x + c), load4(y + c));
          std::memcpy(y + c, &m, 4);
        }
        for (; c < channels; ++c) y[c] = x[c] > y[c] ? x[c] : y[c];
      }
    }
    for (int32_t c = 0; c < channels; ++c) y[c] = clampS8(y[c], act_min, act_max);
  });
#endif
}

void averagePoolInt8(const PoolParams& p, const int8_t* input, int32_t* acc, int8_t* output) {
  const WindowGeometry g = p.geo;
#if !HILSIM_OPT_DSP
  // The window's sums of all channels in `acc`, every tap adding to each.
  const int32_t act_min = p.act_min, act_max = p.act_max;
  const int32_t channels = g.in_c;
  const size_t in_row = size_t(g.in_w) * size_t(channels);
  forEachWindow(g, input, output, [&](const int8_t* first, int32_t rows, int32_t cols, int8_t* y) {
    for (int32_t c = 0; c < channels; ++c) acc[c] = 0;
    const int8_t* row = first;
    for (int32_t r = 0; r < rows; ++r, row += in_row) {
      const int8_t* x = row;
      for (int32_t t = 0; t < cols; ++t, x += channels)
        for (int32_t c = 0; c < channels; ++c) acc[c] += x[c];
    }
    const int32_t count = rows * cols;
    for (int32_t c = 0; c < channels; ++c)
      y[c] = clampS8(roundedAverage(acc[c], count), act_min, act_max);
  });
#else
  const int32_t act_min = p.act_min, act_max = p.act_max;
  const int32_t channels = g.in_c;
  const size_t in_row = size_t(g.in_w) * size_t(channels);
  forEachWindow(g, input, output, [&](const int8_t* first, int32_t rows, int32_t cols, int8_t* y) {
    const int32_t count = rows * cols;
    int32_t c0 = 0;  // channels from c0 on are summed in int32
    if (count <= 256) {
      // Halfword sums, exact for at most 256 taps: word 2j of `acc` holds channels (4j, 4j + 2),
      // word 2j + 1 channels (4j + 1, 4j + 3).
      c0 = channels & ~int32_t{3};
      uint32_t* sums = reinterpret_cast<uint32_t*>(acc);
      for (int32_t j = 0; j < c0 / 2; ++j) sums[j] = 0;
      const int8_t* row = first;
      for (int32_t r = 0; r < rows; ++r, row += in_row) {
        const int8_t* x = row;
        for (int32_t t = 0; t < cols; ++t, x += channels) {
          for (int32_t c = 0; c < c0; c += 4) {
            const uint32_t w = load4(x + c);
            sums[c / 2] = sadd16(sums[c / 2], sxtb16(w));
            sums[c / 2 + 1] = sadd16(sums[c / 2 + 1], sxtb16Odd(w));
          }
        }
      }
      for (int32_t c = 0; c < c0; c += 4) {
        const uint32_t even = sums[c / 2], odd = sums[c / 2 + 1];
        const int32_t lanes[4] = {
            static_cast<int16_t>(even & 0xFFFFu), static_cast<int16_t>(odd & 0xFFFFu),
            static_cast<int16_t>(even >> 16), static_cast<int16_t>(odd >> 16)};
        for (int32_t lane = 0; lane < 4; ++lane)
          y[c + lane] = clampS8(roundedAverage(lanes[lane], count), act_min, act_max);
      }
    }
    const int32_t rest = channels - c0;
    if (rest == 0) return;
    for (int32_t i = 0; i < rest; ++i) acc[i] = 0;
    const int8_t* row = first + c0;
    for (int32_t r = 0; r < rows; ++r, row += in_row) {
      const int8_t* x = row;
      for (int32_t t = 0; t < cols; ++t, x += channels)
        for (int32_t i = 0; i < rest; ++i) acc[i] += x[i];
    }
    for (int32_t i = 0; i < rest; ++i)
      y[c0 + i] = clampS8(roundedAverage(acc[i], count), act_min, act_max);
  });
#endif
}

}  // namespace hilsim::kernels::opt
