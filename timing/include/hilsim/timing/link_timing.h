#pragma once
// Timing of one DMA transfer alone on the bus and of the interrupt, across the platform's clocks,
// in picoseconds. Pure functions: no SystemC. The simulator's DMA engine and accelerator follow
// these; with other transfers on the bus the arbitration of bus_scheduler.h adds waiting.

#include <cstdint>

#include "hilsim/timing/bus_scheduler.h"

namespace hilsim::timing {

// The first edge of a clock with period `period_ps` at or after `t_ps`.
inline uint64_t nextEdgePs(uint64_t t_ps, uint64_t period_ps) {
  return (t_ps + period_ps - 1) / period_ps * period_ps;
}

struct TransferTiming {
  uint64_t accel_period_ps = 2500;
  uint64_t bus_period_ps = 2500;
  uint32_t setup_cycles = 16;    // DMA set-up, accelerator clock
  uint32_t latency_cycles = 14;  // bus + memory access latency, bus clock
  BusParams bus;
};

// A transfer of `bytes` issued at `start_ps` with the bus to itself: set-up, latency, then its
// bursts starting on the next bus clock edge.
inline uint64_t loneTransferEndPs(const TransferTiming& t, uint64_t start_ps, uint64_t bytes) {
  const uint64_t eligible =
      start_ps + t.setup_cycles * t.accel_period_ps + t.latency_cycles * t.bus_period_ps;
  return nextEdgePs(eligible, t.bus_period_ps) + transferCycles(t.bus, bytes) * t.bus_period_ps;
}

// The interrupt line rises irq_latency_cycles (accelerator clock) after the last core finishes;
// the host CPU takes it on its next clock edge.
inline uint64_t irqRisePs(uint64_t done_ps, uint64_t accel_period_ps, uint32_t irq_latency_cycles) {
  return done_ps + uint64_t{irq_latency_cycles} * accel_period_ps;
}
inline uint64_t hostWakePs(uint64_t irq_ps, uint64_t cpu_period_ps) {
  return nextEdgePs(irq_ps, cpu_period_ps);
}

}  // namespace hilsim::timing
