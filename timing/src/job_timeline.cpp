#include "hilsim/timing/job_timeline.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <memory>

#include "hilsim/timing/bus_scheduler.h"
#include "hilsim/timing/link_timing.h"

namespace hilsim::timing {
namespace {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

struct Transfer {
  uint32_t requester = 0;
  uint64_t bytes = 0;
  uint64_t not_before_ps = 0;
  bool done = false;
  uint64_t done_ps = 0;
  uint64_t stall_cycles = 0;
};

// The DMA engine and the bus: requests wait in one FIFO for a free channel (same-time requests
// in requester order); each channel is a bus port, the host the last one.
class Links {
 public:
  Links(const PlatformTiming& t)
      : t_(t), bus_(params(t)), channel_(t.accel.dma_channels, nullptr) {}

  uint32_t hostPort() const { return t_.accel.dma_channels; }

  // A request made at `now_ps`; it enters the FIFO with the others of this instant.
  void submit(Transfer* r) { arrivals_.push_back(r); }
  // Admits this instant's requests to the FIFO and starts what free channels can take.
  void admit(uint64_t now_ps) {
    std::stable_sort(arrivals_.begin(), arrivals_.end(), [](const Transfer* a, const Transfer* b) {
      return a->requester < b->requester;
    });
    queue_.insert(queue_.end(), arrivals_.begin(), arrivals_.end());
    arrivals_.clear();
    startQueued(now_ps);
  }
  // A host copy of `bytes` issued at `issue_ps`; returns when it completes (bus edge).
  uint64_t hostCopy(uint64_t issue_ps, uint64_t bytes) {
    bus_.add(hostPort(), bytes,
             eligibleBusCycle(hostCopyEligiblePs(t_, issue_ps), issue_ps, t_.clocks.bus_ps));
    const uint64_t cycle = *bus_.nextCompletion();
    bus_.advance(cycle);
    return cycle * t_.clocks.bus_ps;
  }
  uint64_t nextCompletionPs() const {
    const std::optional<uint64_t> c = bus_.nextCompletion();
    return c ? *c * t_.clocks.bus_ps : kNever;
  }
  // Completes the transfers that end at `now_ps` (and starts queued ones on the freed channels).
  // Returns the requesters told.
  void complete(uint64_t now_ps, std::vector<uint32_t>* woken) {
    const std::vector<Completion> done = bus_.advance(now_ps / t_.clocks.bus_ps);
    for (const Completion& c : done) {
      Transfer* r = channel_[c.port];
      channel_[c.port] = nullptr;
      r->done = true;
      r->done_ps = now_ps;
      r->stall_cycles = c.stall_cycles;
      woken->push_back(r->requester);
      startQueued(now_ps, &deferred_);
    }
    for (const auto& [port, bytes, cycle] : deferred_) bus_.add(port, bytes, cycle);
    deferred_.clear();
  }

 private:
  struct Deferred {
    uint32_t port;
    uint64_t bytes;
    uint64_t cycle;
  };
  static BusParams params(const PlatformTiming& t) {
    BusParams p = t.bus.arbitration;
    p.ports = t.accel.dma_channels + 1;
    return p;
  }
  void startQueued(uint64_t now_ps, std::vector<Deferred>* deferred = nullptr) {
    for (uint32_t ch = 0; ch < channel_.size() && !queue_.empty(); ++ch) {
      if (channel_[ch]) continue;
      Transfer* r = queue_.front();
      queue_.pop_front();
      channel_[ch] = r;
      const uint64_t begin = std::max(now_ps, r->not_before_ps);
      const uint64_t cycle = eligibleBusCycle(dmaEligiblePs(t_, begin), now_ps, t_.clocks.bus_ps);
      // Inside arbitration the bus takes new transfers after it has told every completion.
      if (deferred)
        deferred->push_back({ch, r->bytes, cycle});
      else
        bus_.add(ch, r->bytes, cycle);
    }
  }

  const PlatformTiming& t_;
  BusScheduler bus_;
  std::vector<Transfer*> arrivals_;
  std::deque<Transfer*> queue_;
  std::vector<Transfer*> channel_;
  std::vector<Deferred> deferred_;
};

// One core running its share of the job, step by step as the simulated core does.
class CoreRun {
 public:
  CoreRun(const PlatformTiming& t, const JobWork& job, const CoreWork& w, Links& links)
      : t_(t), job_(job), w_(w), links_(links), tiles_(w.num_tiles), outs_(w.num_tiles) {}

  // The job starts at `start_ps`: start-up, then the descriptor fetch.
  void start(uint64_t start_ps) {
    start_ps_ = start_ps;
    desc_ = request(job_.descriptor_bytes);
    desc_.not_before_ps = start_ps + uint64_t{t_.accel.core_startup_cycles} * t_.clocks.accel_ps;
    links_.submit(&desc_);
    state_ = State::kDescriptor;
  }
  uint64_t computeEndPs() const { return state_ == State::kCompute ? compute_end_ps_ : kNever; }
  bool finished() const { return state_ == State::kDone; }
  uint64_t endPs() const { return end_ps_; }

  // Goes as far as it can at `now_ps` (a transfer of its own completed, or a tile computed).
  void resume(uint64_t now_ps) {
    switch (state_) {
      case State::kDescriptor:
        if (!desc_.done) return;
        startup_ps_ = now_ps - start_ps_;
        input_ = request(uint64_t{job_.rows} * job_.k);
        links_.submit(&input_);
        loadTile(0);
        wait_from_ps_ = now_ps;
        state_ = State::kFirstLoad;
        [[fallthrough]];
      case State::kFirstLoad:
        if (!input_.done || !tiles_[0].done) return;
        load_wait_ps_ += now_ps - wait_from_ps_;
        computeTile(0, now_ps);
        return;
      case State::kCompute:
        if (now_ps < compute_end_ps_) return;
        compute_ps_ += compute_end_ps_ - compute_start_ps_;
        outs_[tile_] = request(uint64_t{job_.rows} * features(tile_));
        links_.submit(&outs_[tile_]);
        if (tile_ + 1 == w_.num_tiles) {
          store_from_ps_ = now_ps;
          state_ = State::kStore;
        } else {
          if (!w_.double_buffer) loadTile(tile_ + 1);
          wait_from_ps_ = now_ps;
          state_ = State::kNextLoad;
        }
        resume(now_ps);
        return;
      case State::kNextLoad:
        if (!tiles_[tile_ + 1].done) return;
        load_wait_ps_ += now_ps - wait_from_ps_;
        computeTile(tile_ + 1, now_ps);
        return;
      case State::kStore:
        for (const Transfer& o : outs_)
          if (!o.done) return;
        end_ps_ = now_ps;
        store_wait_ps_ = now_ps - store_from_ps_;
        state_ = State::kDone;
        return;
      case State::kIdle:
      case State::kDone:
        return;
    }
  }

  CoreCounts counts() const {
    const uint64_t accel_ps = t_.clocks.accel_ps;
    CoreCounts c;
    c.core = w_.core;
    c.busy_cycles = toCyclesRounded(end_ps_ - start_ps_, accel_ps);
    c.startup_cycles = toCyclesRounded(startup_ps_, accel_ps);
    c.compute_cycles = toCyclesRounded(compute_ps_, accel_ps);
    c.load_wait_cycles = toCyclesRounded(load_wait_ps_, accel_ps);
    c.store_wait_cycles = toCyclesRounded(store_wait_ps_, accel_ps);
    c.stall_cycles = desc_.stall_cycles + input_.stall_cycles;
    for (const Transfer& r : tiles_) c.stall_cycles += r.stall_cycles;
    for (const Transfer& r : outs_) c.stall_cycles += r.stall_cycles;
    return c;
  }

 private:
  enum class State { kIdle, kDescriptor, kFirstLoad, kCompute, kNextLoad, kStore, kDone };

  Transfer request(uint64_t bytes) const {
    Transfer r;
    r.requester = w_.core;
    r.bytes = bytes;
    return r;
  }
  uint64_t features(uint32_t tile) const {
    return std::min<uint64_t>(w_.tile_n, w_.n_count - uint64_t{tile} * w_.tile_n);
  }
  void loadTile(uint32_t tile) {
    tiles_[tile] = request(features(tile) * (uint64_t{job_.k} + job_.param_bytes_per_feature));
    links_.submit(&tiles_[tile]);
  }
  void computeTile(uint32_t tile, uint64_t now_ps) {
    tile_ = tile;
    if (w_.double_buffer && tile + 1 < w_.num_tiles) loadTile(tile + 1);
    const ComputeCycles cc =
        computeCycles(t_.geometry.dataflow, t_.geometry.array(), job_.rows, job_.k, features(tile));
    compute_start_ps_ = now_ps;
    compute_end_ps_ = now_ps + cc.cycles * t_.clocks.accel_ps;
    state_ = State::kCompute;
  }

  const PlatformTiming& t_;
  const JobWork& job_;
  const CoreWork& w_;
  Links& links_;
  State state_ = State::kIdle;
  Transfer desc_, input_;
  std::vector<Transfer> tiles_, outs_;
  uint32_t tile_ = 0;
  uint64_t start_ps_ = 0, startup_ps_ = 0, wait_from_ps_ = 0, store_from_ps_ = 0;
  uint64_t compute_start_ps_ = 0, compute_end_ps_ = 0, end_ps_ = 0;
  uint64_t load_wait_ps_ = 0, compute_ps_ = 0, store_wait_ps_ = 0;
};

// Runs the cores from `start_ps` until the last one has stored its outputs; returns that time.
uint64_t runCores(std::vector<std::unique_ptr<CoreRun>>& cores, Links& links, uint64_t start_ps) {
  for (auto& c : cores) c->start(start_ps);
  links.admit(start_ps);
  uint64_t last_end = start_ps;
  std::vector<uint32_t> woken;
  while (true) {
    uint64_t now = links.nextCompletionPs();
    for (const auto& c : cores) now = std::min(now, c->computeEndPs());
    if (now == kNever) break;
    woken.clear();
    if (links.nextCompletionPs() == now) links.complete(now, &woken);
    for (auto& c : cores) c->resume(now);
    links.admit(now);
    for (const auto& c : cores)
      if (c->finished()) last_end = std::max(last_end, c->endPs());
  }
  return last_end;
}

}  // namespace

JobTimeline jobTimeline(const PlatformTiming& t, const JobWork& work, const DriverTraffic& driver) {
  const uint64_t cpu_ps = t.clocks.cpu_ps;
  Links links(t);
  JobTimeline out;
  uint64_t now = t.host.dispatch_cycles * cpu_ps;
  out.steps.dispatched = out.steps.uploaded = now / cpu_ps;
  now = hostWakePs(links.hostCopy(now, uint64_t{work.rows} * work.k), now, cpu_ps);
  out.steps.input_sent = now / cpu_ps;

  now += t.host.driver_job_cycles * cpu_ps;
  uint64_t start_ps = now;
  for (uint32_t w = 0; w < driver.submit_writes; ++w) {
    const RegisterAccess a = registerAccess(t, now);
    start_ps = a.effect_ps;  // the last write starts the job
    now = a.done_ps;
  }
  out.steps.job_started = now / cpu_ps;

  std::vector<std::unique_ptr<CoreRun>> cores;
  for (const CoreWork& w : work.cores)
    cores.push_back(std::make_unique<CoreRun>(t, work, w, links));
  const uint64_t last_end = runCores(cores, links, start_ps);
  now = hostWakePs(irqRisePs(t, last_end), now, cpu_ps);
  now += t.host.irq_handler_cycles * cpu_ps;
  for (uint32_t a = 0; a < driver.completion_reads + driver.completion_writes; ++a)
    now = registerAccess(t, now).done_ps;
  out.steps.job_done = now / cpu_ps;

  now = hostWakePs(links.hostCopy(now, uint64_t{work.rows} * work.n), now, cpu_ps);
  out.steps.end = now / cpu_ps;
  for (const auto& c : cores) out.cores.push_back(c->counts());
  return out;
}

uint64_t jobBytes(const JobWork& w) {
  uint64_t bytes = uint64_t{w.rows} * w.k + uint64_t{w.rows} * w.n;
  for (const CoreWork& c : w.cores)
    bytes += w.descriptor_bytes + uint64_t{w.rows} * w.k +
             uint64_t{c.n_count} * (uint64_t{w.k} + w.param_bytes_per_feature) +
             uint64_t{w.rows} * c.n_count;
  return bytes;
}

}  // namespace hilsim::timing
