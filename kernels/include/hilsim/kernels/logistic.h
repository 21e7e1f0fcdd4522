#pragma once
// LOGISTIC with TensorFlow Lite Micro's arithmetic (logistic.cc): int8 through gemmlowp fixed
// point (output scale 1/256, zero point -128), int16 through the interpolated sigmoid table
// (output Q0.15), float32 with the reference cut-offs (1 above 16.619047, exp(x) below -9).
// `input` and `output` may be the same buffer.

#include <cstdint>

#include "hilsim/kernels/activation_params.h"

namespace hilsim::kernels {

void logisticInt8(const Int8ActivationParams& p, const int8_t* input, int8_t* output);
void logisticInt16(const Int16ActivationParams& p, const int16_t* input, int16_t* output);
void logisticFloat(int32_t count, const float* input, float* output);

}  // namespace hilsim::kernels
