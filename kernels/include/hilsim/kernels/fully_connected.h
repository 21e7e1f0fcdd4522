#pragma once
// FULLY_CONNECTED, TensorFlow Lite Micro's reference arithmetic (reference/fully_connected.h and
// integer_ops/fully_connected.h): int8 with an int32 accumulator, bias, per-output requantization
// (per-tensor layers repeat one multiplier), output offset and clamp; float32 as a sequential sum.
// Per-tensor int8 layers take TFLite Micro's FullyConnected loop, which adds the filter offset at
// every MAC; per-channel layers its FullyConnectedPerChannel loop, which has none.
// The input is a flat [rows, k] array, the filter [n, k] row major.

#include <cstdint>

namespace hilsim::kernels {

struct FullyConnectedInt8Params {
  int32_t rows = 0;
  int32_t k = 0;
  int32_t n = 0;
  int32_t input_offset = 0;   // minus the input zero point
  int32_t output_offset = 0;  // the output zero point
  int32_t filter_offset = 0;  // minus the filter zero point (0 for int8 filters)
  // 1: per-output multipliers and shifts; 0: one scale per tensor, every entry equal (the
  // kernel reads the first).
  int32_t per_channel = 1;
  int32_t act_min = -128;
  int32_t act_max = 127;
  const int32_t* multipliers = nullptr;  // n
  const int32_t* shifts = nullptr;       // n
};

// `bias` may be null (no bias).
void fullyConnectedInt8(const FullyConnectedInt8Params& p, const int8_t* input,
                        const int8_t* filter, const int32_t* bias, int8_t* output);

struct FullyConnectedFloatParams {
  int32_t rows = 0;
  int32_t k = 0;
  int32_t n = 0;
  float act_min = 0.0f;
  float act_max = 0.0f;
};

// `bias` may be null (no bias).
void fullyConnectedFloat(const FullyConnectedFloatParams& p, const float* input,
                         const float* filter, const float* bias, float* output);

}  // namespace hilsim::kernels
