#pragma once
// Per-operator observer injected into the interpreter.

#include "hilsim/rt/layer_record.h"

namespace hilsim::rt {

class Profiler {
 public:
  virtual ~Profiler() = default;
  // Called before a node runs (host clock at the layer's start).
  virtual void beginLayer(uint32_t invocation, int node_index) {}
  // Called after a node ran, with its complete record.
  virtual void endLayer(const LayerRecord& record) = 0;
};

}  // namespace hilsim::rt
