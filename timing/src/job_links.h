#pragma once
// Private to the job timeline: the DMA engine and bus as the timeline plays them, and one core
// walking the steps of its job (core_run.cpp) through them.

#include <algorithm>
#include <deque>
#include <limits>
#include <vector>

#include "hilsim/timing/bus_scheduler.h"
#include "hilsim/timing/core_schedule.h"
#include "hilsim/timing/job_timeline.h"
#include "hilsim/timing/link_timing.h"

namespace hilsim::timing::detail {

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
      : t_(t), bus_(t.bus.arbitration), channel_(t.accel.dma_channels, nullptr) {}

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

// A step of a core's job (core_schedule.h) with what it costs: the bytes of the loads it makes
// and of its outputs, and its compute cycles (accelerator clock).
struct TimedStep {
  CoreStep step;
  uint64_t band_bytes = 0;
  uint64_t tile_bytes = 0;
  uint64_t compute_cycles = 0;
  uint64_t output_bytes = 0;
};

// One core running its share of the job, step by step as the simulated core does: the
// descriptor fetch, then per step its loads, a free output buffer, the compute and the store,
// and at the end the wait for every store.
class CoreRun {
 public:
  CoreRun(const PlatformTiming& t, uint32_t core, uint32_t descriptor_bytes,
          std::vector<TimedStep> steps, Links& links);
  // The job starts at `start_ps`: start-up, then the descriptor fetch.
  void start(uint64_t start_ps);
  // When the step being computed ends, or kNever.
  uint64_t computeEndPs() const { return state_ == State::kCompute ? compute_end_ps_ : kNever; }
  bool finished() const { return state_ == State::kDone; }
  uint64_t endPs() const { return end_ps_; }
  // Goes as far as it can at `now_ps` (a transfer of its own completed, or a step computed).
  void resume(uint64_t now_ps);
  CoreCounts counts() const;

 private:
  enum class State { kIdle, kDescriptor, kLoad, kOutputBuffer, kCompute, kStore, kDone };

  Transfer request(uint64_t bytes) const;
  // Issues the loads of step `s` that go at this moment: the early ones (while the step before
  // computes) or the others; the band before the tile.
  void issueLoads(size_t s, bool early);
  void startCompute(uint64_t now_ps);
  void finish(uint64_t now_ps);

  const PlatformTiming& t_;
  const uint32_t core_;
  const uint32_t descriptor_bytes_;
  const std::vector<TimedStep> steps_;
  Links& links_;
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

}  // namespace hilsim::timing::detail
