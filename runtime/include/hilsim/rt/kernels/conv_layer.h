#pragma once
// A CONV_2D or DEPTHWISE_CONV_2D node as the accelerator and the report see it: its NHWC
// geometry with TensorFlow Lite's padding (conv_common.h computes it, as the reference kernels'
// prepare does), its groups, and the report's shape.

#include <optional>

#include "hilsim/rt/kernel.h"
#include "hilsim/timing/conv_schedule.h"

namespace hilsim::rt {

struct ConvLayer {
  timing::ConvGeometry geometry;
  int32_t groups = 1;  // CONV_2D: input channels / filter depth (the accelerator maps 1)
  ConvShape shape;
};

// The convolution `node` is, or nullopt if it is no CONV_2D or DEPTHWISE_CONV_2D. Throws
// ModelError if it is malformed (the reference kernel's prepare says the same).
std::optional<ConvLayer> describeConvLayer(const Node& node);

}  // namespace hilsim::rt
