#pragma once
// Arbitration of bulk transfers on the shared bus, in bus clock cycles. Pure: no SystemC.
//
// Each port (a DMA channel or the host) has at most one transfer at a time. A transfer becomes
// eligible at a given cycle (after DMA set-up and access latency) and is cut into bursts of at
// most burst_bytes; a burst of b bytes occupies the bus for ceil(b / bytes_per_cycle) cycles.
// The bus carries one burst at a time and never preempts one. When a burst ends, the next burst
// goes to the next eligible port after the last one served (round robin), or to the eligible
// port with the lowest index (fixed priority). A transfer completes when its last burst ends.
//
// So a transfer alone on the bus takes transferCycles(bytes); n equal transfers that become
// eligible together finish within one round of each other after about n times as long. The
// scheduler computes this in closed form between events, so its work grows with the number of
// transfers and ports, not with bytes or cycles.

#include <cstdint>
#include <optional>
#include <vector>

namespace hilsim::timing {

enum class Arbitration : uint8_t { kRoundRobin, kFixed };

struct BusParams {
  Arbitration arbitration = Arbitration::kRoundRobin;
  uint32_t bytes_per_cycle = 0;  // min(bus width, memory bytes per cycle)
  uint32_t burst_bytes = 0;
  uint32_t ports = 1;
};

// Bus cycles a burst of `bytes` occupies.
uint64_t burstCycles(const BusParams& params, uint64_t bytes);
// Bus cycles a transfer of `bytes` needs when it has the bus to itself.
uint64_t transferCycles(const BusParams& params, uint64_t bytes);

struct Completion {
  uint32_t port = 0;
  uint64_t cycle = 0;         // cycle at which the last burst ended
  uint64_t stall_cycles = 0;  // (cycle - eligible) - transferCycles(bytes): time lost to others
};

class BusScheduler {
 public:
  explicit BusScheduler(const BusParams& params);

  // Adds a transfer of `bytes` (> 0) on an idle `port`, eligible at `eligible_cycle` (>= now()).
  void add(uint32_t port, uint64_t bytes, uint64_t eligible_cycle);
  // Advances to `cycle` (>= now()) and returns the transfers completed at or before it, in
  // completion order (valid until the next call). The bus is arbitrated at `cycle` only by a
  // later call, so transfers added at `cycle` compete with those already waiting.
  const std::vector<Completion>& advance(uint64_t cycle);
  // Cycle of the next completion if nothing more is added; nullopt when no transfer is pending.
  std::optional<uint64_t> nextCompletion() const;

  // Cycle at which a waiting transfer becomes eligible next, if any.
  std::optional<uint64_t> nextEligibility() const;

  uint64_t now() const { return state_.now; }
  bool portBusy(uint32_t port) const { return state_.flows.at(port).active; }
  // Transfers eligible and not yet complete (the bus occupancy shown in traces).
  uint32_t activeTransfers() const;
  // Ports with an eligible transfer that is not complete, in port order.
  std::vector<uint32_t> activePorts() const;
  const BusParams& params() const { return params_; }

 private:
  struct Flow {
    bool active = false;
    uint64_t remaining = 0;  // bytes not yet put on the bus
    uint64_t eligible = 0;
    uint64_t alone_cycles = 0;
  };
  // Ports as bits (up to 128 ports).
  struct PortSet {
    uint64_t word[2] = {0, 0};
    void set(uint32_t p) { word[p >> 6] |= uint64_t{1} << (p & 63); }
    void clear(uint32_t p) { word[p >> 6] &= ~(uint64_t{1} << (p & 63)); }
    bool empty() const { return (word[0] | word[1]) == 0; }
    uint32_t count() const;
    // The first port at or after `from` (cyclically, over `ports`); requires !empty().
    uint32_t nextFrom(uint32_t from, uint32_t ports) const;
    uint32_t lowest() const;
  };
  struct State {
    std::vector<Flow> flows;
    PortSet ready;                  // eligible, bytes left to send
    std::vector<uint32_t> waiting;  // active, not yet eligible
    uint64_t now = 0;
    bool bus_busy = false;
    uint32_t owner = 0;
    uint64_t burst_end = 0;
    uint32_t last_granted = 0;
  };

  // The hot path uses sentinels rather than std::optional, whose two-part stores and wide
  // reloads stall store forwarding.
  static constexpr uint64_t kNever = ~uint64_t{0};
  static constexpr uint32_t kNoPort = ~uint32_t{0};
  // Core of advance(): stops at `target`, or after the first completion if `stop_at_completion`.
  // Returns the cycle of the first completion, or kNever.
  uint64_t run(State& st, uint64_t target, bool stop_at_completion,
               std::vector<Completion>* done) const;
  // Moves waiting transfers whose eligibility has come into the ready set.
  void admit(State& st) const;
  // The port granted next, or kNoPort.
  uint32_t pick(const State& st) const;
  // Skips whole rounds (round robin) or bursts of one port (fixed) that end by `limit` and
  // complete no transfer. Returns true if time advanced.
  bool skip(State& st, uint64_t limit) const;
  // The earliest eligibility among waiting transfers, or kNever.
  uint64_t nextEligibility(const State& st) const;
  uint64_t bursts(uint64_t bytes) const;
  uint64_t cyclesOf(uint64_t burst_bytes) const;

  BusParams params_;
  uint64_t full_burst_cycles_;
  int burst_shift_ = -1;  // log2 of burst_bytes / bytes_per_cycle when powers of two, else -1
  int beat_shift_ = -1;
  State state_;
  std::vector<Completion> completed_;
  mutable State probe_;  // nextCompletion() works on a copy, kept to avoid allocating
};

}  // namespace hilsim::timing
