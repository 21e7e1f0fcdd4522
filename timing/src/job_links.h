#pragma once
// Private to the job timeline: the DMA engine and bus as the timeline plays them, and the
// interface of a core's run (FULLY_CONNECTED in job_timeline.cpp, convolution in
// conv_core_run.cpp).

#include <algorithm>
#include <deque>
#include <limits>
#include <memory>
#include <vector>

#include "hilsim/timing/bus_scheduler.h"
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
class CoreRunner {
 public:
  virtual ~CoreRunner() = default;
  // The job starts at `start_ps`: start-up, then the descriptor fetch.
  virtual void start(uint64_t start_ps) = 0;
  // When the tile being computed ends, or kNever.
  virtual uint64_t computeEndPs() const = 0;
  virtual bool finished() const = 0;
  virtual uint64_t endPs() const = 0;
  // Goes as far as it can at `now_ps` (a transfer of its own completed, or a tile computed).
  virtual void resume(uint64_t now_ps) = 0;
  virtual CoreCounts counts() const = 0;
};

std::unique_ptr<CoreRunner> makeConvCoreRun(const PlatformTiming& t, const JobWork& job,
                                            const ConvCoreWork& w, Links& links);

}  // namespace hilsim::timing::detail
