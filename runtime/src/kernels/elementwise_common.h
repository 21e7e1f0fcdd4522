#pragma once
// Prepare-time helpers shared by the element-wise reference kernels (ADD, SUB, MUL, MAXIMUM,
// MINIMUM, HARD_SWISH): broadcast planning, quantization checks and TensorFlow Lite Micro's
// activation ranges (also MAX_POOL_2D's), rescaling parameters and int32 rules. Every check throws
// hilsim::ModelError.

#include <cstdint>

#include "hilsim/kernels/broadcast.h"
#include "hilsim/kernels/elementwise.h"
#include "hilsim/rt/kernel.h"
#include "hilsim/rt/quant.h"

namespace hilsim::rt {

// Checks input 1, input 2 and the output have one type.
void expectSameTypes(const Tensor& in1, const Tensor& in2, const Tensor& out);

// Plans out = op(in1, in2): the inputs must broadcast (each dimension equal or 1, at most
// kernels::kMaxBroadcastRank dimensions) and the output must have the broadcast shape (leading
// ones aside).
kernels::BroadcastLoops planBinaryBroadcast(const Tensor& in1, const Tensor& in2,
                                            const Tensor& out);

// Checks `t` is quantized per tensor with a positive scale and a zero point its type can hold.
void expectPerTensorQuantized(const Tensor& t, const char* role);
// The same for tensors whose quantization is optional: checked only if present.
void expectValidQuantizationIfPresent(const Tensor& t, const char* role);

// The fused activation, checked to be one of the schema's values. TFLite Micro treats TANH and
// SIGN_BIT as none on these kernels; so does hilsim.
tflite::ActivationFunctionType checkedActivation(tflite::ActivationFunctionType activation);

// TFLite's CalculateActivationRangeQuantized for an int8 or int16 output tensor. A bound whose
// quantized value does not fit in int32 (an output scale below about 3e-9) is an error.
void quantizedActivationRange(tflite::ActivationFunctionType activation, const Tensor& out,
                              int32_t* act_min, int32_t* act_max);
// TFLite's CalculateActivationRange for float32 and int32.
kernels::FloatActivation floatActivation(tflite::ActivationFunctionType activation);
kernels::Int32Activation int32Activation(tflite::ActivationFunctionType activation);

// How the scales of ADD and SUB are combined: TFLite Micro's ADD forms twice the larger input
// scale and the three ratios in double, its SUB in float32 (widened afterwards).
enum class AddScaleMath : uint8_t { kDouble, kFloat };

// QuantizedAddParams of an int8/int16 ADD or SUB (inputs and output checked quantized).
kernels::QuantizedAddParams prepareQuantizedAdd(const Tensor& in1, const Tensor& in2,
                                                const Tensor& out,
                                                tflite::ActivationFunctionType activation,
                                                AddScaleMath math);

// What an operator's int32 path accepts, as TFLite Micro's prepare checks it: which tensors must
// be unquantized (TFLite Micro counts a tensor as quantized only when its quantization has both
// a scale and a zero point), and whether the fused activation clamps the result (else the full
// int32 range).
struct Int32Rules {
  bool inputs_unquantized = false;
  bool output_unquantized = false;
  bool fused_activation = true;
};

// The int32 activation range of an operator with `rules`, after checking its tensors.
kernels::Int32Activation prepareInt32(const Int32Rules& rules, const Tensor& in1, const Tensor& in2,
                                      const Tensor& out, tflite::ActivationFunctionType activation);

}  // namespace hilsim::rt
