#pragma once
// Element-wise sigmoid and tanh with TensorFlow Lite Micro's integer arithmetic, shared by the
// LOGISTIC and TANH kernels and the integer LSTM:
//  - int8: gemmlowp's fixed-point logistic/tanh of a Q4.27 input (fixedpoint.h), rescaled to
//    int8 (logistic: scale 1/256, zero point -128; tanh: scale 1/128, zero point 0);
//  - int16: linear interpolation in a 256-entry table of sigmoid(i / 24) in Q0.16
//    (reference_integer_ops::Logistic/Tanh for int16), output in Q0.15.
// Freestanding: no allocation, no exceptions.

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "hilsim/kernels/activation_params.h"
#include "hilsim/kernels/fixed_point.h"
#include "hilsim/kernels/quant_math.h"

namespace hilsim::kernels::activation {

// sigmoid(i / 24) in Q0.16 (65536 stands for 1), i = 0..255, as tabulated by TensorFlow Lite.
// tanh uses the same table through tanh(x) = 2 * sigmoid(2x) - 1.
inline constexpr uint16_t kSigmoidTableQ16[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794,
    41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443,
    48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169, 53581, 53983, 54374,
    54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544,
    58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279,
    61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990,
    63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030,
    64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652,
    64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019,
    65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234,
    65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
    65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
    65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476,
    65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498, 65500, 65501,
    65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516,
    65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
    65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529,
    65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532,
    65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65534, 65534,
    65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535};

// (1 - a) / (1 + a) for a Q0 value a in (0, 1): Newton-Raphson like oneOverOnePlusXForXIn0To1.
inline int32_t oneMinusXOverOnePlusXForXIn0To1(int32_t a) {
  namespace fp = fixed_point;
  constexpr int32_t kFortyEightOverSeventeen = 1515870810;       // Q2
  constexpr int32_t kMinusThirtyTwoOverSeventeen = -1010580540;  // Q2
  constexpr int32_t kOneQ2 = int32_t{1} << 29;
  const int32_t half_denominator = fp::roundingHalfSum(a, fp::kRawMax);
  int32_t x = kFortyEightOverSeventeen + fp::mul(half_denominator, kMinusThirtyTwoOverSeventeen);
  for (int i = 0; i < 3; ++i) {
    const int32_t one_minus_half_denominator_times_x = kOneQ2 - fp::mul(half_denominator, x);
    x = x + fp::rescale(fp::mul(x, one_minus_half_denominator_times_x), 4, 2);
  }
  return fp::rescale(x - kOneQ2, 2, 0);
}

// gemmlowp logistic of a Q4.27 value; returns Q0.31 (1/2 is 2^30, "one" saturates to 2^31 - 1).
inline int32_t logisticQ4(int32_t a) {
  namespace fp = fixed_point;
  if (a == 0) return int32_t{1} << 30;
  const int32_t magnitude = a > 0 ? a : -a;
  const int32_t of_magnitude =
      fp::oneOverOnePlusXForXIn0To1(fp::expOnNegativeValues<4>(-magnitude));
  return a > 0 ? of_magnitude : fp::kRawMax - of_magnitude;
}

// gemmlowp tanh of a Q4.27 value; returns Q0.31.
inline int32_t tanhQ4(int32_t a) {
  if (a == 0) return 0;
  const int32_t minus_magnitude = a < 0 ? a : -a;
  // exp(2 * minus_magnitude): the same raw value read with five integer bits.
  const int32_t of_magnitude =
      oneMinusXOverOnePlusXForXIn0To1(fixed_point::expOnNegativeValues<5>(minus_magnitude));
  return a < 0 ? -of_magnitude : of_magnitude;
}

// LOGISTIC int8 -> int8 (output scale 1/256, zero point -128).
inline int8_t logisticInt8(int8_t q, const Int8ActivationParams& p) {
  const int32_t x = int32_t{q} - p.input_zero_point;
  if (x <= -p.input_range_radius) return -128;
  if (x >= p.input_range_radius) return 127;
  const int32_t in_q4 = multiplyByQuantizedMultiplier(x, p.input_multiplier, p.input_left_shift);
  const int32_t out_q23 = roundingDivideByPOT(logisticQ4(in_q4), 23);
  return static_cast<int8_t>(std::clamp<int32_t>(out_q23 - 128, -128, 127));
}

// TANH int8 -> int8 (output scale 1/128, zero point 0).
inline int8_t tanhInt8(int8_t q, const Int8ActivationParams& p) {
  const int32_t x = int32_t{q} - p.input_zero_point;
  if (x <= -p.input_range_radius) return -128;
  if (x >= p.input_range_radius) return 127;
  const int32_t in_q4 = multiplyByQuantizedMultiplier(x, p.input_multiplier, p.input_left_shift);
  const int32_t out_q24 = roundingDivideByPOT(tanhQ4(in_q4), 24);
  return static_cast<int8_t>(std::clamp<int32_t>(out_q24, -128, 127));
}

// The int16 input rescaled for the table: |x| / 2^9 (sigmoid) or / 2^8 (tanh) indexes the table.
inline int32_t scaleInt16Input(int16_t q, int32_t multiplier, int right_shift) {
  const int32_t rounding = right_shift > 0 ? int32_t{1} << (right_shift - 1) : 0;
  return (int32_t{q} * multiplier + rounding) >> right_shift;
}

// Sigmoid int16 -> Q0.15.
inline int16_t logisticInt16(int16_t q, int32_t multiplier, int right_shift) {
  const int32_t x = scaleInt16Input(q, multiplier, right_shift);
  const uint32_t magnitude = static_cast<uint32_t>(x < 0 ? -x : x);
  const uint32_t index = magnitude >> 9;
  uint32_t interpolated = 0x7FFFu << 10;  // saturated
  if (index < 255) {
    const uint32_t low = kSigmoidTableQ16[index];
    const uint32_t high = kSigmoidTableQ16[index + 1];
    interpolated = (low << 9) + (magnitude & 0x1FFu) * (high - low);
  }
  // sigmoid(-x) = 1 - sigmoid(x); both round to nearest when dropping the last ten bits.
  const uint32_t result =
      x >= 0 ? interpolated + (1u << 9) : (1u << 25) - interpolated + (1u << 9) - 1;
  return static_cast<int16_t>(result >> 10);
}

// tanh int16 -> Q0.15.
inline int16_t tanhInt16(int16_t q, int32_t multiplier, int right_shift) {
  const int32_t x = scaleInt16Input(q, multiplier, right_shift);
  const uint32_t magnitude = static_cast<uint32_t>(x < 0 ? -x : x);
  const uint32_t index = magnitude >> 8;
  int32_t interpolated = static_cast<int32_t>(0xFFFFu << 8);  // saturated
  if (index < 255) {
    const uint32_t low = kSigmoidTableQ16[index];
    const uint32_t high = kSigmoidTableQ16[index + 1];
    interpolated = static_cast<int32_t>((low << 8) + (magnitude & 0xFFu) * (high - low));
  }
  // 2 * sigmoid - 1, with the sign applied before the rounding shift.
  const int32_t result =
      x >= 0 ? interpolated - (1 << 23) + (1 << 7) : -interpolated + (1 << 23) + (1 << 7) - 1;
  return static_cast<int16_t>(result >> 8);
}

// Float sigmoid as the reference kernel computes it: above 16.619047 the float result is 1
// anyway; below -9, 1 / (1 + exp(-x)) is replaced by exp(x).
inline float logisticFloat(float x) {
  constexpr float kCutoffUpper = 16.619047164916992188f;
  constexpr float kCutoffLower = -9.0f;
  if (x > kCutoffUpper) return 1.0f;
  if (x < kCutoffLower) return std::exp(x);
  return 1.0f / (1.0f + std::exp(-x));
}

}  // namespace hilsim::kernels::activation
