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

// The dimensions of a 4-D NHWC tensor as TFLite Micro's reference kernels index it: the element
// (i0, i1, i2, i3) is at offset4(shape, i0, i1, i2, i3) (TFLite's Offset()). The reference
// kernels compute this for every element they read or write, as TFLite Micro's do.
struct Shape4 {
  int32_t dims[4] = {};
};

inline int32_t offset4(const Shape4& shape, int32_t i0, int32_t i1, int32_t i2, int32_t i3) {
  const int32_t* d = shape.dims;
  return ((i0 * d[1] + i1) * d[2] + i2) * d[3] + i3;
}

}  // namespace hilsim::kernels
