#include "hilsim/rt/annotation.h"

#include "hilsim/errors.h"

namespace hilsim::rt {

MetadataPlans MetadataPlans::read(const Model& model) {
  MetadataPlans out = readKeepingError(model);
  if (!out.error_.empty()) throw ModelError(out.error_);
  return out;
}

MetadataPlans MetadataPlans::readKeepingError(const Model& model) {
  MetadataPlans out;
  const tflite::Model& m = model.fb();
  if (!m.metadata()) return out;
  for (const tflite::Metadata* md : *m.metadata()) {
    if (!md->name() || md->name()->str() != planner::kMetadataName) continue;
    const ConstBytes data = model.bufferData(md->buffer());
    try {
      for (planner::PlanEntry& e : planner::decodePlanSet(data.data, data.size))
        if (e.subgraph == 0) out.plans_[static_cast<int>(e.operator_index)] = std::move(e.plan);
    } catch (const ModelError& e) {
      out.plans_.clear();
      out.error_ = e.what();
    }
  }
  return out;
}

const std::vector<uint8_t>* MetadataPlans::find(int index) const {
  const auto it = plans_.find(index);
  return it == plans_.end() ? nullptr : &it->second;
}

std::optional<planner::AnnotatedPlan> findAnnotation(const Node& node,
                                                     const MetadataPlans& metadata,
                                                     const GemmShape& shape) {
  return findAnnotation(node, metadata,
                        planner::LayerShape{planner::PlanKind::kFullyConnected, shape, {}});
}

std::optional<planner::AnnotatedPlan> findAnnotation(const Node& node,
                                                     const MetadataPlans& metadata,
                                                     const planner::LayerShape& layer) {
  std::optional<planner::AnnotatedPlan> annotated;
  const auto* custom = node.op_fb->custom_options();
  if (custom && custom->size() > 0) {
    if (!planner::hasPlanIdentifier(custom->data(), custom->size()))
      throw ModelError("custom_options (" + std::to_string(custom->size()) +
                       " bytes) are not a hilsim chunk plan");
    annotated = planner::decodePlan(custom->data(), custom->size());
  } else if (const std::vector<uint8_t>* md = metadata.find(node.index)) {
    annotated = planner::decodePlan(md->data(), md->size());
  } else if (!metadata.error().empty()) {
    throw ModelError(metadata.error());
  }
  if (annotated) {
    const std::string problem = planner::validatePlan(annotated->plan, layer);
    if (!problem.empty()) throw ModelError("chunk plan is inconsistent: " + problem);
  }
  return annotated;
}

}  // namespace hilsim::rt
