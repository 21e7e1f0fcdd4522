#pragma once
// Synthetic single-layer int8 CONV_2D and DEPTHWISE_CONV_2D models (NHWC, SAME or VALID padding,
// per-channel weights), laid out like the TFLite converter's output, for `crossover`'s
// convolution families.

#include <cstdint>
#include <string>
#include <vector>

namespace hilsim::modelgen {

struct ConvSpec {
  uint32_t batch = 1;
  uint32_t in_h = 8, in_w = 8, in_c = 8;
  uint32_t out_c = 8;  // depthwise: in_c x depth_multiplier
  uint32_t filter_h = 3, filter_w = 3;
  uint32_t stride = 1;
  bool same_padding = true;
  bool depthwise = false;
  uint64_t seed = 1;
};

// The .tflite bytes of the layer. Deterministic for a given spec. Throws UsageError if the spec
// is empty or does not fit (VALID padding with a window larger than the input).
std::vector<uint8_t> generateConv(const ConvSpec& spec);

// E.g. "conv 1x16x16x8 3x3 stride 1 SAME -> 8 seed 1".
std::string describe(const ConvSpec& spec);

}  // namespace hilsim::modelgen
