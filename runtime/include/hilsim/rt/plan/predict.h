#pragma once
// Analytical prediction of a planned layer's accelerated cycles, used to decide whether to
// offload and to find break-even sizes. The simulator measures the real figure; this estimate
// follows the same formulas (core_timing.h, bus_scheduler.h) with bus contention approximated by
// an even share of the bus among the cores loading at the same time.

#include <cstdint>
#include <optional>

#include "hilsim/rt/plan/chunk_plan.h"
#include "hilsim/timing/cpu_cost_model.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::rt::plan {

struct Prediction {
  uint64_t cycles = 0;        // host-clock cycles of the accelerated layer
  uint64_t fixed_cycles = 0;  // the part that does not grow with the layer
  uint64_t variable_cycles = 0;
};

Prediction predictAccelerated(const Plan& plan, const timing::PlatformTiming& t);

// The MAC count from which layers of this shape's family (same rows, same k:n ratio) are
// predicted to run faster accelerated than on the CPU's reference kernel; nullopt if no member
// up to 2^40 MACs pays (or fits).
std::optional<uint64_t> breakEvenMacs(const GemmShape& shape, const Hardware& hw,
                                      const timing::PlatformTiming& t,
                                      const timing::CpuCostModel& cpu);

}  // namespace hilsim::rt::plan
