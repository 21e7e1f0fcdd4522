#pragma once
// ADD, TensorFlow Lite Micro's arithmetic (reference/add.h, integer_ops/add.h) over broadcast
// operands (hilsim/kernels/broadcast.h):
//   int8, int16: general quantized rescaling (QuantizedAddParams; int16 takes the same
//                non-power-of-two path as TFLite Micro, never the power-of-two one);
//   float32:     clamp(a + b) to the fused activation;
//   int32:       a + b wrapping, clamped to Int32Activation (TFLite Micro uses the full range).

#include <cstdint>

#include "hilsim/kernels/broadcast.h"
#include "hilsim/kernels/elementwise.h"

namespace hilsim::kernels {

void addInt8(const QuantizedAddParams& p, const BroadcastLoops& loops, const int8_t* input1,
             const int8_t* input2, int8_t* output);
void addInt16(const QuantizedAddParams& p, const BroadcastLoops& loops, const int16_t* input1,
              const int16_t* input2, int16_t* output);
void addFloat(const FloatActivation& p, const BroadcastLoops& loops, const float* input1,
              const float* input2, float* output);
void addInt32(const Int32Activation& p, const BroadcastLoops& loops, const int32_t* input1,
              const int32_t* input2, int32_t* output);

}  // namespace hilsim::kernels
