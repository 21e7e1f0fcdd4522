// A matmul core running a convolution job: the steps of timing::convSchedule, each waiting for
// its input band and weight tile (and a free output buffer), forming the windows with the
// address generator, computing for SCALE-Sim's cycles and storing its outputs. The planner's
// timeline (timing/src/core_run.cpp) takes the same steps.

#include "hilsim/core/datapath.h"
#include "hilsim/model/matmul_core.h"

namespace hilsim::model {

namespace regs = drv::regs;

namespace {

// Trace phases of a core (traces/README.md).
enum Phase : uint64_t { kLoad = 2, kCompute = 3, kStore = 4 };

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

MatmulCore::Step MatmulCore::executeConv() {
  Step step = acceptConvDescriptor();
  if (step == Step::kGoOn) step = runConvSteps();
  if (step == Step::kGoOn) step = waitForStores();
  return step;
}

MatmulCore::Step MatmulCore::acceptConvDescriptor() {
  RunningConv& c = conv_;
  c.desc = regs::decodeConvDescriptor(descriptor_);
  const regs::ConvJobDescriptor& d = c.desc;
  c.geo = geometryOf(d);
  if (d.magic != regs::kDescriptorMagic || !wellFormed(d, c.geo)) {
    fail(regs::ErrorCode::kBadDescriptor);
    return Step::kFailed;
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
    return Step::kFailed;
  }
  c.steps = timing::convSchedule(w);
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
  return Step::kGoOn;
}

MatmulCore::Step MatmulCore::runConvSteps() {
  const std::vector<timing::CoreStep>& steps = conv_.steps;
  if (tracer_) tracer_->set(sig_phase_, kLoad);
  out_reqs_.assign(steps.size(), DmaRequest{});
  issueConvLoads(0, false);
  issueConvLoads(0, true);
  for (size_t s = 0; s < steps.size(); ++s) {
    const Step step = waitForConvStep(s);
    if (step != Step::kGoOn) return step;
    if (s + 1 < steps.size()) issueConvLoads(s + 1, true);
    if (!computeConvStep(s)) return Step::kAborted;
    storeConvStep(s);
    if (s + 1 < steps.size()) issueConvLoads(s + 1, false);
  }
  return Step::kGoOn;
}

void MatmulCore::issueConvLoads(size_t s, bool early) {
  const RunningConv& c = conv_;
  const regs::ConvJobDescriptor& d = c.desc;
  const timing::CoreStep& step = c.steps[s];
  if (step.load_band && step.band_early == early) {
    const uint32_t first = c.work.bandFirstRow(step.band);
    const timing::RowRange rows = timing::inputRows(c.geo, first, c.work.bandOutputRows(step.band));
    const uint64_t row_bytes = c.geo.inputRowBytes();
    DmaRequest& r = band_req_[step.input_buffer];
    r = makeRequest(DmaRequest::Direction::kToLocal, d.input_addr + rows.begin * row_bytes,
                    d.sram_input[step.input_buffer], uint64_t{rows.count} * row_bytes);
    r.rows = d.batches;
    r.mem_stride = uint64_t{d.in_h} * row_bytes;
    r.local_stride = uint64_t{rows.count} * row_bytes;
    dma_.submit(&r);
  }
  if (step.load_tile && step.tile_early == early) {
    DmaRequest& r = tile_req_[step.tile_buffer];
    r = makeRequest(DmaRequest::Direction::kToLocal,
                    d.tiles_addr + uint64_t{step.tile} * d.tile_stride,
                    d.sram_tile[step.tile_buffer],
                    timing::tileLoadBytes(c.geo, c.work, step.tile, regs::kParamBytes));
    dma_.submit(&r);
  }
}

MatmulCore::Step MatmulCore::waitForConvStep(size_t s) {
  const timing::CoreStep& step = conv_.steps[s];
  DmaRequest& band = band_req_[step.input_buffer];
  DmaRequest& tile = tile_req_[step.tile_buffer];
  if ((!band.done || !tile.done) && tracer_) tracer_->set(sig_phase_, kLoad);
  const sc_core::sc_time t_load = sc_core::sc_time_stamp();
  if (!waitFor(band) || !waitFor(tile)) return Step::kAborted;
  running_.load_wait += sc_core::sc_time_stamp() - t_load;
  if (step.load_band) running_.stall_cycles += band.stall_cycles;
  if (step.load_tile) running_.stall_cycles += tile.stall_cycles;
  Step result = step.load_band ? failOnError(band) : Step::kGoOn;
  if (result == Step::kGoOn && step.load_tile) result = failOnError(tile);
  if (result != Step::kGoOn) return result;
  // A failed store is recorded when every store is waited for at the end.
  if (step.wait_store >= 0) {
    DmaRequest& store = out_reqs_[static_cast<size_t>(step.wait_store)];
    if (!store.done && tracer_) tracer_->set(sig_phase_, kStore);
    const sc_core::sc_time t_store = sc_core::sc_time_stamp();
    if (!waitFor(store)) return Step::kAborted;
    running_.store_wait += sc_core::sc_time_stamp() - t_store;
  }
  return Step::kGoOn;
}

// The arithmetic now, the time as SCALE-Sim counts it.
bool MatmulCore::computeConvStep(size_t s) {
  RunningConv& c = conv_;
  const regs::ConvJobDescriptor& d = c.desc;
  const timing::CoreStep& step = c.steps[s];
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
  if (tracer_) {
    tracer_->set(sig_phase_, kCompute);
    tracer_->set(sig_tile_, s);
  }
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
  const timing::ComputeCycles cc = timing::convStepCycles(dataflow_, array_, c.geo, c.work, step);
  const sc_core::sc_time compute_time = clocks_.accel * static_cast<double>(cc.cycles);
  wait(compute_time);
  if (aborted()) return false;
  running_.compute += compute_time;
  ++result_.counters.tiles;
  return true;
}

// Pixels x channels of every image, strided in memory; the core goes on while it stores.
void MatmulCore::storeConvStep(size_t s) {
  const RunningConv& c = conv_;
  const regs::ConvJobDescriptor& d = c.desc;
  const timing::CoreStep& step = c.steps[s];
  const uint32_t features = c.work.tileFeatures(step.tile);
  const uint64_t pixels = uint64_t{c.work.bandOutputRows(step.band)} * d.out_w;
  const uint64_t first_pixel = uint64_t{c.work.bandFirstRow(step.band)} * d.out_w;
  DmaRequest& out = out_reqs_[s];
  out = makeRequest(DmaRequest::Direction::kToMemory,
                    d.output_addr + first_pixel * d.out_c + uint64_t{step.tile} * d.tile_n,
                    d.sram_output[step.output_buffer], features);
  out.rows = static_cast<uint32_t>(pixels);
  out.mem_stride = d.out_c;
  out.local_stride = features;
  out.planes = d.batches;
  out.mem_plane_stride = uint64_t{d.out_h} * d.out_w * d.out_c;
  out.local_plane_stride = pixels * features;
  dma_.submit(&out);
}

}  // namespace hilsim::model
