#include "hilsim/kernels/add.h"

namespace hilsim::kernels {
namespace {

template <typename T>
void addQuantized(const QuantizedAddParams& p, const BroadcastLoops& loops, const T* input1,
                  const T* input2, T* output) {
  broadcastBinary(loops, input1, input2, output, [&p](T a, T b) {
    const int32_t scaled1 =
        scaleAddend(a, p.input1_offset, p.left_shift, p.input1_multiplier, p.input1_shift);
    const int32_t scaled2 =
        scaleAddend(b, p.input2_offset, p.left_shift, p.input2_multiplier, p.input2_shift);
    return static_cast<T>(requantizeAddResult(p, wrapAdd(scaled1, scaled2)));
  });
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
