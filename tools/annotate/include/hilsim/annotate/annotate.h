#pragma once
// Writing and removing hilsim's chunk plans in .tflite files. The model keeps its operators,
// options, tensors and buffers; only operator custom_options (the default carrier) or one
// Model.metadata entry ("hilsim.chunk_plans") change.

#include <cstdint>
#include <string>
#include <vector>

#include "hilsim/config/hardware_config.h"
#include "hilsim/planner/decision.h"
#include "hilsim/rt/model.h"

namespace hilsim::annotate {

enum class Carrier { kCustomOptions, kMetadata };
using planner::Policy;

struct LayerAnnotation {
  int op_index = -1;
  std::string op;       // builtin name
  std::string summary;  // the plan and decision, or why the layer was left alone
  bool annotated = false;
  bool offload = false;
};

struct AnnotateResult {
  std::vector<uint8_t> model;
  std::vector<LayerAnnotation> layers;
};

// Plans every int8 FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D layer of `model` for `config`
// (grouped convolutions are left alone, with the reason) and writes the plans with the given
// carrier; earlier hilsim annotations are replaced, so annotating twice is idempotent. The auto
// policy offloads where the accelerated path costs less under `objective` (predicted cycles, or
// the predicted energy of config.energy, or their product); the plans store the objective.
AnnotateResult annotateModel(const rt::Model& model, const config::HardwareConfig& config,
                             Carrier carrier, Policy policy,
                             planner::Objective objective = planner::Objective::kCycles);

// Removes every hilsim annotation (operator custom_options holding a plan, the metadata entry).
std::vector<uint8_t> stripModel(const rt::Model& model);

// The plan annotating operator `op_index` of the first subgraph, decoded and validated against
// the layer: "" if none, else a one-line description or "invalid: <reason>".
struct AnnotationStatus {
  bool present = false;
  bool valid = false;
  std::string text;
};
std::vector<AnnotationStatus> readAnnotations(rt::Model& model);

}  // namespace hilsim::annotate
