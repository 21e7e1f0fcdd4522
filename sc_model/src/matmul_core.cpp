#include "hilsim/model/matmul_core.h"

#include "hilsim/core/datapath.h"

namespace hilsim::model {

namespace {

// Trace phases of a core (traces/README.md).
enum Phase : uint64_t { kIdle = 0, kStartup = 1, kLoad = 2, kCompute = 3, kStore = 4 };

}  // namespace

MatmulCore::MatmulCore(sc_core::sc_module_name name, uint32_t id, const CoreParams& params,
                       const Clocks& clocks, DmaEngine& dma, Memory& sram, CoreListener& listener,
                       Tracer* tracer)
    : sc_module(name),
      id_(id),
      clocks_(clocks),
      dataflow_(params.dataflow),
      array_(params.array),
      double_buffer_(params.double_buffer),
      startup_(clocks.accel * static_cast<double>(params.startup_cycles)),
      dma_(dma),
      sram_(sram),
      listener_(listener),
      tracer_(tracer) {
  if (tracer_) {
    const std::string scope = "core" + std::to_string(id);
    sig_busy_ = tracer_->add(scope, "busy", 1);
    sig_tile_ = tracer_->add(scope, "tile", 32, std::nullopt);
    sig_phase_ = tracer_->add(scope, "phase", 3);
  }
  SC_HAS_PROCESS(MatmulCore);
  SC_THREAD(run);
}

void MatmulCore::start(uint64_t table_addr, uint32_t job, const sc_core::sc_time& delay) {
  table_addr_ = table_addr;
  job_ = job;
  pending_start_ = true;
  result_ = CoreResult{};
  result_.busy = true;
  start_event_.notify(delay);
}

void MatmulCore::abort() {
  ++generation_;
  pending_start_ = false;
  result_.busy = false;
  start_event_.cancel();
  dma_event_.notify(sc_core::SC_ZERO_TIME);
  if (tracer_) {
    tracer_->set(sig_busy_, 0);
    tracer_->set(sig_phase_, kIdle);
    tracer_->set(sig_tile_, std::nullopt);
  }
}

void MatmulCore::run() {
  while (true) {
    wait(start_event_);
    if (!pending_start_) continue;
    pending_start_ = false;
    job_generation_ = generation_;
    execute();
    if (aborted()) continue;
    result_.busy = false;
    if (tracer_) {
      tracer_->set(sig_busy_, 0);
      tracer_->set(sig_phase_, kIdle);
      tracer_->set(sig_tile_, std::nullopt);
    }
    listener_.coreDone(id_);
  }
}

void MatmulCore::dmaDone(DmaRequest& request) {
  if (request.tag != job_generation_) return;  // a transfer of an aborted job
  dma_event_.notify();                         // the core resumes in this evaluation phase
}

bool MatmulCore::waitFor(const DmaRequest& r) {
  while (!aborted() && !r.done) wait(dma_event_);
  return !aborted();
}

void MatmulCore::fail(drv::regs::ErrorCode code, uint64_t addr) {
  if (result_.error) return;
  result_.error = true;
  result_.error_code = code;
  result_.error_addr = addr;
}

DmaRequest MatmulCore::makeRequest(DmaRequest::Direction dir, uint64_t mem_addr,
                                   uint64_t sram_offset, uint64_t bytes) {
  DmaRequest r;
  r.direction = dir;
  r.mem_addr = mem_addr;
  r.local_memory = &sram_;
  r.local_offset = sram_offset;
  r.rows = 1;
  r.row_bytes = bytes;
  r.job = job_;
  r.requester = id_;
  r.tag = job_generation_;
  r.sink = this;
  return r;
}

void MatmulCore::execute() {
  using drv::regs::ErrorCode;
  using Dir = DmaRequest::Direction;
  const sc_core::sc_time t_start = sc_core::sc_time_stamp();
  drv::CoreCounters& counters = result_.counters;
  if (tracer_) {
    tracer_->set(sig_busy_, 1);
    tracer_->set(sig_phase_, kStartup);
  }

  // Start-up, then fetch this core's descriptor from the job table.
  desc_req_ = makeRequest(Dir::kToLocal, table_addr_ + uint64_t{id_} * drv::regs::kDescriptorBytes,
                          0, drv::regs::kDescriptorBytes);
  desc_req_.local_memory = nullptr;  // into the core's descriptor registers, not its SRAM
  desc_req_.local = descriptor_;
  desc_req_.not_before = t_start + startup_;
  dma_.submit(&desc_req_);
  if (!waitFor(desc_req_)) return;
  uint64_t stall = desc_req_.stall_cycles;
  auto finish = [&] {
    counters.busy_cycles = static_cast<uint32_t>(accelCycles(sc_core::sc_time_stamp() - t_start));
    counters.stall_cycles = static_cast<uint32_t>(stall);
  };
  if (desc_req_.error) {
    fail(desc_req_.error_code, desc_req_.error_addr);
    return finish();
  }
  const drv::regs::JobDescriptor d = drv::regs::decodeDescriptor(descriptor_);
  const uint64_t sram_bytes = sram_.size();
  const uint64_t input_bytes = uint64_t{d.rows} * d.k;
  const uint64_t tile_bytes = uint64_t{d.tile_n} * (uint64_t{d.k} + drv::regs::kParamBytes);
  const uint64_t output_bytes = uint64_t{d.rows} * d.n_count;
  const bool db = (d.flags & drv::regs::DESC_FLAG_DOUBLE_BUFFER) != 0 && double_buffer_;
  auto fits = [&](uint64_t offset, uint64_t bytes) {
    return offset <= sram_bytes && bytes <= sram_bytes - offset;
  };
  if (d.magic != drv::regs::kDescriptorMagic || d.version != drv::regs::kDescriptorVersion ||
      d.rows == 0 || d.k == 0 || d.n_count == 0 || d.tile_n == 0 ||
      d.num_tiles != (d.n_count + d.tile_n - 1) / d.tile_n || d.act_min > d.act_max ||
      d.output_row_stride < d.n_count) {
    fail(ErrorCode::kBadDescriptor);
    return finish();
  }
  if (!fits(d.sram_input, input_bytes) || !fits(d.sram_tile[0], tile_bytes) ||
      (db && !fits(d.sram_tile[1], tile_bytes)) || !fits(d.sram_output, output_bytes)) {
    fail(ErrorCode::kSramOverflow);
    return finish();
  }
  const sc_core::sc_time t_first = sc_core::sc_time_stamp();
  counters.startup_cycles = static_cast<uint32_t>(accelCycles(t_first - t_start));

  // Input and the first tile.
  if (tracer_) tracer_->set(sig_phase_, kLoad);
  input_req_ = makeRequest(Dir::kToLocal, d.input_addr, d.sram_input, input_bytes);
  dma_.submit(&input_req_);
  auto loadTile = [&](uint32_t t) {
    DmaRequest& r = tile_req_[db ? t % 2 : 0];
    r = makeRequest(Dir::kToLocal, d.tiles_addr + uint64_t{t} * d.tile_stride,
                    d.sram_tile[db ? t % 2 : 0], drv::regs::tileBlockBytes(d, t));
    dma_.submit(&r);
  };
  loadTile(0);
  out_reqs_.assign(d.num_tiles, DmaRequest{});
  sc_core::sc_time load_wait, compute, store_wait;
  const sc_core::sc_time t_load = sc_core::sc_time_stamp();
  if (!waitFor(input_req_) || !waitFor(tile_req_[0])) return;
  load_wait += sc_core::sc_time_stamp() - t_load;
  stall += input_req_.stall_cycles + tile_req_[0].stall_cycles;
  for (const DmaRequest* r : {&input_req_, &tile_req_[0]})
    if (r->error) {
      fail(r->error_code, r->error_addr);
      return finish();
    }

  core::TileParams tp;
  tp.rows = d.rows;
  tp.k = d.k;
  tp.input_zero_point = d.input_zero_point;
  tp.output_zero_point = d.output_zero_point;
  tp.act_min = d.act_min;
  tp.act_max = d.act_max;
  for (uint32_t t = 0; t < d.num_tiles; ++t) {
    const uint32_t buffer = db ? t % 2 : 0;
    if (db && t + 1 < d.num_tiles) loadTile(t + 1);
    // Compute the tile: the arithmetic now, the time as SCALE-Sim counts it.
    tp.features = static_cast<uint32_t>(drv::regs::tileFeatures(d, t));
    const uint64_t block_bytes = drv::regs::tileBlockBytes(d, t);
    const uint8_t* block = sram_.view(d.sram_tile[buffer], block_bytes);
    int8_t* outputs = reinterpret_cast<int8_t*>(sram_.writable(d.sram_output, output_bytes));
    if (tracer_) {
      tracer_->set(sig_phase_, kCompute);
      tracer_->set(sig_tile_, t);
    }
    core::computeTile(tp, reinterpret_cast<const int8_t*>(sram_.view(d.sram_input, input_bytes)),
                      reinterpret_cast<const int8_t*>(block), block + uint64_t{tp.features} * d.k,
                      outputs + uint64_t{t} * d.tile_n, d.n_count);
    const timing::ComputeCycles cc =
        timing::computeCycles(dataflow_, array_, d.rows, d.k, tp.features);
    const sc_core::sc_time compute_time = clocks_.accel * static_cast<double>(cc.cycles);
    wait(compute_time);
    if (aborted()) return;
    compute += compute_time;
    ++counters.tiles;

    // Store the tile's outputs (rows x features, strided in memory) while going on.
    DmaRequest& out = out_reqs_[t];
    out = makeRequest(Dir::kToMemory, d.output_addr + uint64_t{t} * d.tile_n,
                      d.sram_output + uint64_t{t} * d.tile_n, tp.features);
    out.rows = d.rows;
    out.mem_stride = d.output_row_stride;
    out.local_stride = d.n_count;
    dma_.submit(&out);

    if (t + 1 < d.num_tiles) {
      if (!db) loadTile(t + 1);
      DmaRequest& next = tile_req_[db ? (t + 1) % 2 : 0];
      if (!next.done && tracer_) tracer_->set(sig_phase_, kLoad);
      const sc_core::sc_time t_wait = sc_core::sc_time_stamp();
      if (!waitFor(next)) return;
      load_wait += sc_core::sc_time_stamp() - t_wait;
      stall += next.stall_cycles;
      if (next.error) {
        fail(next.error_code, next.error_addr);
        return finish();
      }
    }
  }
  if (tracer_) {
    tracer_->set(sig_phase_, kStore);
    tracer_->set(sig_tile_, std::nullopt);
  }
  const sc_core::sc_time t_store = sc_core::sc_time_stamp();
  for (const DmaRequest& out : out_reqs_) {
    if (!waitFor(out)) return;
    stall += out.stall_cycles;
    if (out.error) fail(out.error_code, out.error_addr);
  }
  store_wait = sc_core::sc_time_stamp() - t_store;
  counters.load_wait_cycles = static_cast<uint32_t>(accelCycles(load_wait));
  counters.compute_cycles = static_cast<uint32_t>(accelCycles(compute));
  counters.store_wait_cycles = static_cast<uint32_t>(accelCycles(store_wait));
  finish();
}

}  // namespace hilsim::model
