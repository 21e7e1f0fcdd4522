#pragma once
// Analytical prediction of a planned layer's accelerated cycles, used to decide whether to
// offload and to find break-even sizes. The simulator measures the real figure; this estimate
// follows the same formulas (core_timing.h, bus_scheduler.h) with bus contention approximated by
// an even share of the bus among the cores loading at the same time.

#include <cstdint>
#include <optional>

#include "hilsim/rt/cpu_cost_model.h"
#include "hilsim/rt/plan/chunk_plan.h"
#include "hilsim/timing/bus_scheduler.h"

namespace hilsim::rt::plan {

// Timing parameters of the platform, each in the clock of its component.
struct TimingParams {
  double cpu_mhz = 400, accel_mhz = 400, bus_mhz = 400;
  uint32_t startup_cycles = 32;        // accel
  uint32_t dma_setup_cycles = 16;      // accel
  uint32_t dma_channels = 4;
  uint32_t reg_access_cycles = 2;      // accel
  uint32_t irq_latency_cycles = 8;     // accel
  timing::BusParams bus;               // bytes_per_cycle = min(bus width, memory bytes per cycle)
  uint32_t bus_width_bytes = 16;
  uint32_t bus_latency_cycles = 4;     // bus
  uint32_t memory_latency_cycles = 10; // bus
  uint64_t driver_job_cycles = 8000;   // cpu
  uint64_t driver_reg_cycles = 10;     // cpu
  uint64_t irq_handler_cycles = 400;   // cpu
  uint64_t dispatch_cycles = 900;      // cpu: interpreter dispatch of the kernel
};

struct Prediction {
  uint64_t cycles = 0;           // host-clock cycles of the accelerated layer
  uint64_t fixed_cycles = 0;     // the part that does not grow with the layer
  uint64_t variable_cycles = 0;
};

Prediction predictAccelerated(const Plan& plan, const TimingParams& t);

// The MAC count from which layers of this shape's family (same rows, same k:n ratio) are
// predicted to run faster accelerated than on the CPU's reference kernel; nullopt if no member
// up to 2^40 MACs pays (or fits).
std::optional<uint64_t> breakEvenMacs(const GemmShape& shape, const Hardware& hw,
                                      const TimingParams& t, const CpuCostModel& cpu);

}  // namespace hilsim::rt::plan
