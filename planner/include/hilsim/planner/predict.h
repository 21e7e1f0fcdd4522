#pragma once
// The planner's view of an accelerated layer: the job a plan makes (for the timing model's
// timeline, timing/job_timeline.h), the split of an invocation's cycles into fixed and variable
// parts (applied alike to the estimate and to what the simulator measured), the prediction, and
// the break-even size of a shape family.

#include <cstdint>
#include <optional>
#include <vector>

#include "hilsim/energy/energy_params.h"
#include "hilsim/planner/chunk_plan.h"
#include "hilsim/planner/decision.h"
#include "hilsim/planner/types.h"
#include "hilsim/timing/cpu_cost_model.h"
#include "hilsim/timing/job_timeline.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::planner {

// The job the plan makes, and the driver's register traffic for it.
timing::JobWork jobWork(const Plan& plan);
timing::DriverTraffic driverTraffic(const Plan& plan);

// The report's breakdown of an accelerated invocation from the host's steps (host cycles from
// the kernel's start) and the cores' counters; `upload_bytes` are the bytes placed this time.
AccelBreakdown splitCycles(const Plan& plan, const timing::Clocks& clocks,
                           const timing::JobSteps& steps,
                           const std::vector<timing::CoreCounts>& cores, uint64_t upload_bytes);

struct Prediction {
  uint64_t cycles = 0;  // host-clock cycles of the accelerated layer, weights in place
  uint64_t fixed_cycles = 0;
  uint64_t variable_cycles = 0;
  // The invocation as the report's breakdown shows a measured one: the split of the cycles, the
  // bytes the host copies and the cores' DMA moves, the driver's register accesses and the host's
  // sleep while it waits for the interrupt (what its energy is counted from, layer_energy.h).
  AccelBreakdown breakdown;
};

Prediction predictAccelerated(const Plan& plan, const timing::PlatformTiming& t);

// What an offload decision minimizes (decision.h): predicted cycles, or predicted energy (with
// the energy parameters it is computed from), or their product. `params` is needed (non-null)
// for every objective but cycles.
struct ObjectiveSetting {
  Objective objective = Objective::kCycles;
  const energy::EnergyParams* params = nullptr;
};

// The predicted costs of both paths of a planned layer under `objective`: the cycles always, the
// energy unless the objective is cycles.
PathCosts predictCosts(const Plan& plan, const timing::PlatformTiming& t, uint64_t ref_cycles,
                       const ObjectiveSetting& objective);

// The MAC count from which layers of this shape's family (same rows, same k:n ratio) are
// predicted to cost less accelerated than on the CPU's reference kernel under `objective`
// (fewer cycles by default); nullopt if no member up to 2^40 MACs pays (or fits).
std::optional<uint64_t> breakEvenMacs(const GemmShape& shape, const Hardware& hw,
                                      const timing::PlatformTiming& t,
                                      const timing::CpuCostModel& cpu,
                                      const ObjectiveSetting& objective = {});

// Convolutions: the family keeps the geometry and the in:out channel ratio (depthwise: the depth
// multiplier) and scales the output channels.
std::optional<uint64_t> convBreakEvenMacs(const ConvGeometry& geo, const Hardware& hw,
                                          const timing::PlatformTiming& t,
                                          const timing::CpuCostModel& cpu,
                                          const ObjectiveSetting& objective = {});

// Cycles of the reference CONV_2D or DEPTHWISE_CONV_2D kernel for a convolution (the CPU cost
// model on its MACs and outputs).
uint64_t convReferenceCycles(const ConvGeometry& geo, const timing::CpuCostModel& cpu);

// MACs over the MAC slots of the arrays while they compute: layer MACs / (R x C x the cores'
// compute cycles summed), from counters measured or predicted.
double arrayUtilization(const Plan& plan, const std::vector<timing::CoreCounts>& cores);
double predictedUtilization(const Plan& plan, const timing::PlatformTiming& t);

}  // namespace hilsim::planner
