// What a convolution job's steps do on a matmul core (the walk is in matmul_core.cpp): load
// bands of input rows and weight tiles, form the windows with the address generator, compute
// and store a band's pixels x a tile's channels.

#include "hilsim/core/datapath.h"
#include "hilsim/model/matmul_core.h"

namespace hilsim::model {

namespace regs = drv::regs;

namespace {

timing::ConvGeometry geometryOf(const regs::ConvJobDescriptor& d) {
  timing::ConvGeometry g;
  g.batches = d.batches;
  g.in_h = d.in_h;
  g.in_w = d.in_w;
  g.in_c = d.in_c;
  g.filter_h = d.filter_h;
  g.filter_w = d.filter_w;
  g.stride_h = d.stride_h;
  g.stride_w = d.stride_w;
  g.dilation_h = d.dilation_h;
  g.dilation_w = d.dilation_w;
  g.pad_h = d.pad_h;
  g.pad_w = d.pad_w;
  g.out_h = d.out_h;
  g.out_w = d.out_w;
  g.out_c = d.out_c;
  g.depthwise = (d.flags & regs::DESC_FLAG_DEPTHWISE) != 0;
  g.depth_multiplier = d.depth_multiplier;
  return g;
}

// Whether every output window lies partly inside the input and the sizes are consistent.
bool wellFormed(const regs::ConvJobDescriptor& d, const timing::ConvGeometry& g) {
  const bool sizes = d.batches && d.in_h && d.in_w && d.in_c && d.filter_h && d.filter_w &&
                     d.stride_h && d.stride_w && d.dilation_h && d.dilation_w && d.out_h &&
                     d.out_w && d.out_c && d.oy_count && d.band_rows && d.n_count && d.tile_n;
  if (!sizes) return false;
  const uint64_t window_w = (uint64_t{d.filter_w} - 1) * d.dilation_w + 1;
  const bool windows = d.pad_h < g.windowRows() && d.pad_w < window_w &&
                       int64_t{d.out_h - 1} * d.stride_h - d.pad_h < int64_t{d.in_h} &&
                       int64_t{d.out_w - 1} * d.stride_w - d.pad_w < int64_t{d.in_w};
  const bool depthwise =
      !g.depthwise || (d.depth_multiplier && uint64_t{d.in_c} * d.depth_multiplier == d.out_c);
  return windows && depthwise && uint64_t{d.oy_begin} + d.oy_count <= d.out_h &&
         uint64_t{d.n_begin} + d.n_count <= d.out_c &&
         d.num_bands == (uint32_t{d.oy_count} + d.band_rows - 1) / d.band_rows &&
         d.num_tiles == (uint64_t{d.n_count} + d.tile_n - 1) / d.tile_n && d.act_min <= d.act_max &&
         uint64_t{d.tile_stride} >= uint64_t{d.tile_n} * (g.k() + regs::kParamBytes);
}

}  // namespace

MatmulCore::Outcome MatmulCore::acceptConvDescriptor() {
  RunningConv& c = conv_;
  c.desc = regs::decodeConvDescriptor(descriptor_);
  const regs::ConvJobDescriptor& d = c.desc;
  c.geo = geometryOf(d);
  if (d.magic != regs::kDescriptorMagic || !wellFormed(d, c.geo)) {
    fail(regs::ErrorCode::kBadDescriptor);
    return Outcome::kFailed;
  }
  timing::ConvCoreWork& w = c.work;
  w = timing::ConvCoreWork{};
  w.core = id_;
  w.oy_begin = d.oy_begin;
  w.oy_count = d.oy_count;
  w.band_rows = d.band_rows;
  w.num_bands = d.num_bands;
  w.n_count = d.n_count;
  w.tile_n = d.tile_n;
  w.num_tiles = d.num_tiles;
  w.double_buffer = (d.flags & regs::DESC_FLAG_DOUBLE_BUFFER) != 0 && double_buffer_;
  const timing::ConvBuffers buffers = timing::convBuffers(w);
  const uint64_t input = timing::inputBufferBytes(c.geo, w);
  const uint64_t tile = timing::tileBufferBytes(c.geo, w, regs::kParamBytes);
  const uint64_t output = timing::outputBufferBytes(c.geo, w);
  bool fits = true;
  for (uint32_t i = 0; i < buffers.input; ++i) fits &= fitsSram(d.sram_input[i], input);
  for (uint32_t i = 0; i < buffers.tile; ++i) fits &= fitsSram(d.sram_tile[i], tile);
  for (uint32_t i = 0; i < buffers.output; ++i) fits &= fitsSram(d.sram_output[i], output);
  if (!fits) {
    fail(regs::ErrorCode::kSramOverflow);
    return Outcome::kFailed;
  }
  running_.steps = timing::convSchedule(w);
  core::WindowSource& src = c.source;
  src.batches = d.batches;
  src.in_h = d.in_h;
  src.in_w = d.in_w;
  src.in_c = d.in_c;
  src.filter_h = d.filter_h;
  src.filter_w = d.filter_w;
  src.stride_h = d.stride_h;
  src.stride_w = d.stride_w;
  src.dilation_h = d.dilation_h;
  src.dilation_w = d.dilation_w;
  src.pad_h = d.pad_h;
  src.pad_w = d.pad_w;
  src.out_w = d.out_w;
  src.zero_point = d.input_zero_point;
  result_.counters.startup_cycles =
      static_cast<uint32_t>(accelCycles(sc_core::sc_time_stamp() - running_.start));
  return Outcome::kGoOn;
}

DmaRequest MatmulCore::convBandLoad(const timing::CoreStep& step) {
  const RunningConv& c = conv_;
  const regs::ConvJobDescriptor& d = c.desc;
  const uint32_t first = c.work.bandFirstRow(step.band);
  const timing::RowRange rows = timing::inputRows(c.geo, first, c.work.bandOutputRows(step.band));
  const uint64_t row_bytes = c.geo.inputRowBytes();
  DmaRequest r = makeRequest(DmaRequest::Direction::kToLocal, d.input_addr + rows.begin * row_bytes,
                             d.sram_input[step.input_buffer], uint64_t{rows.count} * row_bytes);
  r.rows = d.batches;
  r.mem_stride = uint64_t{d.in_h} * row_bytes;
  r.local_stride = uint64_t{rows.count} * row_bytes;
  return r;
}

DmaRequest MatmulCore::convTileLoad(const timing::CoreStep& step) {
  const RunningConv& c = conv_;
  const regs::ConvJobDescriptor& d = c.desc;
  return makeRequest(DmaRequest::Direction::kToLocal,
                     d.tiles_addr + uint64_t{step.tile} * d.tile_stride,
                     d.sram_tile[step.tile_buffer],
                     timing::tileLoadBytes(c.geo, c.work, step.tile, regs::kParamBytes));
}

uint64_t MatmulCore::computeConvStep(const timing::CoreStep& step) {
  RunningConv& c = conv_;
  const regs::ConvJobDescriptor& d = c.desc;
  const uint32_t features = c.work.tileFeatures(step.tile);
  const uint32_t out_rows = c.work.bandOutputRows(step.band);
  const uint32_t first = c.work.bandFirstRow(step.band);
  const timing::RowRange rows = timing::inputRows(c.geo, first, out_rows);
  c.source.first_row = rows.begin;
  c.source.rows = rows.count;
  const uint64_t pixels = uint64_t{d.batches} * out_rows * d.out_w;
  const uint64_t k = c.geo.k();
  const int8_t* band = reinterpret_cast<const int8_t*>(sram_.view(
      d.sram_input[step.input_buffer], uint64_t{d.batches} * rows.count * c.geo.inputRowBytes()));
  const uint8_t* block =
      sram_.view(d.sram_tile[step.tile_buffer], uint64_t{features} * (k + regs::kParamBytes));
  int8_t* outputs = reinterpret_cast<int8_t*>(
      sram_.writable(d.sram_output[step.output_buffer], pixels * features));
  core::TileParams tp;
  tp.rows = static_cast<uint32_t>(pixels);
  tp.k = static_cast<uint32_t>(k);
  tp.input_zero_point = d.input_zero_point;
  tp.output_zero_point = d.output_zero_point;
  tp.act_min = d.act_min;
  tp.act_max = d.act_max;
  const uint8_t* params = block + uint64_t{features} * k;
  if (!c.geo.depthwise) {
    tp.features = features;
    // A 1x1 window with stride 1 and no padding reads each input pixel as it is.
    const bool direct = d.filter_h == 1 && d.filter_w == 1 && d.stride_h == 1 && d.stride_w == 1 &&
                        d.pad_h == 0 && d.pad_w == 0 && d.in_w == d.out_w;
    const int8_t* windows = band;
    if (!direct) {
      windows_.resize(pixels * k);
      core::gatherWindows(c.source, band, first, out_rows, 0, d.in_c, windows_.data());
      windows = windows_.data();
    }
    core::computeTile(tp, windows, reinterpret_cast<const int8_t*>(block), params, outputs,
                      features);
  } else {
    // One GEMM per output channel, over the taps of its input channel.
    tp.features = 1;
    windows_.resize(pixels * k);
    const uint32_t first_channel = d.n_begin + step.tile * d.tile_n;
    for (uint32_t f = 0; f < features; ++f) {
      const uint32_t input_channel = (first_channel + f) / d.depth_multiplier;
      core::gatherWindows(c.source, band, first, out_rows, input_channel, 1, windows_.data());
      core::computeTile(tp, windows_.data(), reinterpret_cast<const int8_t*>(block) + f * k,
                        params + uint64_t{f} * regs::kParamBytes, outputs + f, features);
    }
  }
  return timing::convStepCycles(dataflow_, array_, c.geo, c.work, step).cycles;
}

// Pixels x channels of every image, strided in memory.
DmaRequest MatmulCore::convStepStore(const timing::CoreStep& step) {
  const RunningConv& c = conv_;
  const regs::ConvJobDescriptor& d = c.desc;
  const uint32_t features = c.work.tileFeatures(step.tile);
  const uint64_t pixels = uint64_t{c.work.bandOutputRows(step.band)} * d.out_w;
  const uint64_t first_pixel = uint64_t{c.work.bandFirstRow(step.band)} * d.out_w;
  DmaRequest out =
      makeRequest(DmaRequest::Direction::kToMemory,
                  d.output_addr + first_pixel * d.out_c + uint64_t{step.tile} * d.tile_n,
                  d.sram_output[step.output_buffer], features);
  out.rows = static_cast<uint32_t>(pixels);
  out.mem_stride = d.out_c;
  out.local_stride = features;
  out.planes = d.batches;
  out.mem_plane_stride = uint64_t{d.out_h} * d.out_w * d.out_c;
  out.local_plane_stride = pixels * features;
  return out;
}

}  // namespace hilsim::model
