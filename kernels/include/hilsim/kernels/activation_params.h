#pragma once
// Parameters of the quantized LOGISTIC and TANH arithmetic (hilsim/kernels/activation_math.h),
// computed once at prepare time from the tensors' quantization (activation_scaling.h).

#include <cstdint>

namespace hilsim::kernels {

// int8 input in gemmlowp fixed point: (q - zero_point) is rescaled into a Q4.27 value by
// multiplyByQuantizedMultiplier(.., input_multiplier, input_left_shift). Inputs at or beyond
// +-input_range_radius saturate without being rescaled.
struct Int8ActivationParams {
  int32_t count = 0;  // elements
  int32_t input_zero_point = 0;
  int32_t input_range_radius = 0;
  int32_t input_multiplier = 0;  // Q31 mantissa in [2^30, 2^31)
  int input_left_shift = 0;      // >= 0
};

// int16 input of the table-interpolated sigmoid/tanh: the table index comes from
// (q * input_multiplier + rounding) >> input_right_shift, rounding = 2^(shift - 1) or 0.
// input_multiplier is in [1, 32767] and input_right_shift in [0, 31].
struct Int16ActivationParams {
  int32_t count = 0;  // elements
  int32_t input_multiplier = 3;
  int input_right_shift = 0;
};

}  // namespace hilsim::kernels
