#pragma once
// The integer average of a pooling window (hilsim/kernels/pooling.h) under the runtime's
// namespace.

#include "hilsim/kernels/pooling.h"

namespace hilsim::rt {

using kernels::roundedAverage;

}  // namespace hilsim::rt
