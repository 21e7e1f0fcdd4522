#include "hilsim/kernels/mul.h"

namespace hilsim::kernels {
namespace {

int32_t wrapMul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}

template <typename T>
void mulQuantized(const QuantizedMulParams& p, const BroadcastLoops& loops, const T* input1,
                  const T* input2, T* output) {
  broadcastBinary(loops, input1, input2, output, [&p](T a, T b) {
    const int32_t product = wrapMul(wrapAdd(a, p.input1_offset), wrapAdd(b, p.input2_offset));
    const int32_t scaled =
        multiplyByQuantizedMultiplier(product, p.output_multiplier, p.output_shift);
    return static_cast<T>(clampActivation(wrapAdd(p.output_offset, scaled), p.act_min, p.act_max));
  });
}

}  // namespace

void mulInt8(const QuantizedMulParams& p, const BroadcastLoops& loops, const int8_t* input1,
             const int8_t* input2, int8_t* output) {
  mulQuantized(p, loops, input1, input2, output);
}

void mulInt16(const QuantizedMulParams& p, const BroadcastLoops& loops, const int16_t* input1,
              const int16_t* input2, int16_t* output) {
  mulQuantized(p, loops, input1, input2, output);
}

void mulFloat(const FloatActivation& p, const BroadcastLoops& loops, const float* input1,
              const float* input2, float* output) {
  broadcastBinary(loops, input1, input2, output,
                  [&p](float a, float b) { return clampActivation(a * b, p.act_min, p.act_max); });
}

void mulInt32(const Int32Activation& p, const BroadcastLoops& loops, const int32_t* input1,
              const int32_t* input2, int32_t* output) {
  broadcastBinary(loops, input1, input2, output, [&p](int32_t a, int32_t b) {
    return clampActivation(wrapMul(a, b), p.act_min, p.act_max);
  });
}

}  // namespace hilsim::kernels
