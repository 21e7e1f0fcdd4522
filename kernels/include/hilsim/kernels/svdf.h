#pragma once
// SVDF, int8 input and feature weights with int8 or int16 time weights and state, TensorFlow
// Lite Micro's arithmetic (svdf_common.cc, EvalIntegerSvdfReference):
//   1. shift the whole state buffer left by one element;
//   2. feature product: state[b][f][memory - 1] = T(state_zp + clamp_T(requant1(
//      sum_i wf[f][i] * (x[b][i] - input_zp)))), the narrowing to T wrapping;
//   3. time product: s[b][f] = sum_t wt[f][t] * (state[b][f][t] - state_zp);
//   4. out[b][u] = clamp_int8(requant2(bias[u] + sum_r s[b][u * rank + r]) + output_zp).
// Sums wrap modulo 2^32 like TFLite Micro's int32 arithmetic on x86. The fused activation is not
// applied (TFLite Micro ignores it on this path too). Freestanding.

#include <cstdint>

namespace hilsim::kernels {

struct SvdfParams {
  int32_t batches = 0;
  int32_t input_size = 0;
  int32_t filters = 0;  // units * rank
  int32_t units = 0;
  int32_t rank = 0;
  int32_t memory = 0;
  int32_t input_zero_point = 0;
  int32_t state_zero_point = 0;
  int32_t output_zero_point = 0;
  int32_t feature_multiplier = 0;  // input * feature weights -> state
  int32_t feature_shift = 0;
  int32_t time_multiplier = 0;  // state * time weights -> output
  int32_t time_shift = 0;
};

// Tensors: input [batches, input_size], weights_feature [filters, input_size], weights_time
// [filters, memory], bias [units] or nullptr, state [batches, filters * memory] (read and
// updated), output [batches, units]. Scratch: filter_scratch int32 [batches * filters],
// unit_scratch int32 [batches * units].
void svdfInt8State(const SvdfParams& p, const int8_t* input, const int8_t* weights_feature,
                   const int8_t* weights_time, const int32_t* bias, int8_t* state, int8_t* output,
                   int32_t* filter_scratch, int32_t* unit_scratch);
void svdfInt16State(const SvdfParams& p, const int8_t* input, const int8_t* weights_feature,
                    const int16_t* weights_time, const int32_t* bias, int16_t* state,
                    int8_t* output, int32_t* filter_scratch, int32_t* unit_scratch);

}  // namespace hilsim::kernels
