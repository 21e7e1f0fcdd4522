#include "hilsim/rt/kernels/reference.h"
#include "hilsim/rt/op_resolver.h"

namespace hilsim::rt {

OpResolver referenceOpResolver() {
  using Op = tflite::BuiltinOperator;
  OpResolver resolver;
  resolver.add(Op::FULLY_CONNECTED, makeFullyConnectedRef);
  return resolver;
}

}  // namespace hilsim::rt
