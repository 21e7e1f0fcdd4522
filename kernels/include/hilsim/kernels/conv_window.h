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
};

}  // namespace hilsim::kernels
