#include "hilsim/rt/op_resolver.h"

namespace hilsim::rt {

void OpResolver::add(tflite::BuiltinOperator op, KernelFactory factory) {
  factories_[op] = std::move(factory);
}

const KernelFactory* OpResolver::find(tflite::BuiltinOperator op) const {
  const auto it = factories_.find(op);
  return it == factories_.end() ? nullptr : &it->second;
}

std::vector<UnsupportedOperator> unsupportedOperators(const Model& model,
                                                      const OpResolver& resolver) {
  std::vector<UnsupportedOperator> out;
  const tflite::SubGraph& sg = model.mainSubgraph();
  if (!sg.operators()) return out;
  for (flatbuffers::uoffset_t i = 0; i < sg.operators()->size(); ++i) {
    const tflite::Operator& op = *sg.operators()->Get(i);
    const tflite::BuiltinOperator code = model.opCode(op);
    if (code == tflite::BuiltinOperator::CUSTOM || !resolver.find(code))
      out.push_back({static_cast<int>(i), model.operatorLabel(op)});
  }
  return out;
}

}  // namespace hilsim::rt
