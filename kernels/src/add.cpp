#include "hilsim/kernels/add.h"

#include <algorithm>

namespace hilsim::kernels {
namespace {

// TFLite Micro's AddFunc: both inputs centred and shifted left, scaled onto the common scale and
// summed; the sum scaled to the output, offset and clamped. The rescalings are all by factors below
// one (MultiplyByQuantizedMultiplierSmallerThanOneExp, inline). Inlined into the loop, as TFLite
// Micro's element function is once its loop template is instantiated.
template <typename T>
[[gnu::always_inline]] inline T addElement(T x, T y, const QuantizedAddParams& p) {
  const uint32_t input1_val = static_cast<uint32_t>(wrapAdd(p.input1_offset, x));
  const uint32_t input2_val = static_cast<uint32_t>(wrapAdd(p.input2_offset, y));
  const auto shifted_input1_val = static_cast<int32_t>(input1_val << p.left_shift);
  const auto shifted_input2_val = static_cast<int32_t>(input2_val << p.left_shift);
  const int32_t scaled_input1_val = multiplyByQuantizedMultiplierSmallerThanOne(
      shifted_input1_val, p.input1_multiplier, p.input1_shift);
  const int32_t scaled_input2_val = multiplyByQuantizedMultiplierSmallerThanOne(
      shifted_input2_val, p.input2_multiplier, p.input2_shift);
  const int32_t raw_sum = wrapAdd(scaled_input1_val, scaled_input2_val);
  const int32_t raw_output = wrapAdd(
      multiplyByQuantizedMultiplierSmallerThanOne(raw_sum, p.output_multiplier, p.output_shift),
      p.output_offset);
  return static_cast<T>(std::min(p.act_max, std::max(p.act_min, raw_output)));
}

// Operands of one shape take TFLite Micro's flat loop (reference_integer_ops::Add, one index
// for all three arrays); broadcast operands the broadcast loop nest.
template <typename T>
void addQuantized(const QuantizedAddParams& p, const BroadcastLoops& loops, const T* input1,
                  const T* input2, T* output) {
  if (loops.rank == 1 && loops.stride1[0] == 1 && loops.stride2[0] == 1 &&
      loops.extent[0] <= INT32_MAX) {
    const auto size = static_cast<int32_t>(loops.extent[0]);
    for (int32_t i = 0; i < size; ++i) output[i] = addElement(input1[i], input2[i], p);
    return;
  }
  broadcastBinary(loops, input1, input2, output, [&p](T a, T b) { return addElement(a, b, p); });
}

}  // namespace

void addInt8(const QuantizedAddParams& p, const BroadcastLoops& loops, const int8_t* input1,
             const int8_t* input2, int8_t* output) {
  addQuantized(p, loops, input1, input2, output);
}

void addInt16(const QuantizedAddParams& p, const BroadcastLoops& loops, const int16_t* input1,
              const int16_t* input2, int16_t* output) {
  addQuantized(p, loops, input1, input2, output);
}

void addFloat(const FloatActivation& p, const BroadcastLoops& loops, const float* input1,
              const float* input2, float* output) {
  broadcastBinary(loops, input1, input2, output,
                  [&p](float a, float b) { return clampActivation(a + b, p.act_min, p.act_max); });
}

void addInt32(const Int32Activation& p, const BroadcastLoops& loops, const int32_t* input1,
              const int32_t* input2, int32_t* output) {
  broadcastBinary(loops, input1, input2, output, [&p](int32_t a, int32_t b) {
    return clampActivation(wrapAdd(a, b), p.act_min, p.act_max);
  });
}

}  // namespace hilsim::kernels
