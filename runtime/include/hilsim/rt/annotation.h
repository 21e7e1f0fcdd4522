#pragma once
// Where a layer's annotation is found, decoded and checked: the operator's custom_options, else
// its entry in the model's metadata carrier. The accelerated kernel, `annotate` and `inspect` all
// read annotations through here.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hilsim/planner/plan_codec.h"
#include "hilsim/rt/kernel.h"
#include "hilsim/rt/model.h"

namespace hilsim::rt {

// The plans of a model's metadata carrier, by operator index of the first subgraph.
class MetadataPlans {
 public:
  // Reads the carrier of `model` (none: no plans). Throws ModelError if it is corrupt.
  static MetadataPlans read(const Model& model);
  // The same, but a corrupt carrier is kept as error() (for showing every operator's status).
  static MetadataPlans readKeepingError(const Model& model);
  // The encoded plan of operator `index`, or nullptr.
  const std::vector<uint8_t>* find(int index) const;
  // Why the carrier could not be read, or empty.
  const std::string& error() const { return error_; }

 private:
  std::map<int, std::vector<uint8_t>> plans_;
  std::string error_;
};

// The annotation `node` carries, decoded and checked against the layer `shape`; nullopt if it
// carries none. Throws ModelError for foreign custom_options, a corrupt plan, a plan that does not
// match the layer, or a corrupt metadata carrier.
std::optional<planner::AnnotatedPlan> findAnnotation(const Node& node,
                                                     const MetadataPlans& metadata,
                                                     const planner::LayerShape& layer);
// A FULLY_CONNECTED layer of `shape`.
std::optional<planner::AnnotatedPlan> findAnnotation(const Node& node,
                                                     const MetadataPlans& metadata,
                                                     const GemmShape& shape);

}  // namespace hilsim::rt
