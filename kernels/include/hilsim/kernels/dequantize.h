#pragma once
// DEQUANTIZE, int8/int16 -> float32, TensorFlow Lite Micro's arithmetic (reference/dequantize.h):
// output = float(scale) * float(q - zero_point), one float32 rounding.

#include <cstdint>

namespace hilsim::kernels {

struct DequantizeParams {
  int32_t count = 0;
  float scale = 0.0f;
  int32_t zero_point = 0;
};

void dequantizeInt8(const DequantizeParams& p, const int8_t* input, float* output);
void dequantizeInt16(const DequantizeParams& p, const int16_t* input, float* output);

}  // namespace hilsim::kernels
