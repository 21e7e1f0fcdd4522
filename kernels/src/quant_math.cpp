#include "hilsim/kernels/quant_math.h"

namespace hilsim::kernels {

int32_t multiplyByQuantizedMultiplierCall(int32_t x, int32_t multiplier, int shift) {
  return multiplyByQuantizedMultiplier(x, multiplier, shift);
}

}  // namespace hilsim::kernels
