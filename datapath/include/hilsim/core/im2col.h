#pragma once
// The core's address generator for convolutions: it forms each output pixel's window from the
// input rows a band loaded into SRAM, as the im2col operand of SCALE-Sim's convolution model
// (one row of K values per output pixel), padding with the input zero point where a tap falls
// outside the input. No SystemC.

#include <cstdint>

namespace hilsim::core {

// Where the windows come from: NHWC input rows [first_row, first_row + rows) of every image,
// packed image after image, and the window geometry (TensorFlow Lite's padding: pad_h, pad_w
// rows and columns before the input).
struct WindowSource {
  uint32_t batches = 1;
  uint32_t in_h = 0, in_w = 0, in_c = 0;
  uint32_t first_row = 0, rows = 0;
  uint32_t filter_h = 1, filter_w = 1;
  uint32_t stride_h = 1, stride_w = 1;
  uint32_t dilation_h = 1, dilation_w = 1;
  uint32_t pad_h = 0, pad_w = 0;
  uint32_t out_w = 0;
  int32_t zero_point = 0;
};

// Writes the windows of output rows [oy_begin, oy_begin + oy_count) of every image to `out`:
// batches x oy_count x out_w rows (image, row, column order) of filter_h x filter_w x channels
// values ((fy, fx, c) order) of input channels [channel_begin, channel_begin + channels). Every
// tap inside the input must lie in the rows `band` holds.
void gatherWindows(const WindowSource& s, const int8_t* band, uint32_t oy_begin, uint32_t oy_count,
                   uint32_t channel_begin, uint32_t channels, int8_t* out);

}  // namespace hilsim::core
