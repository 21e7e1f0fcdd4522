#include "hilsim/kernels/add.h"

#include <algorithm>

namespace hilsim::kernels {
namespace {

template <typename T>
void addQuantized(const QuantizedAddParams& p, const BroadcastLoops& loops, const T* input1,
                  const T* input2, T* output) {
  addSubQuantized<BroadcastWalk::kNest6>(p, loops, input1, input2, output,
                                         [](int32_t x, int32_t y) { return wrapAdd(x, y); });
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
  elementwiseBinary<BroadcastWalk::kNest6>(loops, input1, input2, output, [&p](float a, float b) {
    return clampActivation(a + b, p.act_min, p.act_max);
  });
}

void addInt32(const Int32Activation& p, const BroadcastLoops& loops, const int32_t* input1,
              const int32_t* input2, int32_t* output) {
  elementwiseBinary<BroadcastWalk::kNest6>(
      loops, input1, input2, output,
      [&p](int32_t a, int32_t b) { return clampActivation(wrapAdd(a, b), p.act_min, p.act_max); });
}

}  // namespace hilsim::kernels
