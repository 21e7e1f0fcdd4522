#include "hilsim/planner/decision.h"

#include <cstdio>
#include <stdexcept>

namespace hilsim::planner {
namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

// The comparison the objective made, then the other predictions: "accel 900 < ref 1200 cycles"
// (cycles), "accel 0.51 < ref 0.93 uJ; accel 900 vs ref 1200 cycles" (energy), "accel 459 < ref
// 1116 uJ x cycles; accel 0.51 vs ref 0.93 uJ, accel 900 vs ref 1200 cycles" (edp).
std::string comparisonText(const OffloadDecision& d) {
  const uint64_t accel = d.predicted_accel_cycles, ref = d.ref_cycles;
  const bool pays = offloadPays(d.objective, {accel, ref, d.predicted_accel_uj, d.ref_uj});
  const char* relation = pays ? " < " : " >= ";
  if (d.objective == Objective::kCycles)
    return "accel " + std::to_string(accel) + relation + "ref " + std::to_string(ref) + " cycles";
  const double accel_uj = *d.predicted_accel_uj, ref_uj = *d.ref_uj;
  const std::string cycles =
      "accel " + std::to_string(accel) + " vs ref " + std::to_string(ref) + " cycles";
  if (d.objective == Objective::kEnergy)
    return "by energy: accel " + number(accel_uj) + relation + "ref " + number(ref_uj) + " uJ; " +
           cycles;
  return "by energy x time: accel " + number(accel_uj * double(accel)) + relation + "ref " +
         number(ref_uj * double(ref)) + " uJ x cycles; accel " + number(accel_uj) + " vs ref " +
         number(ref_uj) + " uJ, " + cycles;
}

std::string cyclesText(const OffloadDecision& d) {
  std::string text = comparisonText(d);
  if (d.upload_bytes)
    text +=
        " per invocation with the weights in device memory; the first invocation also "
        "uploads " +
        std::to_string(d.upload_bytes) + " bytes";
  if (d.utilization) {
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.1f%%", 100.0 * *d.utilization);
    text += std::string("; array utilization ") + pct;
  }
  return text;
}

}  // namespace

const char* policyName(Policy policy) {
  switch (policy) {
    case Policy::kAuto:
      return "auto";
    case Policy::kAll:
      return "all";
    case Policy::kNone:
      return "none";
  }
  return "?";
}

const char* objectiveName(Objective objective) {
  switch (objective) {
    case Objective::kCycles:
      return "cycles";
    case Objective::kEnergy:
      return "energy";
    case Objective::kEdp:
      return "edp";
  }
  return "?";
}

std::optional<Objective> parseObjective(const std::string& name) {
  for (Objective o : {Objective::kCycles, Objective::kEnergy, Objective::kEdp})
    if (name == objectiveName(o)) return o;
  return std::nullopt;
}

bool offloadPays(Objective objective, const PathCosts& c) {
  if (objective == Objective::kCycles) return c.accel_cycles < c.ref_cycles;
  if (!c.accel_uj || !c.ref_uj)
    throw std::invalid_argument(std::string("objective ") + objectiveName(objective) +
                                " needs the predicted energy of both paths");
  if (objective == Objective::kEnergy) return *c.accel_uj < *c.ref_uj;
  return *c.accel_uj * double(c.accel_cycles) < *c.ref_uj * double(c.ref_cycles);
}

const char* originName(PlanOrigin origin) {
  switch (origin) {
    case PlanOrigin::kAnnotated:
      return "annotated";
    case PlanOrigin::kReplanned:
      return "re-planned";
    case PlanOrigin::kNotAnnotated:
      return "not annotated";
  }
  return "?";
}

OffloadDecision decideByPolicy(Policy policy, uint64_t predicted_accel_cycles,
                               uint64_t ref_cycles) {
  return decideByPolicy(policy, Objective::kCycles, {predicted_accel_cycles, ref_cycles, {}, {}});
}

OffloadDecision decideByPolicy(Policy policy, Objective objective, const PathCosts& costs) {
  OffloadDecision d;
  d.predicted_accel_cycles = costs.accel_cycles;
  d.ref_cycles = costs.ref_cycles;
  d.objective = objective;
  if (objective != Objective::kCycles) {
    d.predicted_accel_uj = costs.accel_uj;
    d.ref_uj = costs.ref_uj;
  }
  switch (policy) {
    case Policy::kAuto:
      d.offload = offloadPays(objective, costs);
      d.reason = d.offload ? PathReason::kOffloadPays : PathReason::kBelowBreakEven;
      break;
    case Policy::kAll:
      d.offload = true;
      d.reason = PathReason::kPolicyAll;
      break;
    case Policy::kNone:
      d.offload = false;
      d.reason = PathReason::kPolicyNone;
      break;
  }
  return d;
}

OffloadDecision decideForMode(OffloadMode mode, PlanOrigin origin, bool annotated_offload,
                              const std::string& annotated_reason, uint64_t predicted_accel_cycles,
                              uint64_t ref_cycles) {
  return decideForMode(mode, origin, annotated_offload, annotated_reason, Objective::kCycles,
                       {predicted_accel_cycles, ref_cycles, {}, {}});
}

OffloadDecision decideForMode(OffloadMode mode, PlanOrigin origin, bool annotated_offload,
                              const std::string& annotated_reason, Objective objective,
                              const PathCosts& costs) {
  const uint64_t predicted_accel_cycles = costs.accel_cycles, ref_cycles = costs.ref_cycles;
  OffloadDecision d;
  switch (mode) {
    case OffloadMode::kAccel:
      d.offload = true;
      d.reason = PathReason::kModeAccel;
      break;
    case OffloadMode::kCompare:
      // Both paths run; the reason keeps what auto would have decided.
      d.offload = true;
      d.reason = PathReason::kModeCompare;
      d.detail = reasonText(decideForMode(OffloadMode::kAuto, origin, annotated_offload,
                                          annotated_reason, objective, costs));
      break;
    case OffloadMode::kAuto:
      if (origin == PlanOrigin::kAnnotated) {
        d.offload = annotated_offload;
        d.reason = PathReason::kAnnotated;
        d.detail = annotated_reason;
      } else {
        d = decideByPolicy(Policy::kAuto, objective, costs);
      }
      break;
  }
  d.origin = origin;
  d.predicted_accel_cycles = predicted_accel_cycles;
  d.ref_cycles = ref_cycles;
  d.objective = objective;
  if (objective != Objective::kCycles) {
    d.predicted_accel_uj = costs.accel_uj;
    d.ref_uj = costs.ref_uj;
  }
  return d;
}

std::string policyReasonText(const OffloadDecision& d) {
  const std::string cycles = cyclesText(d);
  switch (d.reason) {
    case PathReason::kOffloadPays:
      return "offload (pays: " + cycles + ")";
    case PathReason::kBelowBreakEven:
      return "keep on CPU (below break-even: " + cycles + ")";
    case PathReason::kPolicyAll:
      return "offload (policy all: " + cycles + ")";
    case PathReason::kPolicyNone:
      return "keep on CPU (policy none: " + cycles + ")";
    default:
      return reasonText(d);
  }
}

std::string reasonText(const OffloadDecision& d) {
  switch (d.reason) {
    case PathReason::kReferenceKernel:
      return "reference kernel";
    case PathReason::kFloatLayer:
      return "float32 layer: the accelerator computes int8";
    case PathReason::kDoesNotFit:
      return "plan does not fit this hardware: " + d.detail;
    case PathReason::kModeAccel:
      return std::string("mode accel (") + originName(d.origin) + ")";
    case PathReason::kModeCompare:
      return "mode compare runs both paths; auto would " + d.detail;
    case PathReason::kAnnotated:
      return d.detail + ", as annotated";
    case PathReason::kJobFailed:
      return "accelerator job failed (" + d.detail + "); computed on the CPU";
    case PathReason::kNotMapped:
      return "not mapped to the accelerator: " + d.detail;
    case PathReason::kNoDeviceMemory:
      return "does not fit device memory: " + d.detail;
    case PathReason::kOffloadPays:
    case PathReason::kBelowBreakEven:
    case PathReason::kPolicyAll:
    case PathReason::kPolicyNone:
      return policyReasonText(d) + ", " +
             (d.origin == PlanOrigin::kReplanned ? "re-planned for this hardware"
                                                 : "planned at run time (not annotated)");
  }
  return "?";
}

}  // namespace hilsim::planner
