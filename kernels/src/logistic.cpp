#include "hilsim/kernels/logistic.h"

#include "hilsim/kernels/activation_math.h"

namespace hilsim::kernels {

void logisticInt8(const Int8ActivationParams& p, const int8_t* input, int8_t* output) {
  for (int32_t i = 0; i < p.count; ++i) output[i] = activation::logisticInt8(input[i], p);
}

void logisticInt16(const Int16ActivationParams& p, const int16_t* input, int16_t* output) {
  for (int32_t i = 0; i < p.count; ++i)
    output[i] = activation::logisticInt16(input[i], p.input_multiplier, p.input_right_shift);
}

void logisticFloat(int32_t count, const float* input, float* output) {
  for (int32_t i = 0; i < count; ++i) output[i] = activation::logisticFloat(input[i]);
}

}  // namespace hilsim::kernels
