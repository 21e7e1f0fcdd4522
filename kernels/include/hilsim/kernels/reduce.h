#pragma once
// MEAN with TensorFlow Lite Micro's arithmetic (reduce_common.cc, reference/reduce.h). The input
// is walked in row-major order and every element is added to the sum of the output it reduces
// to (int32 sums that wrap, float32 sums in that order). Then, per output:
//   float32:                  sum / float(N)
//   int8, int16:              MultiplyByQuantizedMultiplier(int32(sum - input_zp * N), M, shift)
//                             + output_zp, clamped to the output type (also when input and
//                             output share their quantization)
// where N is the number of input elements per output and (M, shift) is the input/output scale
// ratio with 1/N folded in as TFLite Micro does it (see foldReductionCount). Freestanding.

#include <cstdint>

namespace hilsim::kernels {

constexpr int32_t kMeanMaxDims = 5;

struct MeanParams {
  int32_t rank = 1;                           // input dimensions, 1 .. kMeanMaxDims
  int32_t input_dims[kMeanMaxDims] = {};      // all > 0
  int32_t output_strides[kMeanMaxDims] = {};  // per input dimension; 0 where it is reduced
  int32_t output_count = 0;                   // outputs (product of the kept dimensions)
  int32_t reduced_count = 0;                  // N: input elements per output
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  int32_t multiplier = 0;  // includes 1/N
  int32_t shift = 0;
};

// TFLite Micro's adjustment of the scale-ratio multiplier (multiplier, shift) by 1/N:
// s = min(floor(log2 N), 32, 31 + shift); multiplier = (multiplier << s) / N; shift -= s.
// multiplier in [0, 2^31), shift >= -31, count > 0.
void foldReductionCount(int32_t count, int32_t* multiplier, int32_t* shift);

// `sums` is scratch for output_count int32 values.
void meanInt8(const MeanParams& p, const int8_t* input, int32_t* sums, int8_t* output);
void meanInt16(const MeanParams& p, const int16_t* input, int32_t* sums, int16_t* output);
// Accumulates in `output` itself.
void meanFloat32(const MeanParams& p, const float* input, float* output);

}  // namespace hilsim::kernels
