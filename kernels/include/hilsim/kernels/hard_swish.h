#pragma once
// HARD_SWISH, x * relu6(x + 3) / 6, TensorFlow Lite Micro's arithmetic (reference/hard_swish.h).
// int8 works in 16-bit fixed point: the centred input shifted left by 7 ("hires" scale) is
// multiplied once onto the output scale (before its final right shift) and once onto the
// "reluish" scale on which 3.0 is 2^15, saturating; the reluish value is mapped from [-1, 1] to
// [0, 1], the two are multiplied with a truncating doubling high multiply, shifted right onto the
// output scale and offset, the int16 sum wrapping, then clamped to int8. float32 computes
// x * min(6, max(0, x + 3)) / 6 in float.

#include <cstdint>

namespace hilsim::kernels {

struct HardSwishParams {
  int32_t count = 0;
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  // hires input scale / output scale as a Q15 multiplier and an exponent <= 0 (right shift).
  int16_t output_multiplier_fixedpoint_int16 = 0;
  int32_t output_multiplier_exponent = 0;
  // hires input scale / (3 / 32768) as a Q15 multiplier and an exponent in [-31, 31].
  int16_t reluish_multiplier_fixedpoint_int16 = 0;
  int32_t reluish_multiplier_exponent = 0;
};

void hardSwishInt8(const HardSwishParams& p, const int8_t* input, int8_t* output);
void hardSwishFloat(int32_t count, const float* input, float* output);

}  // namespace hilsim::kernels
