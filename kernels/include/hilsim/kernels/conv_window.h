#pragma once
// Geometry of an NHWC window operation (convolution, depthwise convolution, pooling), computed
// once by the runtime's prepare: sizes, strides, dilations and the padding before the first row
// and column. Freestanding.

#include <cstdint>

namespace hilsim::kernels {

// Sizes of an NHWC window operation; all positive once validated.
struct WindowGeometry {
  int32_t batches = 0;
  int32_t in_h = 0, in_w = 0, in_c = 0;
  int32_t filter_h = 0, filter_w = 0;
  int32_t out_h = 0, out_w = 0, out_c = 0;
  int32_t stride_h = 1, stride_w = 1;
  int32_t dilation_h = 1, dilation_w = 1;
  int32_t pad_h = 0, pad_w = 0;  // padding before the first row / column

  uint64_t outputs() const {
    return uint64_t(batches) * uint64_t(out_h) * uint64_t(out_w) * uint64_t(out_c);
  }
  // Whether every tap of the window of output (out_y, out_x) lies inside the input.
  bool windowInside(int32_t out_y, int32_t out_x) const {
    const int32_t y0 = out_y * stride_h - pad_h;
    const int32_t x0 = out_x * stride_w - pad_w;
    return y0 >= 0 && x0 >= 0 && y0 + (filter_h - 1) * dilation_h < in_h &&
           x0 + (filter_w - 1) * dilation_w < in_w;
  }
  // Filter taps inside the input, summed over every output position of one channel (taps in
  // the padding are skipped by the kernels).
  uint64_t insideTaps() const {
    const auto inside = [](int32_t out, int32_t stride, int32_t pad, int32_t filter,
                           int32_t dilation, int32_t in) {
      uint64_t taps = 0;
      for (int32_t o = 0; o < out; ++o)
        for (int32_t f = 0; f < filter; ++f) {
          const int32_t i = o * stride - pad + f * dilation;
          if (i >= 0 && i < in) ++taps;
        }
      return taps;
    };
    return uint64_t(batches) * inside(out_h, stride_h, pad_h, filter_h, dilation_h, in_h) *
           inside(out_w, stride_w, pad_w, filter_w, dilation_w, in_w);
  }
};

}  // namespace hilsim::kernels
