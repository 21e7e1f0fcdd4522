#pragma once
// Timing of the platform's links, in picoseconds of simulated time: a register access from the
// host, a bulk transfer's latency and eligibility for the bus, the interrupt and the host's
// wake-up. Pure functions: the SystemC modules time their transactions with them, and the planner's
// estimate (job_timeline.h) replays a job with them.

#include <algorithm>
#include <cstdint>

#include "hilsim/base/clock.h"
#include "hilsim/timing/bus_scheduler.h"
#include "hilsim/timing/core_timing.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::timing {

// Bus cycles a single (not bulk) access of `bytes` spends on the bus: latency, then its data
// phase of one cycle per width_bytes.
inline uint64_t singleAccessBusCycles(const BusTiming& bus, uint64_t bytes) {
  return bus.latency_cycles + ceilDiv(bytes, bus.width_bytes);
}

// Bus cycles before a bulk transfer's data may move: the bus's latency and system memory's.
inline uint64_t bulkLatencyBusCycles(const BusTiming& bus) {
  return uint64_t{bus.latency_cycles} + bus.memory_latency_cycles;
}

// The bus cycle from which a transfer that becomes eligible at `eligible_ps`, requested at
// `now_ps`, competes for the bus: the first bus edge at or after both.
inline uint64_t eligibleBusCycle(uint64_t eligible_ps, uint64_t now_ps, uint64_t bus_ps) {
  return nextEdgePs(std::max(eligible_ps, now_ps), bus_ps) / bus_ps;
}

// When a DMA transfer that begins at `begin_ps` becomes eligible for the bus: the DMA set-up
// (accelerator clock) and the bulk latency.
inline uint64_t dmaEligiblePs(const PlatformTiming& t, uint64_t begin_ps) {
  return begin_ps + uint64_t{t.accel.dma_setup_cycles} * t.clocks.accel_ps +
         bulkLatencyBusCycles(t.bus) * t.clocks.bus_ps;
}

// When a bulk copy the host issues at `issue_ps` becomes eligible for the bus.
inline uint64_t hostCopyEligiblePs(const PlatformTiming& t, uint64_t issue_ps) {
  return issue_ps + bulkLatencyBusCycles(t.bus) * t.clocks.bus_ps;
}

// A 32-bit register access the host CPU starts at `start_ps` (on its clock edge): driver software,
// then the access reaches the register block, which takes effect `reg_access_cycles` later; the
// bus adds its latency and data phase on the way back and the CPU goes on at its next edge.
struct RegisterAccess {
  uint64_t effect_ps = 0;  // when the register block applies it (a START begins the job)
  uint64_t done_ps = 0;    // when the CPU goes on
};
inline RegisterAccess registerAccess(const PlatformTiming& t, uint64_t start_ps) {
  RegisterAccess a;
  a.effect_ps = start_ps + t.host.driver_reg_cycles * t.clocks.cpu_ps +
                uint64_t{t.accel.reg_access_cycles} * t.clocks.accel_ps;
  a.done_ps =
      nextEdgePs(a.effect_ps + singleAccessBusCycles(t.bus, 4) * t.clocks.bus_ps, t.clocks.cpu_ps);
  return a;
}

// The interrupt line rises irq_latency_cycles (accelerator clock) after the last core finishes.
inline uint64_t irqRisePs(const PlatformTiming& t, uint64_t done_ps) {
  return done_ps + uint64_t{t.accel.irq_latency_cycles} * t.clocks.accel_ps;
}

// A host CPU that began waiting at `since_ps` goes on at its first edge at or after the event.
inline uint64_t hostWakePs(uint64_t event_ps, uint64_t since_ps, uint64_t cpu_ps) {
  return nextEdgePs(std::max(event_ps, since_ps), cpu_ps);
}

}  // namespace hilsim::timing
