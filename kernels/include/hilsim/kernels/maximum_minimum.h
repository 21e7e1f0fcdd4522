#pragma once
// MAXIMUM and MINIMUM, TensorFlow Lite Micro's arithmetic (maximum_minimum.cc) over broadcast
// operands (hilsim/kernels/broadcast.h): the stored values are compared as they are, whatever
// their quantization, with `a > b ? a : b` and `a < b ? a : b` (for float32 a NaN in the second
// operand, or in both, is the result; a NaN in the first alone gives the second).

#include <cstdint>

#include "hilsim/kernels/broadcast.h"

namespace hilsim::kernels {

void maximumInt8(const BroadcastLoops& loops, const int8_t* input1, const int8_t* input2,
                 int8_t* output);
void maximumInt16(const BroadcastLoops& loops, const int16_t* input1, const int16_t* input2,
                  int16_t* output);
void maximumInt32(const BroadcastLoops& loops, const int32_t* input1, const int32_t* input2,
                  int32_t* output);
void maximumInt64(const BroadcastLoops& loops, const int64_t* input1, const int64_t* input2,
                  int64_t* output);
void maximumFloat(const BroadcastLoops& loops, const float* input1, const float* input2,
                  float* output);

void minimumInt8(const BroadcastLoops& loops, const int8_t* input1, const int8_t* input2,
                 int8_t* output);
void minimumInt16(const BroadcastLoops& loops, const int16_t* input1, const int16_t* input2,
                  int16_t* output);
void minimumInt32(const BroadcastLoops& loops, const int32_t* input1, const int32_t* input2,
                  int32_t* output);
void minimumInt64(const BroadcastLoops& loops, const int64_t* input1, const int64_t* input2,
                  int64_t* output);
void minimumFloat(const BroadcastLoops& loops, const float* input1, const float* input2,
                  float* output);

}  // namespace hilsim::kernels
