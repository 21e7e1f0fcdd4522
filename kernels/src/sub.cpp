#include "hilsim/kernels/sub.h"

namespace hilsim::kernels {
namespace {

int32_t wrapSub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}

template <typename T>
void subQuantized(const QuantizedAddParams& p, const BroadcastLoops& loops, const T* input1,
                  const T* input2, T* output) {
  addSubQuantized<BroadcastWalk::kFusedLoops>(p, loops, input1, input2, output,
                                              [](int32_t x, int32_t y) { return wrapSub(x, y); });
}

}  // namespace

void subInt8(const QuantizedAddParams& p, const BroadcastLoops& loops, const int8_t* input1,
             const int8_t* input2, int8_t* output) {
  subQuantized(p, loops, input1, input2, output);
}

void subInt16(const QuantizedAddParams& p, const BroadcastLoops& loops, const int16_t* input1,
              const int16_t* input2, int16_t* output) {
  subQuantized(p, loops, input1, input2, output);
}

void subFloat(const FloatActivation& p, const BroadcastLoops& loops, const float* input1,
              const float* input2, float* output) {
  broadcastBinary(loops, input1, input2, output,
                  [&p](float a, float b) { return clampActivation(a - b, p.act_min, p.act_max); });
}

void subInt32(const Int32Activation& p, const BroadcastLoops& loops, const int32_t* input1,
              const int32_t* input2, int32_t* output) {
  broadcastBinary(loops, input1, input2, output, [&p](int32_t a, int32_t b) {
    return clampActivation(wrapSub(a, b), p.act_min, p.act_max);
  });
}

}  // namespace hilsim::kernels
