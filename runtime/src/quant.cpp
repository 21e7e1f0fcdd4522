#include "hilsim/rt/quant.h"

#include <cmath>

namespace hilsim::rt {

QuantizedMultiplier quantizeMultiplier(double real_multiplier) {
  if (real_multiplier == 0.0) return {};
  int shift = 0;
  const double q = std::frexp(real_multiplier, &shift);
  int64_t q_fixed = static_cast<int64_t>(std::llround(q * static_cast<double>(int64_t{1} << 31)));
  if (q_fixed == (int64_t{1} << 31)) {
    q_fixed /= 2;
    ++shift;
  }
  if (shift < -31) return {};
  return {static_cast<int32_t>(q_fixed), shift};
}

int32_t multiplyByQuantizedMultiplier64(int64_t x, int32_t multiplier, int shift) {
  const int32_t reduced =
      multiplier < 0x7FFF0000 ? static_cast<int32_t>((multiplier + (1 << 15)) >> 16) : 0x7FFF;
  const int total_shift = 15 - shift;
  const int64_t product = x * static_cast<int64_t>(reduced) + (int64_t{1} << (total_shift - 1));
  return static_cast<int32_t>(product >> total_shift);
}

}  // namespace hilsim::rt
