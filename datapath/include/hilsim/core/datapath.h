#pragma once
// The matmul core's arithmetic on one tile, as the hardware computes it: int8 x int8 products
// accumulated in int32, per-feature bias, requantization with TFLite's rounding (a Q31
// multiplier with gemmlowp's double rounding), output zero point and activation clamp.
// Independent of runtime/ on purpose: comparing the two against TFLite Micro's outputs catches a
// bug in either. No SystemC.

#include <cstdint>

namespace hilsim::core {

struct TileParams {
  uint32_t rows = 0;
  uint32_t k = 0;
  uint32_t features = 0;  // output features in this tile
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  int32_t act_min = -128;
  int32_t act_max = 127;
};

// input: rows x k. weights: features x k. params: features records of {int32 bias, int32
// multiplier, int32 shift}, little endian. out: rows x features written with `out_stride`.
void computeTile(const TileParams& p, const int8_t* input, const int8_t* weights,
                 const uint8_t* params, int8_t* out, uint32_t out_stride);

// The requantization step on its own (exposed for tests).
int32_t requantize(int32_t acc, int32_t multiplier, int32_t shift);

}  // namespace hilsim::core
