#include "hilsim/timing/job_timeline.h"

#include "job_links.h"

namespace hilsim::timing {
namespace {

using detail::CoreRunner;
using detail::kNever;
using detail::Links;
using detail::Transfer;

// One core's share of a FULLY_CONNECTED job, step by step as the simulated core does.
class CoreRun final : public CoreRunner {
 public:
  CoreRun(const PlatformTiming& t, const JobWork& job, const CoreWork& w, Links& links)
      : t_(t), job_(job), w_(w), links_(links), tiles_(w.num_tiles), outs_(w.num_tiles) {}

  void start(uint64_t start_ps) override {
    start_ps_ = start_ps;
    desc_ = request(job_.descriptor_bytes);
    desc_.not_before_ps = start_ps + uint64_t{t_.accel.core_startup_cycles} * t_.clocks.accel_ps;
    links_.submit(&desc_);
    state_ = State::kDescriptor;
  }
  uint64_t computeEndPs() const override {
    return state_ == State::kCompute ? compute_end_ps_ : kNever;
  }
  bool finished() const override { return state_ == State::kDone; }
  uint64_t endPs() const override { return end_ps_; }

  void resume(uint64_t now_ps) override {
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

  CoreCounts counts() const override {
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
uint64_t runCores(std::vector<std::unique_ptr<CoreRunner>>& cores, Links& links,
                  uint64_t start_ps) {
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
  now = hostWakePs(links.hostCopy(now, hostInputBytes(work)), now, cpu_ps);
  out.steps.input_sent = now / cpu_ps;

  now += t.host.driver_job_cycles * cpu_ps;
  uint64_t start_ps = now;
  for (uint32_t w = 0; w < driver.submit_writes; ++w) {
    const RegisterAccess a = registerAccess(t, now);
    start_ps = a.effect_ps;  // the last write starts the job
    now = a.done_ps;
  }
  out.steps.job_started = now / cpu_ps;

  std::vector<std::unique_ptr<CoreRunner>> cores;
  for (const CoreWork& w : work.cores)
    cores.push_back(std::make_unique<CoreRun>(t, work, w, links));
  for (const ConvCoreWork& w : work.conv_cores)
    cores.push_back(detail::makeConvCoreRun(t, work, w, links));
  const uint64_t last_end = runCores(cores, links, start_ps);
  now = hostWakePs(irqRisePs(t, last_end), now, cpu_ps);
  now += t.host.irq_handler_cycles * cpu_ps;
  for (uint32_t a = 0; a < driver.completion_reads + driver.completion_writes; ++a)
    now = registerAccess(t, now).done_ps;
  out.steps.job_done = now / cpu_ps;

  now = hostWakePs(links.hostCopy(now, hostOutputBytes(work)), now, cpu_ps);
  out.steps.end = now / cpu_ps;
  for (const auto& c : cores) out.cores.push_back(c->counts());
  return out;
}

uint64_t hostInputBytes(const JobWork& w) {
  return w.convolution ? w.conv.inputBytes() : uint64_t{w.rows} * w.k;
}

uint64_t hostOutputBytes(const JobWork& w) {
  return w.convolution ? w.conv.outputBytes() : uint64_t{w.rows} * w.n;
}

uint64_t jobBytes(const JobWork& w) {
  uint64_t bytes = hostInputBytes(w) + hostOutputBytes(w);
  for (const ConvCoreWork& c : w.conv_cores) {
    bytes += w.descriptor_bytes;
    for (const ConvStep& s : convSchedule(c)) {
      if (s.load_band) bytes += bandLoadBytes(w.conv, c, s.band);
      if (s.load_tile) bytes += tileLoadBytes(w.conv, c, s.tile, w.param_bytes_per_feature);
      bytes += stepOutputBytes(w.conv, c, s);
    }
  }
  for (const CoreWork& c : w.cores)
    bytes += w.descriptor_bytes + uint64_t{w.rows} * w.k +
             uint64_t{c.n_count} * (uint64_t{w.k} + w.param_bytes_per_feature) +
             uint64_t{w.rows} * c.n_count;
  return bytes;
}

}  // namespace hilsim::timing
