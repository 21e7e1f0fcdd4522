#include "hilsim/model/matmul_core.h"

#include "hilsim/core/datapath.h"

namespace hilsim::model {

namespace {

// Trace phases of a core (traces/README.md).
enum Phase : uint64_t { kIdle = 0, kStartup = 1, kLoad = 2, kCompute = 3, kStore = 4 };

core::TileParams tileParams(const drv::regs::JobDescriptor& d, uint32_t features) {
  core::TileParams tp;
  tp.rows = d.rows;
  tp.k = d.k;
  tp.features = features;
  tp.input_zero_point = d.input_zero_point;
  tp.output_zero_point = d.output_zero_point;
  tp.act_min = d.act_min;
  tp.act_max = d.act_max;
  return tp;
}

}  // namespace

MatmulCore::MatmulCore(sc_core::sc_module_name name, uint32_t id,
                       const timing::PlatformTiming& timing, const Clocks& clocks, DmaEngine& dma,
                       Memory& sram, CoreListener& listener, Tracer* tracer)
    : sc_module(name),
      id_(id),
      clocks_(clocks),
      dataflow_(timing.geometry.dataflow),
      array_(timing.geometry.array()),
      double_buffer_(timing.geometry.double_buffer),
      startup_(clocks.accel * static_cast<double>(timing.accel.core_startup_cycles)),
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

// A stage ends a job when it fails (counters recorded) or finds the job aborted (nothing more
// recorded); otherwise the next stage goes on.
void MatmulCore::execute() {
  running_ = RunningJob{};
  running_.start = sc_core::sc_time_stamp();
  if (tracer_) {
    tracer_->set(sig_busy_, 1);
    tracer_->set(sig_phase_, kStartup);
  }
  Outcome outcome = fetchDescriptor();
  if (outcome == Outcome::kGoOn) {
    running_.conv = drv::regs::descriptorVersion(descriptor_) == drv::regs::kDescriptorVersionConv;
    outcome = running_.conv ? acceptConvDescriptor() : acceptDescriptor();
  }
  if (outcome == Outcome::kGoOn) outcome = runSteps();
  if (outcome == Outcome::kGoOn) outcome = waitForStores();
  if (outcome == Outcome::kAborted) return;
  drv::CoreCounters& counters = result_.counters;
  counters.busy_cycles =
      static_cast<uint32_t>(accelCycles(sc_core::sc_time_stamp() - running_.start));
  counters.stall_cycles = static_cast<uint32_t>(running_.stall_cycles);
}

MatmulCore::Outcome MatmulCore::fetchDescriptor() {
  const uint64_t table_entry = table_addr_ + uint64_t{id_} * drv::regs::kDescriptorBytes;
  desc_req_ =
      makeRequest(DmaRequest::Direction::kToLocal, table_entry, 0, drv::regs::kDescriptorBytes);
  desc_req_.local_memory = nullptr;  // into the core's descriptor registers, not its SRAM
  desc_req_.local = descriptor_;
  desc_req_.not_before = running_.start + startup_;
  dma_.submit(&desc_req_);
  if (!waitFor(desc_req_)) return Outcome::kAborted;
  running_.stall_cycles = desc_req_.stall_cycles;
  return failOnError(desc_req_);
}

MatmulCore::Outcome MatmulCore::acceptDescriptor() {
  running_.desc = drv::regs::decodeDescriptor(descriptor_);
  const drv::regs::JobDescriptor& d = running_.desc;
  running_.input_bytes = uint64_t{d.rows} * d.k;
  running_.output_bytes = uint64_t{d.rows} * d.n_count;
  running_.double_buffer = (d.flags & drv::regs::DESC_FLAG_DOUBLE_BUFFER) != 0 && double_buffer_;
  const uint64_t tile_bytes = uint64_t{d.tile_n} * (uint64_t{d.k} + drv::regs::kParamBytes);
  if (d.magic != drv::regs::kDescriptorMagic || d.version != drv::regs::kDescriptorVersion ||
      d.rows == 0 || d.k == 0 || d.n_count == 0 || d.tile_n == 0 ||
      d.num_tiles != (d.n_count + d.tile_n - 1) / d.tile_n || d.act_min > d.act_max ||
      d.output_row_stride < d.n_count) {
    fail(drv::regs::ErrorCode::kBadDescriptor);
    return Outcome::kFailed;
  }
  if (!fitsSram(d.sram_input, running_.input_bytes) || !fitsSram(d.sram_tile[0], tile_bytes) ||
      (running_.double_buffer && !fitsSram(d.sram_tile[1], tile_bytes)) ||
      !fitsSram(d.sram_output, running_.output_bytes)) {
    fail(drv::regs::ErrorCode::kSramOverflow);
    return Outcome::kFailed;
  }
  running_.steps = timing::fcSchedule(d.num_tiles, running_.double_buffer);
  result_.counters.startup_cycles =
      static_cast<uint32_t>(accelCycles(sc_core::sc_time_stamp() - running_.start));
  return Outcome::kGoOn;
}

// Step s's loads that reuse a buffer of step s - 1 go after it has computed, the others while
// it computes (the first step's: at the start).
MatmulCore::Outcome MatmulCore::runSteps() {
  const size_t steps = running_.steps.size();
  if (tracer_) tracer_->set(sig_phase_, kLoad);
  out_reqs_.assign(steps, DmaRequest{});
  issueLoads(0, false);
  issueLoads(0, true);
  for (size_t s = 0; s < steps; ++s) {
    const Outcome outcome = waitForStep(s);
    if (outcome != Outcome::kGoOn) return outcome;
    if (s + 1 < steps) issueLoads(s + 1, true);
    if (!computeStep(s)) return Outcome::kAborted;
    storeStep(s);
    if (s + 1 < steps) issueLoads(s + 1, false);
  }
  return Outcome::kGoOn;
}

void MatmulCore::issueLoads(size_t s, bool early) {
  const timing::CoreStep& step = running_.steps[s];
  if (step.load_band && step.band_early == early) {
    DmaRequest& r = band_req_[step.input_buffer];
    r = running_.conv ? convBandLoad(step) : fcInputLoad();
    dma_.submit(&r);
  }
  if (step.load_tile && step.tile_early == early) {
    DmaRequest& r = tile_req_[step.tile_buffer];
    r = running_.conv ? convTileLoad(step) : fcTileLoad(step);
    dma_.submit(&r);
  }
}

MatmulCore::Outcome MatmulCore::waitForStep(size_t s) {
  const timing::CoreStep& step = running_.steps[s];
  DmaRequest& band = band_req_[step.input_buffer];
  DmaRequest& tile = tile_req_[step.tile_buffer];
  if ((!band.done || !tile.done) && tracer_) tracer_->set(sig_phase_, kLoad);
  const sc_core::sc_time t_load = sc_core::sc_time_stamp();
  if (!waitFor(band) || !waitFor(tile)) return Outcome::kAborted;
  running_.load_wait += sc_core::sc_time_stamp() - t_load;
  if (step.load_band) running_.stall_cycles += band.stall_cycles;
  if (step.load_tile) running_.stall_cycles += tile.stall_cycles;
  Outcome result = step.load_band ? failOnError(band) : Outcome::kGoOn;
  if (result == Outcome::kGoOn && step.load_tile) result = failOnError(tile);
  if (result != Outcome::kGoOn) return result;
  // A failed store is recorded when every store is waited for at the end.
  if (step.wait_store >= 0) {
    DmaRequest& store = out_reqs_[static_cast<size_t>(step.wait_store)];
    if (!store.done && tracer_) tracer_->set(sig_phase_, kStore);
    const sc_core::sc_time t_store = sc_core::sc_time_stamp();
    if (!waitFor(store)) return Outcome::kAborted;
    running_.store_wait += sc_core::sc_time_stamp() - t_store;
  }
  return Outcome::kGoOn;
}

// The arithmetic now, the time as SCALE-Sim counts it.
bool MatmulCore::computeStep(size_t s) {
  const timing::CoreStep& step = running_.steps[s];
  if (tracer_) {
    tracer_->set(sig_phase_, kCompute);
    tracer_->set(sig_tile_, s);
  }
  const uint64_t cycles = running_.conv ? computeConvStep(step) : computeFcTile(step);
  const sc_core::sc_time compute_time = clocks_.accel * static_cast<double>(cycles);
  wait(compute_time);
  if (aborted()) return false;
  running_.compute += compute_time;
  ++result_.counters.tiles;
  return true;
}

// The core goes on while it stores.
void MatmulCore::storeStep(size_t s) {
  const timing::CoreStep& step = running_.steps[s];
  DmaRequest& out = out_reqs_[s];
  out = running_.conv ? convStepStore(step) : fcTileStore(step);
  dma_.submit(&out);
}

// A failed store does not end the job: the other stores are still waited for.
MatmulCore::Outcome MatmulCore::waitForStores() {
  if (tracer_) {
    tracer_->set(sig_phase_, kStore);
    tracer_->set(sig_tile_, std::nullopt);
  }
  const sc_core::sc_time t_store = sc_core::sc_time_stamp();
  for (const DmaRequest& out : out_reqs_) {
    if (!waitFor(out)) return Outcome::kAborted;
    running_.stall_cycles += out.stall_cycles;
    if (out.error) fail(out.error_code, out.error_addr);
  }
  const sc_core::sc_time store_wait = running_.store_wait + (sc_core::sc_time_stamp() - t_store);
  drv::CoreCounters& counters = result_.counters;
  counters.load_wait_cycles = static_cast<uint32_t>(accelCycles(running_.load_wait));
  counters.compute_cycles = static_cast<uint32_t>(accelCycles(running_.compute));
  counters.store_wait_cycles = static_cast<uint32_t>(accelCycles(store_wait));
  return Outcome::kGoOn;
}

DmaRequest MatmulCore::fcInputLoad() {
  const drv::regs::JobDescriptor& d = running_.desc;
  return makeRequest(DmaRequest::Direction::kToLocal, d.input_addr, d.sram_input,
                     running_.input_bytes);
}

DmaRequest MatmulCore::fcTileLoad(const timing::CoreStep& step) {
  const drv::regs::JobDescriptor& d = running_.desc;
  return makeRequest(DmaRequest::Direction::kToLocal,
                     d.tiles_addr + uint64_t{step.tile} * d.tile_stride,
                     d.sram_tile[step.tile_buffer], drv::regs::tileBlockBytes(d, step.tile));
}

uint64_t MatmulCore::computeFcTile(const timing::CoreStep& step) {
  const drv::regs::JobDescriptor& d = running_.desc;
  const uint32_t t = step.tile;
  const uint32_t features = static_cast<uint32_t>(drv::regs::tileFeatures(d, t));
  const core::TileParams tp = tileParams(d, features);
  const uint8_t* block = sram_.view(d.sram_tile[step.tile_buffer], drv::regs::tileBlockBytes(d, t));
  int8_t* outputs = reinterpret_cast<int8_t*>(sram_.writable(d.sram_output, running_.output_bytes));
  core::computeTile(tp,
                    reinterpret_cast<const int8_t*>(sram_.view(d.sram_input, running_.input_bytes)),
                    reinterpret_cast<const int8_t*>(block), block + uint64_t{features} * d.k,
                    outputs + uint64_t{t} * d.tile_n, d.n_count);
  return timing::computeCycles(dataflow_, array_, d.rows, d.k, features).cycles;
}

// Rows x features, strided in memory.
DmaRequest MatmulCore::fcTileStore(const timing::CoreStep& step) {
  const drv::regs::JobDescriptor& d = running_.desc;
  const uint32_t t = step.tile;
  const uint64_t features = drv::regs::tileFeatures(d, t);
  DmaRequest out =
      makeRequest(DmaRequest::Direction::kToMemory, d.output_addr + uint64_t{t} * d.tile_n,
                  d.sram_output + uint64_t{t} * d.tile_n, features);
  out.rows = d.rows;
  out.mem_stride = d.output_row_stride;
  out.local_stride = d.n_count;
  return out;
}

MatmulCore::Outcome MatmulCore::failOnError(const DmaRequest& r) {
  if (!r.error) return Outcome::kGoOn;
  fail(r.error_code, r.error_addr);
  return Outcome::kFailed;
}

bool MatmulCore::fitsSram(uint64_t offset, uint64_t bytes) const {
  const uint64_t sram_bytes = sram_.size();
  return offset <= sram_bytes && bytes <= sram_bytes - offset;
}

}  // namespace hilsim::model
