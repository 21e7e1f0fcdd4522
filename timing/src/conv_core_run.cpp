// One core's share of a convolution job in the planner's timeline: the steps of its schedule
// (conv_schedule.h), as the simulated core (sc_model/src/matmul_core_conv.cpp) takes them.

#include "job_links.h"

namespace hilsim::timing::detail {
namespace {

class ConvCoreRun final : public CoreRunner {
 public:
  ConvCoreRun(const PlatformTiming& t, const JobWork& job, const ConvCoreWork& w, Links& links)
      : t_(t),
        job_(job),
        w_(w),
        links_(links),
        steps_(convSchedule(w)),
        band_loads_(steps_.size()),
        tile_loads_(steps_.size()),
        stores_(steps_.size()) {}

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
        if (steps_.empty()) {
          finish(now_ps);
          return;
        }
        issueLoads(0, false);
        issueLoads(0, true);
        step_ = 0;
        wait_from_ps_ = now_ps;
        state_ = State::kLoad;
        [[fallthrough]];
      case State::kLoad: {
        const ConvStep& s = steps_[step_];
        if (!input_[s.input_buffer]->done || !tile_[s.tile_buffer]->done) return;
        load_wait_ps_ += now_ps - wait_from_ps_;
        wait_from_ps_ = now_ps;
        state_ = State::kOutputBuffer;
        [[fallthrough]];
      }
      case State::kOutputBuffer: {
        const ConvStep& s = steps_[step_];
        if (s.wait_store >= 0 && !stores_[static_cast<size_t>(s.wait_store)].done) return;
        store_wait_ps_ += now_ps - wait_from_ps_;
        startCompute(now_ps);
        return;
      }
      case State::kCompute:
        if (now_ps < compute_end_ps_) return;
        compute_ps_ += compute_end_ps_ - compute_start_ps_;
        stores_[step_] = request(stepOutputBytes(job_.conv, w_, steps_[step_]));
        links_.submit(&stores_[step_]);
        if (step_ + 1 == steps_.size()) {
          wait_from_ps_ = now_ps;
          state_ = State::kStore;
        } else {
          issueLoads(step_ + 1, false);
          ++step_;
          wait_from_ps_ = now_ps;
          state_ = State::kLoad;
        }
        resume(now_ps);
        return;
      case State::kStore:
        for (const Transfer& o : stores_)
          if (!o.done) return;
        store_wait_ps_ += now_ps - wait_from_ps_;
        finish(now_ps);
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
    c.stall_cycles = desc_.stall_cycles;
    for (const std::vector<Transfer>* v : {&band_loads_, &tile_loads_, &stores_})
      for (const Transfer& r : *v) c.stall_cycles += r.stall_cycles;
    return c;
  }

 private:
  enum class State { kIdle, kDescriptor, kLoad, kOutputBuffer, kCompute, kStore, kDone };

  Transfer request(uint64_t bytes) const {
    Transfer r;
    r.requester = w_.core;
    r.bytes = bytes;
    return r;
  }
  // Issues the loads of step `s` that go at this moment: the early ones (while the step before
  // computes) or the others; the band before the tile.
  void issueLoads(size_t s, bool early) {
    const ConvStep& step = steps_[s];
    if (step.load_band && step.band_early == early) {
      band_loads_[s] = request(bandLoadBytes(job_.conv, w_, step.band));
      input_[step.input_buffer] = &band_loads_[s];
      links_.submit(&band_loads_[s]);
    }
    if (step.load_tile && step.tile_early == early) {
      tile_loads_[s] =
          request(tileLoadBytes(job_.conv, w_, step.tile, job_.param_bytes_per_feature));
      tile_[step.tile_buffer] = &tile_loads_[s];
      links_.submit(&tile_loads_[s]);
    }
  }
  void startCompute(uint64_t now_ps) {
    if (step_ + 1 < steps_.size()) issueLoads(step_ + 1, true);
    const ComputeCycles cc =
        convStepCycles(t_.geometry.dataflow, t_.geometry.array(), job_.conv, w_, steps_[step_]);
    compute_start_ps_ = now_ps;
    compute_end_ps_ = now_ps + cc.cycles * t_.clocks.accel_ps;
    state_ = State::kCompute;
  }
  void finish(uint64_t now_ps) {
    end_ps_ = now_ps;
    state_ = State::kDone;
  }

  const PlatformTiming& t_;
  const JobWork& job_;
  const ConvCoreWork& w_;
  Links& links_;
  const std::vector<ConvStep> steps_;
  State state_ = State::kIdle;
  Transfer desc_;
  std::vector<Transfer> band_loads_, tile_loads_, stores_;  // by step
  const Transfer* input_[2] = {nullptr, nullptr};           // the last load into each buffer
  const Transfer* tile_[2] = {nullptr, nullptr};
  size_t step_ = 0;
  uint64_t start_ps_ = 0, startup_ps_ = 0, wait_from_ps_ = 0;
  uint64_t compute_start_ps_ = 0, compute_end_ps_ = 0, end_ps_ = 0;
  uint64_t load_wait_ps_ = 0, compute_ps_ = 0, store_wait_ps_ = 0;
};

}  // namespace

std::unique_ptr<CoreRunner> makeConvCoreRun(const PlatformTiming& t, const JobWork& job,
                                            const ConvCoreWork& w, Links& links) {
  return std::make_unique<ConvCoreRun>(t, job, w, links);
}

}  // namespace hilsim::timing::detail
