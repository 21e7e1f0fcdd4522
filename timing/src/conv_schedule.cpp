#include "hilsim/timing/conv_schedule.h"

#include <algorithm>

namespace hilsim::timing {

bool ConvGeometry::operator==(const ConvGeometry& o) const {
  return batches == o.batches && in_h == o.in_h && in_w == o.in_w && in_c == o.in_c &&
         filter_h == o.filter_h && filter_w == o.filter_w && stride_h == o.stride_h &&
         stride_w == o.stride_w && dilation_h == o.dilation_h && dilation_w == o.dilation_w &&
         pad_h == o.pad_h && pad_w == o.pad_w && out_h == o.out_h && out_w == o.out_w &&
         out_c == o.out_c && depthwise == o.depthwise && depth_multiplier == o.depth_multiplier;
}

uint64_t tapsInside(uint32_t out, uint32_t stride, uint32_t pad, uint32_t filter, uint32_t dilation,
                    uint32_t in) {
  uint64_t taps = 0;
  for (uint32_t o = 0; o < out; ++o)
    for (uint32_t f = 0; f < filter; ++f) {
      const int64_t i = int64_t{o} * stride - pad + int64_t{f} * dilation;
      if (i >= 0 && i < int64_t{in}) ++taps;
    }
  return taps;
}

uint64_t ConvGeometry::insideTaps() const {
  return uint64_t{batches} * tapsInside(out_h, stride_h, pad_h, filter_h, dilation_h, in_h) *
         tapsInside(out_w, stride_w, pad_w, filter_w, dilation_w, in_w);
}

RowRange inputRows(const ConvGeometry& g, uint32_t oy_begin, uint32_t oy_count) {
  if (oy_count == 0) return {};
  // In signed 64-bit: the first window may start in the padding above the input.
  const int64_t first = int64_t{oy_begin} * g.stride_h - g.pad_h;
  const int64_t last =
      int64_t{oy_begin + oy_count - 1} * g.stride_h - g.pad_h + int64_t(g.windowRows()) - 1;
  const int64_t begin = std::max<int64_t>(first, 0);
  const int64_t end = std::min<int64_t>(last + 1, g.in_h);
  if (end <= begin) return {static_cast<uint32_t>(std::min<int64_t>(begin, g.in_h)), 0};
  return {static_cast<uint32_t>(begin), static_cast<uint32_t>(end - begin)};
}

uint64_t maxBandInputRows(const ConvGeometry& g, uint32_t band_rows) {
  if (band_rows == 0) return 0;
  return std::min<uint64_t>(g.in_h, (uint64_t{band_rows} - 1) * g.stride_h + g.windowRows());
}

uint32_t ConvCoreWork::bandOutputRows(uint32_t b) const {
  const uint64_t before = uint64_t{b} * band_rows;
  if (before >= oy_count) return 0;
  return static_cast<uint32_t>(std::min<uint64_t>(band_rows, oy_count - before));
}

uint32_t ConvCoreWork::tileFeatures(uint32_t t) const {
  const uint64_t before = uint64_t{t} * tile_n;
  if (before >= n_count) return 0;
  return static_cast<uint32_t>(std::min<uint64_t>(tile_n, n_count - before));
}

ConvBuffers convBuffers(const ConvCoreWork& w) {
  ConvBuffers b;
  if (!w.double_buffer) return b;
  b.input = w.num_bands > 1 ? 2 : 1;
  b.tile = w.num_tiles > 1 ? 2 : 1;
  b.output = w.steps() > 1 ? 2 : 1;
  return b;
}

namespace {

// Where step s finds its operand `wanted`: the buffer holding it (no load), or the buffer it is
// loaded into: the one the previous step does not use when there are two (loaded early), else 0.
void place(int64_t wanted, std::vector<int64_t>& held, int64_t previous_buffer, uint32_t* buffer,
           bool* load, bool* early) {
  for (size_t i = 0; i < held.size(); ++i)
    if (held[i] == wanted) {
      *buffer = static_cast<uint32_t>(i);
      *load = false;
      *early = false;
      return;
    }
  *load = true;
  if (held.size() > 1 && previous_buffer >= 0) {
    *buffer = previous_buffer == 0 ? 1 : 0;
    *early = true;
  } else {
    *buffer = 0;
    *early = false;
  }
  held[*buffer] = wanted;
}

}  // namespace

std::vector<CoreStep> convSchedule(const ConvCoreWork& w) {
  const ConvBuffers buffers = convBuffers(w);
  std::vector<int64_t> bands(buffers.input, -1), tiles(buffers.tile, -1);
  std::vector<CoreStep> steps;
  steps.reserve(w.steps());
  for (uint32_t b = 0; b < w.num_bands; ++b)
    for (uint32_t t = 0; t < w.num_tiles; ++t) {
      CoreStep s;
      s.band = b;
      s.tile = t;
      const CoreStep* previous = steps.empty() ? nullptr : &steps.back();
      place(b, bands, previous ? int64_t{previous->input_buffer} : -1, &s.input_buffer,
            &s.load_band, &s.band_early);
      place(t, tiles, previous ? int64_t{previous->tile_buffer} : -1, &s.tile_buffer, &s.load_tile,
            &s.tile_early);
      const uint64_t index = steps.size();
      s.output_buffer = static_cast<uint32_t>(index % buffers.output);
      s.wait_store = index >= buffers.output ? static_cast<int64_t>(index - buffers.output) : -1;
      steps.push_back(s);
    }
  return steps;
}

uint64_t bandLoadBytes(const ConvGeometry& g, const ConvCoreWork& w, uint32_t band) {
  const RowRange rows = inputRows(g, w.bandFirstRow(band), w.bandOutputRows(band));
  return uint64_t{g.batches} * rows.count * g.inputRowBytes();
}

uint64_t tileLoadBytes(const ConvGeometry& g, const ConvCoreWork& w, uint32_t tile,
                       uint32_t param_bytes_per_feature) {
  return uint64_t{w.tileFeatures(tile)} * (g.k() + param_bytes_per_feature);
}

uint64_t stepOutputBytes(const ConvGeometry& g, const ConvCoreWork& w, const CoreStep& s) {
  return uint64_t{g.batches} * w.bandOutputRows(s.band) * g.out_w * w.tileFeatures(s.tile);
}

uint64_t inputBufferBytes(const ConvGeometry& g, const ConvCoreWork& w) {
  return uint64_t{g.batches} * maxBandInputRows(g, w.band_rows) * g.inputRowBytes();
}

uint64_t tileBufferBytes(const ConvGeometry& g, const ConvCoreWork& w,
                         uint32_t param_bytes_per_feature) {
  return uint64_t{w.tile_n} * (g.k() + param_bytes_per_feature);
}

uint64_t outputBufferBytes(const ConvGeometry& g, const ConvCoreWork& w) {
  return uint64_t{g.batches} * w.band_rows * g.out_w * w.tile_n;
}

ComputeCycles convStepCycles(Dataflow dataflow, ArrayShape array, const ConvGeometry& g,
                             const ConvCoreWork& w, const CoreStep& s) {
  const uint64_t m = uint64_t{g.batches} * w.bandOutputRows(s.band) * g.out_w;
  const uint32_t features = w.tileFeatures(s.tile);
  if (!g.depthwise) return computeCycles(dataflow, array, m, g.k(), features);
  ComputeCycles one = computeCycles(dataflow, array, m, g.k(), 1);
  one.folds *= features;
  one.cycles *= features;
  one.macs *= features;
  return one;
}

}  // namespace hilsim::timing
