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
  // Copies of multipliers and shifts in persistent memory, which the reference kernel's call
  // points at (set by the PrepareContext overload of prepareFullyConnected; else nullptr).
  const int32_t* persistent_multipliers = nullptr;
  const int32_t* persistent_shifts = nullptr;
  // With the optimized library (PrepareContext::kernelLibrary) and a constant filter: the bias
  // with the input offset folded in, n values in persistent memory, which the optimized kernel's
  // call points at; else nullptr and the reference kernel runs.
  const int32_t* folded_bias = nullptr;

  // float32 path
  float act_min_f = 0.0f;
  float act_max_f = 0.0f;
  // Per input element (k of them): the outputs whose weight is zero, for zeroOperandMacs.
  std::vector<uint32_t> zero_weights_per_input;
};

// Validates a FULLY_CONNECTED node and computes its OpData. Throws ModelError.
FullyConnectedParams prepareFullyConnected(const Node& node);
// The same, with the int8 multipliers and shifts also copied into persistent memory, as the
// kernels that run the reference arithmetic need them.
FullyConnectedParams prepareFullyConnected(PrepareContext& ctx, const Node& node);

// CPU work of one invocation, for the cost model.
OpWork fullyConnectedWork(const FullyConnectedParams& params);
// Float32: the MACs of one invocation whose input or weight is zero, which software floating
// point multiplies and adds faster (OpWork::zero_operand_macs).
uint64_t zeroOperandMacs(const FullyConnectedParams& params);

// The CPU kernel on the layer's tensors, through its kernel call (rt/kernels/kernel_call.h): on
// the host or on the CpuTarget. The optimized kernel (hilsim/kernels/optimized) where prepare
// folded a bias, else the reference kernel (hilsim/kernels/fully_connected.h). A CpuTarget needs
// params from the PrepareContext overload of prepareFullyConnected.
void runFullyConnectedReference(InvokeContext& ctx, const FullyConnectedParams& params);

// Output range of a fused activation on an int8 tensor with the given quantization.
void int8ActivationRange(tflite::ActivationFunctionType activation, float scale, int32_t zero_point,
                         int32_t* act_min, int32_t* act_max);
void floatActivationRange(tflite::ActivationFunctionType activation, float* act_min,
                          float* act_max);

}  // namespace hilsim::rt
