#include "hilsim/rt/op_resolver.h"

namespace hilsim::rt {

void OpResolver::add(tflite::BuiltinOperator op, KernelFactory factory) {
  factories_[op] = std::move(factory);
}

const KernelFactory* OpResolver::find(tflite::BuiltinOperator op) const {
  const auto it = factories_.find(op);
  return it == factories_.end() ? nullptr : &it->second;
}

}  // namespace hilsim::rt
