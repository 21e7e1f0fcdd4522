#pragma once
// SUB, TensorFlow Lite Micro's arithmetic (reference/sub.h) over broadcast operands
// (hilsim/kernels/broadcast.h): the quantized path is ADD's with the scaled operands subtracted
// (QuantizedAddParams); float32 clamp(a - b); int32 a - b wrapping, clamped to the fused
// activation.

#include <cstdint>

#include "hilsim/kernels/broadcast.h"
#include "hilsim/kernels/elementwise.h"

namespace hilsim::kernels {

void subInt8(const QuantizedAddParams& p, const BroadcastLoops& loops, const int8_t* input1,
             const int8_t* input2, int8_t* output);
void subInt16(const QuantizedAddParams& p, const BroadcastLoops& loops, const int16_t* input1,
              const int16_t* input2, int16_t* output);
void subFloat(const FloatActivation& p, const BroadcastLoops& loops, const float* input1,
              const float* input2, float* output);
void subInt32(const Int32Activation& p, const BroadcastLoops& loops, const int32_t* input1,
              const int32_t* input2, int32_t* output);

}  // namespace hilsim::kernels
