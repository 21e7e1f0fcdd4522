#include "hilsim/core/datapath.h"

#include <cstring>
#include <vector>

#include "hilsim/core/dot.h"

namespace hilsim::core {
namespace {

// (a * b * 2) / 2^32 rounded to nearest, ties away from zero, saturating the one overflow.
int32_t doublingHighMul(int32_t a, int32_t b) {
  if (a == b && a == INT32_MIN) return INT32_MAX;
  const int64_t product = static_cast<int64_t>(a) * b;
  const int64_t rounding = product >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  return static_cast<int32_t>((product + rounding) / (int64_t{1} << 31));
}

// x / 2^exponent rounded to nearest, ties away from zero: round the magnitude, keep the sign.
int32_t shiftRightRounded(int32_t x, int32_t exponent) {
  if (exponent == 0) return x;
  const int64_t half = int64_t{1} << (exponent - 1);
  const int64_t magnitude = x >= 0 ? int64_t{x} : -int64_t{x};
  const int64_t rounded = (magnitude + half) >> exponent;
  return static_cast<int32_t>(x >= 0 ? rounded : -rounded);
}

}  // namespace

int32_t requantize(int32_t acc, int32_t multiplier, int32_t shift) {
  const int32_t left = shift > 0 ? shift : 0;
  const int32_t right = shift > 0 ? 0 : -shift;
  const int32_t scaled = static_cast<int32_t>(static_cast<uint32_t>(acc) << left);
  return shiftRightRounded(doublingHighMul(scaled, multiplier), right);
}

void computeTile(const TileParams& p, const int8_t* input, const int8_t* weights,
                 const uint8_t* params, int8_t* out, uint32_t out_stride) {
  thread_local std::vector<int32_t> acc;
  acc.resize(p.features);
  for (uint32_t r = 0; r < p.rows; ++r) {
    const int8_t* row = input + static_cast<uint64_t>(r) * p.k;
    dotRows(weights, row, p.input_zero_point, p.k, p.features, acc.data());
    int8_t* dst = out + static_cast<uint64_t>(r) * out_stride;
    for (uint32_t f = 0; f < p.features; ++f) {
      int32_t record[3];
      std::memcpy(record, params + f * 12u, sizeof record);
      const int32_t sum =
          static_cast<int32_t>(static_cast<uint32_t>(acc[f]) + static_cast<uint32_t>(record[0]));
      int32_t v = requantize(sum, record[1], record[2]) + p.output_zero_point;
      v = v < p.act_min ? p.act_min : (v > p.act_max ? p.act_max : v);
      dst[f] = static_cast<int8_t>(v);
    }
  }
}

}  // namespace hilsim::core
