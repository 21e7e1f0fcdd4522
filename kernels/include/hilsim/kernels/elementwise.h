#pragma once
// Parameters and per-element arithmetic shared by the element-wise kernels (ADD, SUB, MUL),
// prepared once by the runtime. Freestanding.

#include <algorithm>
#include <cstdint>

#include "hilsim/kernels/quant_math.h"

namespace hilsim::kernels {

// Quantized ADD and SUB (int8, int16), TensorFlow Lite Micro's general rescaling: each input is
// centred, shifted left by left_shift (20 for int8, 15 for int16) and scaled by its multiplier
// (input scale / twice the larger input scale) onto a common scale; the sum or difference is
// scaled by output_multiplier (twice the larger input scale / (2^left_shift * output scale)),
// offset by the output zero point and clamped to the activation range. All shifts are <= 0
// (right shifts).
struct QuantizedAddParams {
  int32_t input1_offset = 0;  // -zero point of input 1
  int32_t input2_offset = 0;  // -zero point of input 2
  int32_t left_shift = 20;
  int32_t input1_multiplier = 0;
  int32_t input1_shift = 0;
  int32_t input2_multiplier = 0;
  int32_t input2_shift = 0;
  int32_t output_multiplier = 0;
  int32_t output_shift = 0;
  int32_t output_offset = 0;  // output zero point
  int32_t act_min = 0;        // activation range in the output type, quantized
  int32_t act_max = 0;
};

// Quantized MUL (int8, int16): out = clamp(output_offset + MultiplyByQuantizedMultiplier(
// (a + input1_offset) * (b + input2_offset), output_multiplier, output_shift)).
struct QuantizedMulParams {
  int32_t input1_offset = 0;
  int32_t input2_offset = 0;
  int32_t output_multiplier = 0;
  int32_t output_shift = 0;  // positive: left shift
  int32_t output_offset = 0;
  int32_t act_min = 0;
  int32_t act_max = 0;
};

// Fused activation of the float32 kernels: the result is clamped to [act_min, act_max]
// (lowest / max float for none).
struct FloatActivation {
  float act_min = 0.0f;
  float act_max = 0.0f;
};

// Clamp of the int32 kernels.
struct Int32Activation {
  int32_t act_min = 0;
  int32_t act_max = 0;
};

// TFLite's ActivationFunctionWithMinMax: min(max(x, lo), hi) (a NaN passes through).
template <typename T>
inline T clampActivation(T x, T lo, T hi) {
  return std::min(std::max(x, lo), hi);
}

// An ADD/SUB operand on the common scale: ((value + offset) << left_shift) * multiplier.
inline int32_t scaleAddend(int32_t value, int32_t offset, int32_t left_shift, int32_t multiplier,
                           int32_t shift) {
  const uint32_t centered = static_cast<uint32_t>(wrapAdd(value, offset));
  const int32_t shifted = static_cast<int32_t>(centered << left_shift);
  return multiplyByQuantizedMultiplier(shifted, multiplier, shift);
}

// An ADD/SUB result on the common scale requantized to the output, clamped.
inline int32_t requantizeAddResult(const QuantizedAddParams& p, int32_t raw) {
  const int32_t scaled = multiplyByQuantizedMultiplier(raw, p.output_multiplier, p.output_shift);
  return std::clamp(wrapAdd(scaled, p.output_offset), p.act_min, p.act_max);
}

}  // namespace hilsim::kernels
