#pragma once
// Output size and padding of a 2-D window (convolution, pooling) as TensorFlow Lite computes
// them (tensorflow/lite/kernels/padding.h): SAME pads so that out = ceil(in / stride), VALID
// does not pad; the padding before the data is half the total, rounded down.

#include <cstdint>

#include "hilsim/schema/tflite_generated.h"

namespace hilsim::rt {

// One spatial dimension of a window.
struct WindowDim {
  int32_t out_size = 0;    // output elements along the dimension (<= 0: window does not fit)
  int32_t pad_before = 0;  // padding in front of the input (the extra odd pixel goes after)
};

// Effective extent of a dilated filter: (filter - 1) * dilation + 1.
inline int64_t dilatedFilterSize(int32_t filter_size, int32_t dilation) {
  return (int64_t{filter_size} - 1) * dilation + 1;
}

// Output size and leading padding for `in_size` inputs, `filter_size` taps spaced by
// `dilation`, moved by `stride`. stride and dilation must be positive.
inline WindowDim computeWindowDim(tflite::Padding padding, int32_t in_size, int32_t filter_size,
                                  int32_t stride, int32_t dilation) {
  const int64_t effective_filter = dilatedFilterSize(filter_size, dilation);
  WindowDim dim;
  const int64_t out = padding == tflite::Padding::SAME
                          ? (int64_t{in_size} + stride - 1) / stride
                          : (int64_t{in_size} + stride - effective_filter) / stride;
  dim.out_size = static_cast<int32_t>(out);
  const int64_t total_padding = (out - 1) * stride + effective_filter - in_size;
  dim.pad_before = total_padding > 0 ? static_cast<int32_t>(total_padding / 2) : 0;
  return dim;
}

}  // namespace hilsim::rt
