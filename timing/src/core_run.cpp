// One core's share of an accelerated job in the planner's timeline: the steps of its schedule
// (core_schedule.h), as the simulated core (sc_model/src/matmul_core.cpp) takes them.

#include <utility>

#include "job_links.h"

namespace hilsim::timing::detail {

CoreRun::CoreRun(const PlatformTiming& t, uint32_t core, uint32_t descriptor_bytes,
                 std::vector<TimedStep> steps, Links& links)
    : t_(t),
      core_(core),
      descriptor_bytes_(descriptor_bytes),
      steps_(std::move(steps)),
      links_(links),
      band_loads_(steps_.size()),
      tile_loads_(steps_.size()),
      stores_(steps_.size()) {}

void CoreRun::start(uint64_t start_ps) {
  start_ps_ = start_ps;
  desc_ = request(descriptor_bytes_);
  desc_.not_before_ps = start_ps + uint64_t{t_.accel.core_startup_cycles} * t_.clocks.accel_ps;
  links_.submit(&desc_);
  state_ = State::kDescriptor;
}

void CoreRun::resume(uint64_t now_ps) {
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
      const CoreStep& s = steps_[step_].step;
      if (!input_[s.input_buffer]->done || !tile_[s.tile_buffer]->done) return;
      load_wait_ps_ += now_ps - wait_from_ps_;
      wait_from_ps_ = now_ps;
      state_ = State::kOutputBuffer;
      [[fallthrough]];
    }
    case State::kOutputBuffer: {
      const CoreStep& s = steps_[step_].step;
      if (s.wait_store >= 0 && !stores_[static_cast<size_t>(s.wait_store)].done) return;
      store_wait_ps_ += now_ps - wait_from_ps_;
      startCompute(now_ps);
      return;
    }
    case State::kCompute:
      if (now_ps < compute_end_ps_) return;
      compute_ps_ += compute_end_ps_ - compute_start_ps_;
      stores_[step_] = request(steps_[step_].output_bytes);
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

CoreCounts CoreRun::counts() const {
  const uint64_t accel_ps = t_.clocks.accel_ps;
  CoreCounts c;
  c.core = core_;
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

Transfer CoreRun::request(uint64_t bytes) const {
  Transfer r;
  r.requester = core_;
  r.bytes = bytes;
  return r;
}

void CoreRun::issueLoads(size_t s, bool early) {
  const TimedStep& timed = steps_[s];
  const CoreStep& step = timed.step;
  if (step.load_band && step.band_early == early) {
    band_loads_[s] = request(timed.band_bytes);
    input_[step.input_buffer] = &band_loads_[s];
    links_.submit(&band_loads_[s]);
  }
  if (step.load_tile && step.tile_early == early) {
    tile_loads_[s] = request(timed.tile_bytes);
    tile_[step.tile_buffer] = &tile_loads_[s];
    links_.submit(&tile_loads_[s]);
  }
}

void CoreRun::startCompute(uint64_t now_ps) {
  if (step_ + 1 < steps_.size()) issueLoads(step_ + 1, true);
  compute_start_ps_ = now_ps;
  compute_end_ps_ = now_ps + steps_[step_].compute_cycles * t_.clocks.accel_ps;
  state_ = State::kCompute;
}

void CoreRun::finish(uint64_t now_ps) {
  end_ps_ = now_ps;
  state_ = State::kDone;
}

}  // namespace hilsim::timing::detail
