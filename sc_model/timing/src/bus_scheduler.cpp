#include "hilsim/timing/bus_scheduler.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "hilsim/timing/core_timing.h"

namespace hilsim::timing {

uint64_t burstCycles(const BusParams& params, uint64_t bytes) {
  return ceilDiv(bytes, params.bytes_per_cycle);
}

uint64_t transferCycles(const BusParams& params, uint64_t bytes) {
  if (bytes == 0) return 0;
  const uint64_t full = (bytes - 1) / params.burst_bytes;  // bursts before the last one
  return full * burstCycles(params, params.burst_bytes) +
         burstCycles(params, bytes - full * params.burst_bytes);
}

BusScheduler::BusScheduler(const BusParams& params)
    : params_(params),
      full_burst_cycles_(burstCycles(params, params.burst_bytes)),
      flows_(params.ports),
      last_granted_(params.ports ? params.ports - 1 : 0) {
  if (params.ports == 0 || params.bytes_per_cycle == 0 || params.burst_bytes == 0)
    throw std::invalid_argument("BusScheduler: ports, bytes_per_cycle and burst_bytes must be > 0");
}

uint64_t BusScheduler::bursts(uint64_t bytes) const { return ceilDiv(bytes, params_.burst_bytes); }

void BusScheduler::add(uint32_t port, uint64_t bytes, uint64_t eligible_cycle) {
  Flow& f = flows_.at(port);
  if (f.active) throw std::logic_error("BusScheduler: port " + std::to_string(port) + " is busy");
  if (bytes == 0) throw std::logic_error("BusScheduler: empty transfer");
  f.active = true;
  f.remaining = bytes;
  f.eligible = std::max(eligible_cycle, now_);
  f.alone_cycles = transferCycles(params_, bytes);
}

uint32_t BusScheduler::activeTransfers() const {
  uint32_t n = 0;
  for (const Flow& f : flows_) n += f.active && f.eligible <= now_;
  return n;
}

std::vector<uint32_t> BusScheduler::activePorts() const {
  std::vector<uint32_t> ports;
  for (uint32_t p = 0; p < flows_.size(); ++p)
    if (flows_[p].active && flows_[p].eligible <= now_) ports.push_back(p);
  return ports;
}

std::optional<uint32_t> BusScheduler::pick() const {
  const uint32_t n = static_cast<uint32_t>(flows_.size());
  auto ready = [&](uint32_t p) {
    const Flow& f = flows_[p];
    return f.active && f.remaining > 0 && f.eligible <= now_;
  };
  if (params_.arbitration == Arbitration::kFixed) {
    for (uint32_t p = 0; p < n; ++p)
      if (ready(p)) return p;
    return std::nullopt;
  }
  for (uint32_t i = 1; i <= n; ++i) {
    const uint32_t p = (last_granted_ + i) % n;
    if (ready(p)) return p;
  }
  return std::nullopt;
}

std::optional<uint64_t> BusScheduler::nextEligibility() const {
  std::optional<uint64_t> next;
  for (const Flow& f : flows_)
    if (f.active && f.remaining > 0 && f.eligible > now_ && (!next || f.eligible < *next))
      next = f.eligible;
  return next;
}

bool BusScheduler::skip(uint64_t limit) {
  if (limit <= now_) return false;
  const uint64_t budget = limit - now_;
  const uint32_t n = static_cast<uint32_t>(flows_.size());
  if (params_.arbitration == Arbitration::kFixed) {
    const std::optional<uint32_t> top = pick();
    if (!top) return false;
    Flow& f = flows_[*top];
    const uint64_t count = std::min(bursts(f.remaining) - 1, budget / full_burst_cycles_);
    if (count == 0) return false;
    f.remaining -= count * params_.burst_bytes;
    now_ += count * full_burst_cycles_;
    last_granted_ = *top;
    return true;
  }
  // Round robin: every eligible port gets one full burst per round, in the same order each
  // round, as long as none of them reaches its last burst.
  uint64_t eligible = 0, safe_rounds = std::numeric_limits<uint64_t>::max();
  uint32_t last_in_round = last_granted_;
  for (uint32_t i = 1; i <= n; ++i) {
    const uint32_t p = (last_granted_ + i) % n;
    const Flow& f = flows_[p];
    if (!(f.active && f.remaining > 0 && f.eligible <= now_)) continue;
    ++eligible;
    safe_rounds = std::min(safe_rounds, bursts(f.remaining) - 1);
    last_in_round = p;
  }
  if (eligible == 0) return false;
  const uint64_t round_cycles = eligible * full_burst_cycles_;
  const uint64_t rounds = std::min(safe_rounds, budget / round_cycles);
  if (rounds == 0) return false;
  for (Flow& f : flows_)
    if (f.active && f.remaining > 0 && f.eligible <= now_) f.remaining -= rounds * params_.burst_bytes;
  now_ += rounds * round_cycles;
  last_granted_ = last_in_round;
  return true;
}

void BusScheduler::run(uint64_t target, bool stop_at_completion, std::vector<Completion>* done) {
  while (true) {
    if (bus_busy_) {
      if (burst_end_ > target) break;
      now_ = burst_end_;
      bus_busy_ = false;
      Flow& f = flows_[owner_];
      if (f.remaining == 0) {
        f.active = false;
        if (done) done->push_back({owner_, now_, now_ - f.eligible - f.alone_cycles});
        if (stop_at_completion) return;
      }
    }
    // Arbitration at `target` waits until time moves past it, so that every transfer added at
    // that cycle (e.g. a DMA channel's next descriptor) takes part.
    if (now_ >= target) break;
    const std::optional<uint32_t> next = pick();
    const std::optional<uint64_t> eligibility = nextEligibility();
    if (!next) {
      if (eligibility && *eligibility <= target) {
        now_ = *eligibility;
        continue;
      }
      break;  // idle until the next eligibility
    }
    const uint64_t limit = eligibility ? std::min(target, *eligibility) : target;
    if (skip(limit)) continue;
    Flow& f = flows_[*next];
    const uint64_t burst = std::min<uint64_t>(f.remaining, params_.burst_bytes);
    f.remaining -= burst;
    bus_busy_ = true;
    owner_ = *next;
    last_granted_ = *next;
    burst_end_ = now_ + burstCycles(params_, burst);
  }
  if (target > now_ && target != std::numeric_limits<uint64_t>::max()) now_ = target;
}

std::vector<Completion> BusScheduler::advance(uint64_t cycle) {
  std::vector<Completion> done;
  run(cycle, false, &done);
  return done;
}

std::optional<uint64_t> BusScheduler::nextCompletion() const {
  bool pending = false;
  for (const Flow& f : flows_) pending |= f.active;
  if (!pending) return std::nullopt;
  BusScheduler probe = *this;
  std::vector<Completion> done;
  probe.run(std::numeric_limits<uint64_t>::max(), true, &done);
  if (done.empty()) return std::nullopt;
  return done.front().cycle;
}

}  // namespace hilsim::timing
