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

uint32_t BusScheduler::PortSet::count() const {
  return static_cast<uint32_t>(__builtin_popcountll(word[0]) + __builtin_popcountll(word[1]));
}

uint32_t BusScheduler::PortSet::lowest() const {
  return word[0] ? static_cast<uint32_t>(__builtin_ctzll(word[0]))
                 : 64 + static_cast<uint32_t>(__builtin_ctzll(word[1]));
}

uint32_t BusScheduler::PortSet::nextFrom(uint32_t from, uint32_t ports) const {
  if (from >= ports) from = 0;
  for (uint32_t w = from >> 6; w < 2; ++w) {
    uint64_t bits = word[w];
    if (w == (from >> 6)) bits &= ~uint64_t{0} << (from & 63);
    if (bits) return w * 64 + static_cast<uint32_t>(__builtin_ctzll(bits));
  }
  return lowest();  // wrap around
}

namespace {
int log2IfPowerOfTwo(uint64_t v) {
  return v && (v & (v - 1)) == 0 ? __builtin_ctzll(v) : -1;
}
}  // namespace

BusScheduler::BusScheduler(const BusParams& params)
    : params_(params),
      full_burst_cycles_(burstCycles(params, params.burst_bytes)),
      burst_shift_(log2IfPowerOfTwo(params.burst_bytes)),
      beat_shift_(log2IfPowerOfTwo(params.bytes_per_cycle)) {
  if (params.ports == 0 || params.ports > 128 || params.bytes_per_cycle == 0 ||
      params.burst_bytes == 0)
    throw std::invalid_argument(
        "BusScheduler: 1..128 ports, and bytes_per_cycle and burst_bytes > 0");
  state_.flows.resize(params.ports);
  state_.last_granted = params.ports - 1;
}

// The usual powers of two avoid divisions on this hot path.
uint64_t BusScheduler::bursts(uint64_t bytes) const {
  return burst_shift_ >= 0 ? (bytes + params_.burst_bytes - 1) >> burst_shift_
                           : ceilDiv(bytes, params_.burst_bytes);
}

uint64_t BusScheduler::cyclesOf(uint64_t burst_bytes) const {
  return beat_shift_ >= 0 ? (burst_bytes + params_.bytes_per_cycle - 1) >> beat_shift_
                          : ceilDiv(burst_bytes, params_.bytes_per_cycle);
}

void BusScheduler::add(uint32_t port, uint64_t bytes, uint64_t eligible_cycle) {
  Flow& f = state_.flows.at(port);
  if (f.active) throw std::logic_error("BusScheduler: port " + std::to_string(port) + " is busy");
  if (bytes == 0) throw std::logic_error("BusScheduler: empty transfer");
  f.active = true;
  f.remaining = bytes;
  f.eligible = std::max(eligible_cycle, state_.now);
  f.alone_cycles = transferCycles(params_, bytes);
  state_.waiting.push_back(port);
}

uint32_t BusScheduler::activeTransfers() const {
  uint32_t n = 0;
  for (const Flow& f : state_.flows) n += f.active && f.eligible <= state_.now;
  return n;
}

std::vector<uint32_t> BusScheduler::activePorts() const {
  std::vector<uint32_t> ports;
  for (uint32_t p = 0; p < state_.flows.size(); ++p)
    if (state_.flows[p].active && state_.flows[p].eligible <= state_.now) ports.push_back(p);
  return ports;
}

void BusScheduler::admit(State& st) const {
  for (size_t i = 0; i < st.waiting.size();) {
    const uint32_t p = st.waiting[i];
    if (st.flows[p].eligible <= st.now) {
      st.ready.set(p);
      st.waiting[i] = st.waiting.back();
      st.waiting.pop_back();
    } else {
      ++i;
    }
  }
}

uint32_t BusScheduler::pick(const State& st) const {
  if (st.ready.empty()) return kNoPort;
  if (params_.arbitration == Arbitration::kFixed) return st.ready.lowest();
  return st.ready.nextFrom(st.last_granted + 1, params_.ports);
}

uint64_t BusScheduler::nextEligibility(const State& st) const {
  uint64_t next = kNever;
  for (uint32_t p : st.waiting) next = std::min(next, st.flows[p].eligible);
  return next;
}

std::optional<uint64_t> BusScheduler::nextEligibility() const {
  const uint64_t next = nextEligibility(state_);
  return next == kNever ? std::nullopt : std::optional<uint64_t>(next);
}

bool BusScheduler::skip(State& st, uint64_t limit) const {
  if (limit <= st.now || st.ready.empty()) return false;
  const uint64_t budget = limit - st.now;
  if (params_.arbitration == Arbitration::kFixed) {
    const uint32_t top = st.ready.lowest();
    Flow& f = st.flows[top];
    const uint64_t count = std::min(bursts(f.remaining) - 1, budget / full_burst_cycles_);
    if (count == 0) return false;
    f.remaining -= count * params_.burst_bytes;
    st.now += count * full_burst_cycles_;
    st.last_granted = top;
    return true;
  }
  // Round robin: every ready port gets one full burst per round, in the same order each round,
  // until the one with the fewest bursts reaches its last.
  uint64_t fewest = std::numeric_limits<uint64_t>::max();
  uint64_t ready = 0;  // counted here: without POPCNT in the baseline ISA, popcount is a call
  for (uint32_t w = 0; w < 2; ++w)
    for (uint64_t bits = st.ready.word[w]; bits; bits &= bits - 1, ++ready)
      fewest = std::min(fewest, bursts(st.flows[w * 64 + __builtin_ctzll(bits)].remaining));
  const uint64_t round_cycles = ready * full_burst_cycles_;
  const uint64_t rounds = std::min(fewest - 1, budget / round_cycles);
  if (rounds == 0) return false;
  for (uint32_t w = 0; w < 2; ++w)
    for (uint64_t bits = st.ready.word[w]; bits; bits &= bits - 1)
      st.flows[w * 64 + __builtin_ctzll(bits)].remaining -= rounds * params_.burst_bytes;
  st.now += rounds * round_cycles;
  // A round ends with the last ready port before the one after last_granted, cyclically.
  const uint32_t first = st.ready.nextFrom(st.last_granted + 1, params_.ports);
  uint32_t last = first;
  for (uint32_t p = st.ready.nextFrom(first + 1, params_.ports); p != first;
       p = st.ready.nextFrom(p + 1, params_.ports))
    last = p;
  st.last_granted = last;
  return true;
}

uint64_t BusScheduler::run(State& st, uint64_t target, bool stop_at_completion,
                           std::vector<Completion>* done) const {
  uint64_t first_completion = kNever;
  while (true) {
    if (st.bus_busy) {
      if (st.burst_end > target) break;
      st.now = st.burst_end;
      st.bus_busy = false;
      Flow& f = st.flows[st.owner];
      if (f.remaining == 0) {
        f.active = false;
        st.ready.clear(st.owner);
        if (done) done->push_back({st.owner, st.now, st.now - f.eligible - f.alone_cycles});
        if (first_completion == kNever) first_completion = st.now;
        if (stop_at_completion) return first_completion;
      }
    }
    // Arbitration at `target` waits until time moves past it, so that every transfer added at
    // that cycle (e.g. a DMA channel's next descriptor) takes part.
    if (st.now >= target) break;
    admit(st);
    const uint32_t next = pick(st);
    const uint64_t eligibility = nextEligibility(st);
    if (next == kNoPort) {
      if (eligibility != kNever && eligibility <= target) {
        st.now = eligibility;
        continue;
      }
      break;  // idle until the next eligibility
    }
    if (skip(st, std::min(target, eligibility))) continue;
    Flow& f = st.flows[next];
    const uint64_t burst = std::min<uint64_t>(f.remaining, params_.burst_bytes);
    f.remaining -= burst;
    st.bus_busy = true;
    st.owner = next;
    st.last_granted = next;
    st.burst_end = st.now + cyclesOf(burst);
  }
  if (target > st.now && target != kNever) st.now = target;
  return first_completion;
}

const std::vector<Completion>& BusScheduler::advance(uint64_t cycle) {
  completed_.clear();
  run(state_, cycle, false, &completed_);
  admit(state_);
  return completed_;
}

std::optional<uint64_t> BusScheduler::nextCompletion() const {
  if (state_.ready.empty() && state_.waiting.empty() && !state_.bus_busy) return std::nullopt;
  probe_ = state_;  // reuses the probe's vectors: no allocation after the first call
  const uint64_t first = run(probe_, kNever, true, nullptr);
  return first == kNever ? std::nullopt : std::optional<uint64_t>(first);
}

}  // namespace hilsim::timing
