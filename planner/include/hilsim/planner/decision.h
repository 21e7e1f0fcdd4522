#pragma once
// Whether a layer runs on the accelerator, and why: one decision shared by `annotate` (policies)
// and the accelerated kernel (run modes), returned as a typed reason with its figures; the text
// the report shows is made from it in one place.

#include <cstdint>
#include <optional>
#include <string>

#include "hilsim/planner/types.h"

namespace hilsim::planner {

// How `annotate` decides: by the predicted cycles, or offload every layer / none.
enum class Policy : uint8_t { kAuto, kAll, kNone };
const char* policyName(Policy policy);

// How a run places layers (`hilsim run --mode`; `ref` never reaches the accelerated kernel).
enum class OffloadMode : uint8_t {
  kAccel,    // offload every int8 layer that fits the hardware
  kAuto,     // offload where the plan's decision says it pays
  kCompare,  // run both ways, report both, check the outputs agree
};

// Where the plan a run uses comes from.
enum class PlanOrigin : uint8_t {
  kAnnotated,     // the model's annotation, made for this hardware
  kReplanned,     // the model's annotation was made for other hardware
  kNotAnnotated,  // the model carries none
};
const char* originName(PlanOrigin origin);

struct OffloadDecision {
  bool offload = false;
  PathReason reason = PathReason::kReferenceKernel;
  PlanOrigin origin = PlanOrigin::kNotAnnotated;
  uint64_t predicted_accel_cycles = 0;
  uint64_t ref_cycles = 0;
  // kDoesNotFit, kNotMapped: why; kAnnotated: the annotation's own reason; kJobFailed: the
  // failure; kModeCompare: the reason auto mode would have given.
  std::string detail;
  // Convolutions: the predicted share of the arrays' MAC slots doing useful work while they
  // compute (plan/predict.h), shown with the cycles.
  std::optional<double> utilization;
  // Bytes the layer's first invocation uploads (weights, parameters, descriptors) on top of
  // predicted_accel_cycles, which is an invocation with them already in device memory; 0: not
  // said.
  uint64_t upload_bytes = 0;
};

// The decision of a policy for a planned layer with these predictions.
OffloadDecision decideByPolicy(Policy policy, uint64_t predicted_accel_cycles, uint64_t ref_cycles);
// The decision of a run mode for a planned layer; `annotated_offload` and `annotated_reason` are
// the annotation's decision when `origin` is kAnnotated.
OffloadDecision decideForMode(OffloadMode mode, PlanOrigin origin, bool annotated_offload,
                              const std::string& annotated_reason, uint64_t predicted_accel_cycles,
                              uint64_t ref_cycles);

// What the report says, the decision first: "offload (pays: accel 900 < ref 1200 cycles), as
// annotated", "keep on CPU (below break-even: ...), re-planned for this hardware", "mode accel
// (annotated)", "mode compare runs both paths; auto would offload (pays: ...), as annotated".
std::string reasonText(const OffloadDecision& decision);
// The same without the plan's origin, as an annotation stores it.
std::string policyReasonText(const OffloadDecision& decision);

}  // namespace hilsim::planner
