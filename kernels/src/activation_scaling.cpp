#include "hilsim/kernels/activation_scaling.h"

#include <cmath>

namespace hilsim::kernels {
namespace {

constexpr int kInt8InputIntegerBits = 4;        // Q4.27 input of gemmlowp logistic/tanh
constexpr int kInt16InputIntegerBits = 3;       // Q3.12 input of the table
constexpr int32_t kMaxInt16Multiplier = 32767;  // keeps q * multiplier inside int32

}  // namespace

bool checkedLog2(float x, int* log2_result) {
  // float32 throughout, like TFLite (std::log on a float is logf).
  const float x_log2 = std::log(x) * (1.0f / std::log(2.0f));
  const float x_log2_rounded = std::round(x_log2);
  *log2_result = static_cast<int>(x_log2_rounded);
  return std::fabs(x_log2 - x_log2_rounded) < 1e-3f;
}

const char* int8ActivationScaling(float input_scale, Int8ActivationParams* params) {
  if (!(input_scale > 0.0f) || !std::isfinite(input_scale))
    return "input scale must be positive and finite";
  const double real_multiplier = static_cast<double>(input_scale) *
                                 static_cast<double>(int64_t{1} << (31 - kInt8InputIntegerBits));
  int exponent = 0;
  const double mantissa = std::frexp(real_multiplier, &exponent);
  const double rounded = std::round(mantissa * static_cast<double>(int64_t{1} << 31));
  // TFLite converts without a check: 2^31 would not fit an int32, a negative exponent would be a
  // negative shift in the range computation. Only scales below 2^-28 or within 2^-32 of a power
  // of two below it get here.
  if (rounded >= static_cast<double>(int64_t{1} << 31))
    return "input scale * 2^27 rounds to a mantissa of 2^31, which TFLite cannot represent";
  if (exponent < 0) return "input scale is below 2^-28, too small for the Q4.27 rescaling";
  params->input_multiplier = static_cast<int32_t>(rounded);
  params->input_left_shift = exponent;
  // CalculateInputRadius: the largest |q - zero_point| whose rescaled value stays below 2^4 - 1.
  const double max_input_rescaled = std::ldexp(
      static_cast<double>((1 << kInt8InputIntegerBits) - 1), 31 - kInt8InputIntegerBits - exponent);
  params->input_range_radius = static_cast<int32_t>(std::floor(max_input_rescaled));
  return nullptr;
}

const char* int16ActivationScaling(float input_scale, bool allow_left_shift_one,
                                   Int16ActivationParams* params) {
  if (!(input_scale > 0.0f) || !std::isfinite(input_scale))
    return "input scale must be positive and finite";
  int scale_log2 = 0;
  const bool power_of_two = checkedLog2(input_scale, &scale_log2);
  const int left_shift = (15 - kInt16InputIntegerBits) + scale_log2;
  if (power_of_two && (left_shift == 0 || (allow_left_shift_one && left_shift == 1))) {
    params->input_multiplier = 3 << left_shift;
    params->input_right_shift = 0;
    return nullptr;
  }
  // Rescale to 1 / (3 * 4096): the table spans [-10.7, 10.7] with 2^17 standing for 10.7.
  double multiplier = static_cast<double>(input_scale) * 4096.0 * 3.0;
  int right_shift = 0;
  while (multiplier <= 32767.0 / 2.0 && right_shift <= 30) {
    ++right_shift;
    multiplier *= 2.0;
  }
  if (multiplier > static_cast<double>(kMaxInt16Multiplier))
    return "input scale is above 32767 / (3 * 4096), too large for the int16 table input";
  const int32_t truncated = static_cast<int32_t>(multiplier);
  if (truncated == 0) return "input scale is too small for the int16 table input";
  params->input_multiplier = truncated;
  params->input_right_shift = right_shift;
  return nullptr;
}

const char* lstmCellTanhScaling(int cell_scale_power, Int16ActivationParams* params) {
  const int left_shift = (15 + cell_scale_power) - kInt16InputIntegerBits;
  if (left_shift < -31) return "cell state scale is below 2^-43";
  if (left_shift < 0) {
    params->input_multiplier = 3;
    params->input_right_shift = -left_shift;
    return nullptr;
  }
  if (left_shift > 13)  // 3 << 14 exceeds kMaxInt16Multiplier
    return "cell state scale is above 2, too large for the int16 tanh";
  params->input_multiplier = 3 << left_shift;
  params->input_right_shift = 0;
  return nullptr;
}

}  // namespace hilsim::kernels
