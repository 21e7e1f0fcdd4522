#pragma once
// The planner's view of an accelerated layer: the job a plan makes (for the timing model's
// timeline, timing/job_timeline.h), the split of an invocation's cycles into fixed and variable
// parts (applied alike to the estimate and to what the simulator measured), the prediction, and
// the break-even size of a shape family.

#include <cstdint>
#include <optional>
#include <vector>

#include "hilsim/planner/chunk_plan.h"
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
};

Prediction predictAccelerated(const Plan& plan, const timing::PlatformTiming& t);

// The MAC count from which layers of this shape's family (same rows, same k:n ratio) are
// predicted to run faster accelerated than on the CPU's reference kernel; nullopt if no member
// up to 2^40 MACs pays (or fits).
std::optional<uint64_t> breakEvenMacs(const GemmShape& shape, const Hardware& hw,
                                      const timing::PlatformTiming& t,
                                      const timing::CpuCostModel& cpu);

// Convolutions: the family keeps the geometry and the in:out channel ratio (depthwise: the depth
// multiplier) and scales the output channels.
std::optional<uint64_t> convBreakEvenMacs(const ConvGeometry& geo, const Hardware& hw,
                                          const timing::PlatformTiming& t,
                                          const timing::CpuCostModel& cpu);

// Cycles of the reference CONV_2D or DEPTHWISE_CONV_2D kernel for a convolution (the CPU cost
// model on its MACs and outputs).
uint64_t convReferenceCycles(const ConvGeometry& geo, const timing::CpuCostModel& cpu);

// MACs over the MAC slots of the arrays while they compute: layer MACs / (R x C x the cores'
// compute cycles summed), from counters measured or predicted.
double arrayUtilization(const Plan& plan, const std::vector<timing::CoreCounts>& cores);
double predictedUtilization(const Plan& plan, const timing::PlatformTiming& t);

}  // namespace hilsim::planner
