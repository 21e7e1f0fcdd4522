#pragma once
// Maps builtin operators to kernel factories. Registering an operator again replaces its kernel,
// which is how the accelerated FULLY_CONNECTED kernel takes the reference one's place.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "hilsim/rt/kernel.h"
#include "hilsim/rt/model.h"

namespace hilsim::rt {

using KernelFactory = std::function<std::unique_ptr<Kernel>()>;

class OpResolver {
 public:
  void add(tflite::BuiltinOperator op, KernelFactory factory);
  // The factory for `op`, or nullptr if none is registered.
  const KernelFactory* find(tflite::BuiltinOperator op) const;

 private:
  std::map<tflite::BuiltinOperator, KernelFactory> factories_;
};

struct UnsupportedOperator {
  int index = -1;
  std::string label;  // Model::operatorLabel
};

// The operators of the model's main subgraph that `resolver` has no kernel for, in order.
std::vector<UnsupportedOperator> unsupportedOperators(const Model& model,
                                                      const OpResolver& resolver);

// A resolver with every reference kernel hilsim has.
OpResolver referenceOpResolver();

}  // namespace hilsim::rt
