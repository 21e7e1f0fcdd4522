#pragma once
// TANH with TensorFlow Lite Micro's arithmetic (tanh.cc): int8 through gemmlowp fixed point
// (output scale 1/128, zero point 0), int16 through the interpolated sigmoid table (output
// Q0.15), float32 as std::tanh. `input` and `output` may be the same buffer.

#include <cstdint>

#include "hilsim/kernels/activation_params.h"

namespace hilsim::kernels {

void tanhInt8(const Int8ActivationParams& p, const int8_t* input, int8_t* output);
void tanhInt16(const Int16ActivationParams& p, const int16_t* input, int16_t* output);
void tanhFloat(int32_t count, const float* input, float* output);

}  // namespace hilsim::kernels
