#include "hilsim/rt/quant.h"

#include <cmath>
#include <string>

#include "hilsim/errors.h"

namespace hilsim::rt {

QuantizedMultiplier quantizeMultiplier(double real_multiplier) {
  if (!std::isfinite(real_multiplier) || real_multiplier < 0.0)
    throw ModelError("requantization multiplier " + std::to_string(real_multiplier) +
                     " is not a finite non-negative number");
  if (real_multiplier == 0.0) return {};
  int shift = 0;
  const double q = std::frexp(real_multiplier, &shift);
  int64_t q_fixed = static_cast<int64_t>(std::llround(q * static_cast<double>(int64_t{1} << 31)));
  if (q_fixed == (int64_t{1} << 31)) {
    q_fixed /= 2;
    ++shift;
  }
  if (shift < -31) return {};
  if (shift > 31)
    throw ModelError("requantization multiplier " + std::to_string(real_multiplier) +
                     " is too large (the quantization scales are inconsistent)");
  return {static_cast<int32_t>(q_fixed), shift};
}

}  // namespace hilsim::rt
