#pragma once
// Optimized SOFTMAX, int8 input to int8 or int16 output, bit-exact with TensorFlow Lite Micro's
// reference arithmetic (hilsim/kernels/softmax.h, same parameters). An int8 row's differences
// from its maximum take only the 256 values 0, -1, ..., -255, so the gemmlowp exp of every
// difference is computed once at prepare time (softmaxInt8ExpTable) instead of twice per element
// per call; differences below diff_min hold 0 there, which gives those elements exactly what the
// reference gives them (nothing in the sum, the type's minimum out). Per row the kernel finds the
// maximum (four bytes per word with SSUB8 + SEL on cores with the DSP extension), sums the
// table's values on the Q12.19 scale, takes the reference's reciprocal, and scales each table
// value by it. Freestanding.

#include <cstdint>

#include "hilsim/kernels/softmax.h"

namespace hilsim::kernels::opt {

constexpr int32_t kSoftmaxExpTableEntries = 256;

// table[d] = exp of the difference -d as the reference computes it (Q0.31), 0 where -d < diff_min.
void softmaxInt8ExpTable(const SoftmaxInt8Params& p, int32_t* table);

// `exp_table`: softmaxInt8ExpTable of the same parameters. On kSumOfExpsOverflow, *failed_row is
// the row, as for the reference kernel.
[[nodiscard]] SoftmaxStatus softmaxInt8ToInt8(const SoftmaxInt8Params& p, const int32_t* exp_table,
                                              const int8_t* input, int8_t* output,
                                              int32_t* failed_row);
[[nodiscard]] SoftmaxStatus softmaxInt8ToInt16(const SoftmaxInt8Params& p, const int32_t* exp_table,
                                               const int8_t* input, int16_t* output,
                                               int32_t* failed_row);

}  // namespace hilsim::kernels::opt
