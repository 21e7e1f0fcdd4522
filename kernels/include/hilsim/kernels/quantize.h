#pragma once
// QUANTIZE, TensorFlow Lite Micro's arithmetic (reference/quantize.h, reference/requantize.h):
//   float32 -> int8/int16: int32(round_half_away(x / scale)) + zero_point, clamped; an input
//     whose rounded quotient leaves the int32 range converts to INT32_MIN as on x86, and the
//     zero point is added wrapping;
//   integer -> integer: MultiplyByQuantizedMultiplier(q - input_zero_point, multiplier, shift)
//     + output_zero_point, clamped (multiplier = input scale / output scale, double rounding;
//     the subtraction and addition wrap in 32 bits). Freestanding.

#include <cstdint>

namespace hilsim::kernels {

struct AffineQuantizeParams {
  int32_t count = 0;
  float scale = 0.0f;  // output scale
  int32_t zero_point = 0;
};

struct RequantizeParams {
  int32_t count = 0;
  int32_t multiplier = 0;
  int32_t shift = 0;  // positive: left shift
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
};

void quantizeFloatToInt8(const AffineQuantizeParams& p, const float* input, int8_t* output);
void quantizeFloatToInt16(const AffineQuantizeParams& p, const float* input, int16_t* output);

void requantizeInt8ToInt8(const RequantizeParams& p, const int8_t* input, int8_t* output);
void requantizeInt8ToInt16(const RequantizeParams& p, const int8_t* input, int16_t* output);
void requantizeInt8ToInt32(const RequantizeParams& p, const int8_t* input, int32_t* output);
void requantizeInt8ToUint8(const RequantizeParams& p, const int8_t* input, uint8_t* output);
void requantizeUint8ToInt8(const RequantizeParams& p, const uint8_t* input, int8_t* output);
void requantizeInt16ToInt8(const RequantizeParams& p, const int16_t* input, int8_t* output);
void requantizeInt16ToInt16(const RequantizeParams& p, const int16_t* input, int16_t* output);
void requantizeInt16ToInt32(const RequantizeParams& p, const int16_t* input, int32_t* output);
void requantizeInt32ToInt8(const RequantizeParams& p, const int32_t* input, int8_t* output);
void requantizeInt32ToInt16(const RequantizeParams& p, const int32_t* input, int16_t* output);

}  // namespace hilsim::kernels
