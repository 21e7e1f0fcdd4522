#include "hilsim/planner/decision.h"

#include <cstdio>

namespace hilsim::planner {
namespace {

std::string cyclesText(const OffloadDecision& d) {
  const uint64_t accel = d.predicted_accel_cycles, ref = d.ref_cycles;
  std::string text = "accel " + std::to_string(accel) + (accel < ref ? " < " : " >= ") + "ref " +
                     std::to_string(ref) + " cycles";
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
  OffloadDecision d;
  d.predicted_accel_cycles = predicted_accel_cycles;
  d.ref_cycles = ref_cycles;
  switch (policy) {
    case Policy::kAuto:
      d.offload = predicted_accel_cycles < ref_cycles;
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
                                          annotated_reason, predicted_accel_cycles, ref_cycles));
      break;
    case OffloadMode::kAuto:
      if (origin == PlanOrigin::kAnnotated) {
        d.offload = annotated_offload;
        d.reason = PathReason::kAnnotated;
        d.detail = annotated_reason;
      } else {
        d = decideByPolicy(Policy::kAuto, predicted_accel_cycles, ref_cycles);
      }
      break;
  }
  d.origin = origin;
  d.predicted_accel_cycles = predicted_accel_cycles;
  d.ref_cycles = ref_cycles;
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
