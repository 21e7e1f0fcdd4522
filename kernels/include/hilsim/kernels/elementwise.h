#pragma once
// Parameters and per-element arithmetic shared by the element-wise kernels (ADD, SUB, MUL),
// prepared once by the runtime. Freestanding.

#include <algorithm>
#include <cstdint>

#include "hilsim/kernels/broadcast.h"
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

// TFLite Micro's quantized ADD / SUB element (AddFunc, SubElementwise): both inputs centred and
// shifted left, scaled onto the common scale, combined (`combine`: the wrapping sum or
// difference); the result scaled to the output, offset and clamped. Every rescaling is by a factor
// below one (MultiplyByQuantizedMultiplierSmallerThanOneExp). Inlined into the loop, as TFLite
// Micro's element function is once its loop template is instantiated.
template <typename T, typename Combine>
[[gnu::always_inline]] inline T addSubElement(T x, T y, const QuantizedAddParams& p,
                                              Combine combine) {
  const uint32_t input1_val = static_cast<uint32_t>(wrapAdd(p.input1_offset, x));
  const uint32_t input2_val = static_cast<uint32_t>(wrapAdd(p.input2_offset, y));
  const auto shifted_input1_val = static_cast<int32_t>(input1_val << p.left_shift);
  const auto shifted_input2_val = static_cast<int32_t>(input2_val << p.left_shift);
  const int32_t scaled_input1_val = multiplyByQuantizedMultiplierSmallerThanOne(
      shifted_input1_val, p.input1_multiplier, p.input1_shift);
  const int32_t scaled_input2_val = multiplyByQuantizedMultiplierSmallerThanOne(
      shifted_input2_val, p.input2_multiplier, p.input2_shift);
  const int32_t raw = combine(scaled_input1_val, scaled_input2_val);
  const int32_t raw_output =
      wrapAdd(multiplyByQuantizedMultiplierSmallerThanOne(raw, p.output_multiplier, p.output_shift),
              p.output_offset);
  return static_cast<T>(std::min(p.act_max, std::max(p.act_min, raw_output)));
}

// The quantized ADD / SUB element as a function object that is always inlined into the walk
// calling it (a lambda would be called out of line from the several loops of a walk).
template <typename T, typename Combine>
struct AddSubOp {
  const QuantizedAddParams& p;
  Combine combine;
  [[gnu::always_inline]] T operator()(T x, T y) const { return addSubElement(x, y, p, combine); }
};

// Quantized ADD / SUB: the flat loop for operands of one shape, `Walk` for broadcast ones.
template <BroadcastWalk Walk, typename T, typename Combine>
void addSubQuantized(const QuantizedAddParams& p, const BroadcastLoops& loops, const T* input1,
                     const T* input2, T* output, Combine combine) {
  elementwiseBinary<Walk>(loops, input1, input2, output, AddSubOp<T, Combine>{p, combine});
}

}  // namespace hilsim::kernels
