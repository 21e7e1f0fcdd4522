#include "hilsim/kernels/quantize.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "hilsim/kernels/quant_math.h"

namespace hilsim::kernels {
namespace {

// x86's conversion of an out-of-range float to int32 yields INT32_MIN; TFLite Micro's
// static_cast compiles to it, so out-of-range inputs behave as on its x86 build.
int32_t toInt32LikeX86(float value) {
  if (value >= -2147483648.0f && value < 2147483648.0f) return static_cast<int32_t>(value);
  return std::numeric_limits<int32_t>::min();
}

template <typename Out>
void affineQuantize(const AffineQuantizeParams& p, const float* input, Out* output) {
  constexpr int32_t kMin = std::numeric_limits<Out>::min();
  constexpr int32_t kMax = std::numeric_limits<Out>::max();
  for (int32_t i = 0; i < p.count; ++i) {
    const int32_t rounded = toInt32LikeX86(std::round(input[i] / p.scale));
    output[i] = static_cast<Out>(std::clamp(wrapAdd(rounded, p.zero_point), kMin, kMax));
  }
}

template <typename In, typename Out>
void requantize(const RequantizeParams& p, const In* input, Out* output) {
  constexpr int32_t kMin = std::numeric_limits<Out>::min();
  constexpr int32_t kMax = std::numeric_limits<Out>::max();
  for (int32_t i = 0; i < p.count; ++i) {
    const int32_t centered = static_cast<int32_t>(static_cast<uint32_t>(int32_t{input[i]}) -
                                                  static_cast<uint32_t>(p.input_zero_point));
    const int32_t scaled = multiplyByQuantizedMultiplier(centered, p.multiplier, p.shift);
    output[i] = static_cast<Out>(std::clamp(wrapAdd(scaled, p.output_zero_point), kMin, kMax));
  }
}

}  // namespace

void quantizeFloatToInt8(const AffineQuantizeParams& p, const float* input, int8_t* output) {
  affineQuantize(p, input, output);
}
void quantizeFloatToInt16(const AffineQuantizeParams& p, const float* input, int16_t* output) {
  affineQuantize(p, input, output);
}

void requantizeInt8ToInt8(const RequantizeParams& p, const int8_t* input, int8_t* output) {
  requantize(p, input, output);
}
void requantizeInt8ToInt16(const RequantizeParams& p, const int8_t* input, int16_t* output) {
  requantize(p, input, output);
}
void requantizeInt8ToInt32(const RequantizeParams& p, const int8_t* input, int32_t* output) {
  requantize(p, input, output);
}
// TFLite Micro flips the sign bit instead when the scales match and the zero points differ by
// 128; that gives the same bytes as the general path, which is kept.
void requantizeInt8ToUint8(const RequantizeParams& p, const int8_t* input, uint8_t* output) {
  requantize(p, input, output);
}
void requantizeUint8ToInt8(const RequantizeParams& p, const uint8_t* input, int8_t* output) {
  requantize(p, input, output);
}
void requantizeInt16ToInt8(const RequantizeParams& p, const int16_t* input, int8_t* output) {
  requantize(p, input, output);
}
void requantizeInt16ToInt16(const RequantizeParams& p, const int16_t* input, int16_t* output) {
  requantize(p, input, output);
}
void requantizeInt16ToInt32(const RequantizeParams& p, const int16_t* input, int32_t* output) {
  requantize(p, input, output);
}
void requantizeInt32ToInt8(const RequantizeParams& p, const int32_t* input, int8_t* output) {
  requantize(p, input, output);
}
void requantizeInt32ToInt16(const RequantizeParams& p, const int32_t* input, int16_t* output) {
  requantize(p, input, output);
}

}  // namespace hilsim::kernels
