#pragma once
// FULLY_CONNECTED OpData, computed once in prepare and shared by the reference and the
// accelerated kernels, so both validate and quantize identically.

#include <cstdint>
#include <vector>

#include "hilsim/rt/kernel.h"

namespace hilsim::rt {

struct FullyConnectedParams {
  GemmShape shape;
  TensorType type = TensorType::INT8;  // INT8 (int8 weights, int32 bias) or FLOAT32
  tflite::ActivationFunctionType activation = tflite::ActivationFunctionType::NONE;
  const Tensor* input = nullptr;
  const Tensor* filter = nullptr;  // [n, k] row major
  const Tensor* bias = nullptr;    // [n] or nullptr
  Tensor* output = nullptr;

  // int8 path
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  int32_t act_min = -128;
  int32_t act_max = 127;
  bool per_channel = false;
  std::vector<int32_t> multipliers;  // one per output feature (per-tensor: all equal)
  std::vector<int32_t> shifts;

  // float32 path
  float act_min_f = 0.0f;
  float act_max_f = 0.0f;
};

// Validates a FULLY_CONNECTED node and computes its OpData. Throws ModelError.
FullyConnectedParams prepareFullyConnected(const Node& node);

// CPU work of one invocation, for the cost model.
OpWork fullyConnectedWork(const FullyConnectedParams& params);

// The reference kernel (hilsim/kernels/fully_connected.h) on the layer's tensors.
void runFullyConnectedReference(const FullyConnectedParams& params);

// Output range of a fused activation on an int8 tensor with the given quantization.
void int8ActivationRange(tflite::ActivationFunctionType activation, float scale, int32_t zero_point,
                         int32_t* act_min, int32_t* act_max);
void floatActivationRange(tflite::ActivationFunctionType activation, float* act_min,
                          float* act_max);

}  // namespace hilsim::rt
