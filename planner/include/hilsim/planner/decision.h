#pragma once
// Whether a layer runs on the accelerator, and why: one decision shared by `annotate` (policies)
// and the accelerated kernel (run modes), returned as a typed reason with its figures; the text
// the report shows is made from it in one place.

#include <cstdint>
#include <optional>
#include <string>

#include "hilsim/planner/types.h"

namespace hilsim::planner {

// How `annotate` decides: by the predicted costs, or offload every layer / none.
enum class Policy : uint8_t { kAuto, kAll, kNone };
const char* policyName(Policy policy);

// What the auto policy minimizes: the predicted cycles, the predicted energy, or the product of
// the two (energy-delay product).
enum class Objective : uint8_t { kCycles, kEnergy, kEdp };
const char* objectiveName(Objective objective);  // cycles | energy | edp
// nullopt for a name that is none of objectiveName's.
std::optional<Objective> parseObjective(const std::string& name);

// A planned layer's predicted costs on both paths. The energies (uJ) are set when the objective
// needs them (energy, edp).
struct PathCosts {
  uint64_t accel_cycles = 0;
  uint64_t ref_cycles = 0;
  std::optional<double> accel_uj;
  std::optional<double> ref_uj;
};
// Whether the accelerated path costs less under `objective`: accel cycles < ref cycles, accel
// uJ < ref uJ, or accel uJ x cycles < ref uJ x cycles. Throws std::invalid_argument when the
// objective needs energies the costs lack.
bool offloadPays(Objective objective, const PathCosts& costs);

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
  // What the decision minimized; under energy and edp the predicted energies of both paths, in
  // uJ, which the reason then states beside the cycles.
  Objective objective = Objective::kCycles;
  std::optional<double> predicted_accel_uj;
  std::optional<double> ref_uj;
};

// The decision of a policy for a planned layer with these predictions.
OffloadDecision decideByPolicy(Policy policy, uint64_t predicted_accel_cycles, uint64_t ref_cycles);
// The same under `objective` (the auto policy offloads when offloadPays).
OffloadDecision decideByPolicy(Policy policy, Objective objective, const PathCosts& costs);
// The decision of a run mode for a planned layer; `annotated_offload` and `annotated_reason` are
// the annotation's decision when `origin` is kAnnotated.
OffloadDecision decideForMode(OffloadMode mode, PlanOrigin origin, bool annotated_offload,
                              const std::string& annotated_reason, uint64_t predicted_accel_cycles,
                              uint64_t ref_cycles);
// The same where a layer planned at run time is decided under `objective`.
OffloadDecision decideForMode(OffloadMode mode, PlanOrigin origin, bool annotated_offload,
                              const std::string& annotated_reason, Objective objective,
                              const PathCosts& costs);

// What the report says, the decision first: "offload (pays: accel 900 < ref 1200 cycles), as
// annotated", "keep on CPU (below break-even: ...), re-planned for this hardware", "mode accel
// (annotated)", "mode compare runs both paths; auto would offload (pays: ...), as annotated".
std::string reasonText(const OffloadDecision& decision);
// The same without the plan's origin, as an annotation stores it.
std::string policyReasonText(const OffloadDecision& decision);

}  // namespace hilsim::planner
