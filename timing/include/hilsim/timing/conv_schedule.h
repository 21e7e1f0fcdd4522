#pragma once
// A convolution job on one core, as a schedule of steps (core_schedule.h) that the simulated core
// and the planner's timeline both walk. docs/CONVOLUTION.md has the mapping and every formula.
//
// A CONV_2D layer is a GEMM: M = batches x out_h x out_w output pixels, K = filter_h x filter_w
// x in_c, N = out_c. A core computes output rows [oy_begin, oy_begin + oy_count) of every image
// (all batches) for output channels [n_begin, n_begin + n_count), in bands of band_rows output
// rows and tiles of tile_n output channels. A band's input is the whole NHWC input rows its
// windows read (the halo rows shared with the neighbouring band are read again); the core's
// address generator forms the windows (im2col) from them in step with the array.
//
// DEPTHWISE_CONV_2D maps to one GEMM per output channel c: M pixels, K = filter_h x filter_w
// taps of input channel c / depth_multiplier, N = 1.
//
// Steps run band-major: for each band, every weight tile; with double buffering the outputs
// alternate between two buffers too, so a step may wait for the store of the step two before.

#include <cstdint>
#include <vector>

#include "hilsim/timing/core_schedule.h"
#include "hilsim/timing/core_timing.h"

namespace hilsim::timing {

// NHWC geometry of an int8 convolution with TensorFlow Lite's padding (pad_h, pad_w: rows and
// columns of padding before the first input row and column).
struct ConvGeometry {
  uint32_t batches = 1;
  uint32_t in_h = 0, in_w = 0, in_c = 0;
  uint32_t filter_h = 1, filter_w = 1;
  uint32_t stride_h = 1, stride_w = 1;
  uint32_t dilation_h = 1, dilation_w = 1;
  uint32_t pad_h = 0, pad_w = 0;
  uint32_t out_h = 0, out_w = 0, out_c = 0;
  bool depthwise = false;
  uint32_t depth_multiplier = 1;  // depthwise: out_c = in_c x depth_multiplier

  // Rows of input one output row's window spans: (filter_h - 1) x dilation_h + 1.
  uint64_t windowRows() const { return (uint64_t{filter_h} - 1) * dilation_h + 1; }
  uint64_t pixels() const { return uint64_t{batches} * out_h * out_w; }  // M
  // The reduction of one output: filter_h x filter_w x in_c (depthwise: filter_h x filter_w).
  uint64_t k() const { return uint64_t{filter_h} * filter_w * (depthwise ? 1 : in_c); }
  uint64_t macs() const { return pixels() * k() * out_c; }
  uint64_t inputBytes() const { return uint64_t{batches} * in_h * in_w * in_c; }
  uint64_t outputBytes() const { return pixels() * out_c; }
  // Filter taps inside the input, summed over every output position of one channel (taps in
  // the padding are skipped by the kernels).
  uint64_t insideTaps() const;
  uint64_t inputRowBytes() const { return uint64_t{in_w} * in_c; }
  bool operator==(const ConvGeometry& o) const;
  bool operator!=(const ConvGeometry& o) const { return !(*this == o); }
};

// Filter taps along one axis that lie inside the input, summed over the `out` output positions
// (position o's taps read o * stride - pad + f * dilation for f < filter).
uint64_t tapsInside(uint32_t out, uint32_t stride, uint32_t pad, uint32_t filter, uint32_t dilation,
                    uint32_t in);

// Input rows [begin, begin + count) that output rows [oy_begin, oy_begin + oy_count) read,
// clipped to the input (rows in the padding are not loaded).
struct RowRange {
  uint32_t begin = 0;
  uint32_t count = 0;
};
RowRange inputRows(const ConvGeometry& g, uint32_t oy_begin, uint32_t oy_count);

// The most input rows a band of `band_rows` output rows reads: min(in_h, (band_rows - 1) x
// stride_h + windowRows()). Input buffers are this large.
uint64_t maxBandInputRows(const ConvGeometry& g, uint32_t band_rows);

// One core's share of a convolution (a chunk of the plan).
struct ConvCoreWork {
  uint32_t core = 0;
  uint32_t oy_begin = 0, oy_count = 0;  // output rows, in every image
  uint32_t band_rows = 0, num_bands = 0;
  uint32_t n_count = 0, tile_n = 0, num_tiles = 0;  // output channels
  bool double_buffer = false;

  // Output rows of band b (the last may be shorter).
  uint32_t bandOutputRows(uint32_t b) const;
  uint32_t bandFirstRow(uint32_t b) const { return oy_begin + b * band_rows; }
  // Output channels of tile t (the last may be narrower).
  uint32_t tileFeatures(uint32_t t) const;
  uint32_t steps() const { return num_bands * num_tiles; }
};

// How many input, weight-tile and output buffers a core keeps: two of a kind when double
// buffering and more than one of it is needed, else one.
struct ConvBuffers {
  uint32_t input = 1;
  uint32_t tile = 1;
  uint32_t output = 1;
};
ConvBuffers convBuffers(const ConvCoreWork& w);

// The core's steps, band-major, each operand placed in the buffers convBuffers gives.
std::vector<CoreStep> convSchedule(const ConvCoreWork& w);

// Sizes of a core's transfers and buffers, in bytes.
uint64_t bandLoadBytes(const ConvGeometry& g, const ConvCoreWork& w, uint32_t band);
uint64_t tileLoadBytes(const ConvGeometry& g, const ConvCoreWork& w, uint32_t tile,
                       uint32_t param_bytes_per_feature);
uint64_t stepOutputBytes(const ConvGeometry& g, const ConvCoreWork& w, const CoreStep& s);
// The largest buffer of each kind the core needs.
uint64_t inputBufferBytes(const ConvGeometry& g, const ConvCoreWork& w);
uint64_t tileBufferBytes(const ConvGeometry& g, const ConvCoreWork& w,
                         uint32_t param_bytes_per_feature);
uint64_t outputBufferBytes(const ConvGeometry& g, const ConvCoreWork& w);

// Compute cycles of one step: SCALE-Sim's GEMM on the im2col operands, (M = the band's pixels,
// K, N = the tile's channels); depthwise: the tile's channels, each a GEMM with N = 1.
ComputeCycles convStepCycles(Dataflow dataflow, ArrayShape array, const ConvGeometry& g,
                             const ConvCoreWork& w, const CoreStep& s);

}  // namespace hilsim::timing
