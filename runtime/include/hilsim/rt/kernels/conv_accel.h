#pragma once
// The accelerated CONV_2D and DEPTHWISE_CONV_2D kernels, registered in the resolver in place of
// the reference ones like the accelerated FULLY_CONNECTED kernel (fully_connected_accel.h): the
// layer's chunk plan (plan/conv_plan.h) or one made now, the decision, then one job per
// invocation through the driver (docs/CONVOLUTION.md). Prepare validates through the reference
// kernel, which also computes the layer when it stays on the CPU (grouped convolutions, plans
// that do not fit or do not pay) and in compare mode.

#include <memory>

#include "hilsim/rt/kernels/fully_connected_accel.h"

namespace hilsim::rt {

std::unique_ptr<Kernel> makeConv2DAccel(AccelContext& context);
std::unique_ptr<Kernel> makeDepthwiseConv2DAccel(AccelContext& context);

}  // namespace hilsim::rt
