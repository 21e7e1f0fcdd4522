#include "hilsim/kernels/pooling.h"

#include <algorithm>
#include <cstddef>
#include <limits>

namespace hilsim::kernels {
namespace {

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
      const int32_t fy_begin = std::max(0, -y0);
      const int32_t fy_end = std::min(g.filter_h, g.in_h - y0);
      for (int32_t out_x = 0; out_x < g.out_w; ++out_x) {
        const int32_t x0 = out_x * g.stride_w - g.pad_w;
        const int32_t fx_begin = std::max(0, -x0);
        const int32_t fx_end = std::min(g.filter_w, g.in_w - x0);
        std::fill(output, output + channels, std::numeric_limits<T>::lowest());
        for (int32_t fy = fy_begin; fy < fy_end; ++fy) {
          for (int32_t fx = fx_begin; fx < fx_end; ++fx) {
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

}  // namespace

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
