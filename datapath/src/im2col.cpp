#include "hilsim/core/im2col.h"

#include <cstring>

namespace hilsim::core {

void gatherWindows(const WindowSource& s, const int8_t* band, uint32_t oy_begin, uint32_t oy_count,
                   uint32_t channel_begin, uint32_t channels, int8_t* out) {
  const uint64_t row_bytes = uint64_t{s.in_w} * s.in_c;
  const uint64_t image_bytes = uint64_t{s.rows} * row_bytes;
  const int8_t pad = static_cast<int8_t>(s.zero_point);
  for (uint32_t b = 0; b < s.batches; ++b) {
    const int8_t* image = band + b * image_bytes;
    for (uint32_t oy = oy_begin; oy < oy_begin + oy_count; ++oy) {
      const int64_t y0 = int64_t{oy} * s.stride_h - s.pad_h;
      for (uint32_t ox = 0; ox < s.out_w; ++ox) {
        const int64_t x0 = int64_t{ox} * s.stride_w - s.pad_w;
        for (uint32_t fy = 0; fy < s.filter_h; ++fy) {
          const int64_t y = y0 + int64_t{fy} * s.dilation_h;
          const bool row_inside = y >= 0 && y < s.in_h;
          const int8_t* in_row =
              row_inside ? image + uint64_t(y - s.first_row) * row_bytes : nullptr;
          for (uint32_t fx = 0; fx < s.filter_w; ++fx) {
            const int64_t x = x0 + int64_t{fx} * s.dilation_w;
            if (row_inside && x >= 0 && x < s.in_w)
              std::memcpy(out, in_row + uint64_t(x) * s.in_c + channel_begin, channels);
            else
              std::memset(out, pad, channels);
            out += channels;
          }
        }
      }
    }
  }
}

}  // namespace hilsim::core
