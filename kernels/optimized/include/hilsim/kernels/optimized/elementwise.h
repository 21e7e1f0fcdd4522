#pragma once
// Optimized ADD and MUL, int8, bit-exact with TensorFlow Lite Micro's reference arithmetic
// (hilsim/kernels/add.h, mul.h; same parameters and broadcast loops). Per innermost run of the
// broadcast loop nest:
//   - both operands vary: four elements per pass from one word of each operand; on cores with
//     the DSP extension SXTAB16 adds the input offset to the even and the odd bytes as halfword
//     pairs, MUL multiplies the pairs with SMULBB / SMULTT, and the four results leave in one
//     word store;
//   - one operand repeats (a broadcast scalar, channel or row): its centred value (MUL) or its
//     value on the common scale (ADD) is computed once per run instead of once per element.
// The rescalings are opt::requantize's branch-free form of MultiplyByQuantizedMultiplier with the
// shifts split once per call. Parameters outside what the runtime's prepare produces (offsets
// beyond +-256, shifts outside TFLite's ranges, an ADD multiplier of INT32_MIN, a run longer than
// INT32_MAX) take the reference kernel. Freestanding.

#include <cstdint>

#include "hilsim/kernels/broadcast.h"
#include "hilsim/kernels/elementwise.h"

namespace hilsim::kernels::opt {

void addInt8(const QuantizedAddParams& p, const BroadcastLoops& loops, const int8_t* input1,
             const int8_t* input2, int8_t* output);
void mulInt8(const QuantizedMulParams& p, const BroadcastLoops& loops, const int8_t* input1,
             const int8_t* input2, int8_t* output);

}  // namespace hilsim::kernels::opt
