#include "hilsim/kernels/dequantize.h"

namespace hilsim::kernels {
namespace {

// The product of a float and an integer below 2^17 is exact in double, so this single float
// rounding equals TFLite's float(double(scale) * (q - zero_point)).
template <typename In>
void dequantize(const DequantizeParams& p, const In* input, float* output) {
  for (int32_t i = 0; i < p.count; ++i)
    output[i] = p.scale * static_cast<float>(static_cast<int32_t>(input[i]) - p.zero_point);
}

}  // namespace

void dequantizeInt8(const DequantizeParams& p, const int8_t* input, float* output) {
  dequantize(p, input, output);
}

void dequantizeInt16(const DequantizeParams& p, const int16_t* input, float* output) {
  dequantize(p, input, output);
}

}  // namespace hilsim::kernels
