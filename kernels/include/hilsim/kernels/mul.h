#pragma once
// MUL, TensorFlow Lite Micro's arithmetic (reference/mul.h, integer_ops/mul.h) over broadcast
// operands (hilsim/kernels/broadcast.h): int8 and int16 through QuantizedMulParams (one
// double-rounding MultiplyByQuantizedMultiplier of the 32-bit product); float32 clamp(a * b);
// int32 a * b wrapping, clamped to the fused activation.

#include <cstdint>

#include "hilsim/kernels/broadcast.h"
#include "hilsim/kernels/elementwise.h"

namespace hilsim::kernels {

void mulInt8(const QuantizedMulParams& p, const BroadcastLoops& loops, const int8_t* input1,
             const int8_t* input2, int8_t* output);
void mulInt16(const QuantizedMulParams& p, const BroadcastLoops& loops, const int16_t* input1,
              const int16_t* input2, int16_t* output);
void mulFloat(const FloatActivation& p, const BroadcastLoops& loops, const float* input1,
              const float* input2, float* output);
void mulInt32(const Int32Activation& p, const BroadcastLoops& loops, const int32_t* input1,
              const int32_t* input2, int32_t* output);

}  // namespace hilsim::kernels
