#pragma once
// Single-operator CONV_2D and DEPTHWISE_CONV_2D models with pseudo-random int8 weights, biases and
// scales, built with OpModel (op_model.h), for the convolution tests: every case of geometry,
// padding, stride, dilation, quantization and fused activation the accelerator maps.

#include <cstdint>
#include <string>
#include <vector>

#include "hilsim/schema/tflite_generated.h"

namespace hilsim::test {

struct ConvCase {
  std::string name;
  bool depthwise = false;
  int32_t batches = 1, in_h = 8, in_w = 8, in_c = 4;
  int32_t out_c = 8;  // depthwise: in_c x depth_multiplier
  int32_t filter_h = 3, filter_w = 3;
  int32_t stride_h = 1, stride_w = 1;
  int32_t dilation_h = 1, dilation_w = 1;
  tflite::Padding padding = tflite::Padding::SAME;
  tflite::ActivationFunctionType activation = tflite::ActivationFunctionType::NONE;
  bool per_channel = true;
  bool bias = true;
  int32_t groups = 1;  // CONV_2D only: filter depth in_c / groups
  int64_t input_zero_point = -3;
  int64_t output_zero_point = 5;
  uint64_t seed = 1;

  int32_t depthMultiplier() const { return depthwise ? out_c / in_c : 0; }
  // Output rows and columns as TensorFlow Lite's padding gives them.
  int32_t outH() const;
  int32_t outW() const;
  size_t inputBytes() const { return size_t(batches) * in_h * in_w * in_c; }
};

// The .tflite bytes of the case: input 0 and output 0 int8 NHWC, filter and bias constant.
std::vector<uint8_t> buildConvModel(const ConvCase& c);

// Pseudo-random input bytes for the case.
std::vector<uint8_t> convInput(const ConvCase& c, uint64_t seed);

}  // namespace hilsim::test
