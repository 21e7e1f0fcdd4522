#include "hilsim/kernels/pooling.h"

#include <algorithm>
#include <cstddef>
#include <limits>

namespace hilsim::kernels {
namespace {

// The taps of a window along one dimension: [begin, end) of the filter.
struct TapRange {
  int32_t begin;
  int32_t end;
};

inline TapRange tapRange(int32_t origin, int32_t filter, int32_t in_size) {
  return {std::max<int32_t>(0, -origin), std::min<int32_t>(filter, in_size - origin)};
}

// All channels of an output pixel at once: `output` holds the running maxima, so every channel
// sees its taps in TFLite Micro's order (rows, then columns).
template <typename T, typename Clamp>
void maxPool(const PoolParams& p, const T* input, T* output, Clamp clamp) {
  const WindowGeometry& g = p.geo;
  const size_t channels = size_t(g.in_c);
  for (int32_t b = 0; b < g.batches; ++b) {
    const T* image = input + size_t(b) * size_t(g.in_h) * size_t(g.in_w) * channels;
    for (int32_t out_y = 0; out_y < g.out_h; ++out_y) {
      const int32_t y0 = out_y * g.stride_h - g.pad_h;
      const TapRange rows = tapRange(y0, g.filter_h, g.in_h);
      for (int32_t out_x = 0; out_x < g.out_w; ++out_x) {
        const int32_t x0 = out_x * g.stride_w - g.pad_w;
        const TapRange cols = tapRange(x0, g.filter_w, g.in_w);
        std::fill(output, output + channels, std::numeric_limits<T>::lowest());
        for (int32_t fy = rows.begin; fy < rows.end; ++fy) {
          for (int32_t fx = cols.begin; fx < cols.end; ++fx) {
            const T* x = image + (size_t(y0 + fy) * size_t(g.in_w) + size_t(x0 + fx)) * channels;
            for (size_t c = 0; c < channels; ++c) output[c] = std::max(output[c], x[c]);
          }
        }
        for (size_t c = 0; c < channels; ++c) output[c] = clamp(output[c]);
        output += channels;
      }
    }
  }
}

// TFLite Micro's int8 and int16 AveragePool: the raw taps summed in int32 (inputs and outputs
// share their quantization, so no zero point is removed), divided by the number of taps inside
// the input.
template <typename T>
void averagePool(const PoolParams& p, const T* input, int32_t* acc, T* output) {
  const WindowGeometry& g = p.geo;
  const size_t channels = size_t(g.in_c);
  for (int32_t b = 0; b < g.batches; ++b) {
    const T* image = input + size_t(b) * size_t(g.in_h) * size_t(g.in_w) * channels;
    for (int32_t out_y = 0; out_y < g.out_h; ++out_y) {
      const int32_t y0 = out_y * g.stride_h - g.pad_h;
      const TapRange rows = tapRange(y0, g.filter_h, g.in_h);
      for (int32_t out_x = 0; out_x < g.out_w; ++out_x) {
        const int32_t x0 = out_x * g.stride_w - g.pad_w;
        const TapRange cols = tapRange(x0, g.filter_w, g.in_w);
        const int32_t count = (rows.end - rows.begin) * (cols.end - cols.begin);
        std::fill(acc, acc + channels, 0);
        for (int32_t fy = rows.begin; fy < rows.end; ++fy) {
          for (int32_t fx = cols.begin; fx < cols.end; ++fx) {
            const T* x = image + (size_t(y0 + fy) * size_t(g.in_w) + size_t(x0 + fx)) * channels;
            for (size_t c = 0; c < channels; ++c) acc[c] += x[c];
          }
        }
        for (size_t c = 0; c < channels; ++c) {
          const int32_t average = roundedAverage(acc[c], count);
          *output++ = static_cast<T>(std::clamp(average, p.act_min, p.act_max));
        }
      }
    }
  }
}

}  // namespace

bool poolWindowsCoverInput(const WindowGeometry& g) {
  for (int32_t out_y = 0; out_y < g.out_h; ++out_y) {
    const TapRange rows = tapRange(out_y * g.stride_h - g.pad_h, g.filter_h, g.in_h);
    if (rows.end <= rows.begin) return false;
  }
  for (int32_t out_x = 0; out_x < g.out_w; ++out_x) {
    const TapRange cols = tapRange(out_x * g.stride_w - g.pad_w, g.filter_w, g.in_w);
    if (cols.end <= cols.begin) return false;
  }
  return true;
}

void averagePoolInt8(const PoolParams& p, const int8_t* input, int32_t* acc, int8_t* output) {
  averagePool(p, input, acc, output);
}

void averagePoolInt16(const PoolParams& p, const int16_t* input, int32_t* acc, int16_t* output) {
  averagePool(p, input, acc, output);
}

void maxPoolInt8(const PoolParams& p, const int8_t* input, int8_t* output) {
  const int8_t lo = static_cast<int8_t>(p.act_min);
  const int8_t hi = static_cast<int8_t>(p.act_max);
  maxPool(p, input, output, [lo, hi](int8_t v) { return std::min(std::max(v, lo), hi); });
}

void maxPoolInt16(const PoolParams& p, const int16_t* input, int16_t* output) {
  const int16_t lo = static_cast<int16_t>(p.act_min);
  const int16_t hi = static_cast<int16_t>(p.act_max);
  maxPool(p, input, output, [lo, hi](int16_t v) { return std::min(std::max(v, lo), hi); });
}

void maxPoolFloat32(const PoolParams& p, const float* input, float* output) {
  const float lo = p.act_min_f;
  const float hi = p.act_max_f;
  maxPool(p, input, output, [lo, hi](float v) { return std::min(std::max(v, lo), hi); });
}

}  // namespace hilsim::kernels
