#pragma once
// Optimized FULLY_CONNECTED, int8, bit-exact with TensorFlow Lite Micro's reference arithmetic
// (hilsim/kernels/fully_connected.h, same parameters).
//
// The input offset is folded out of the inner loop: sum_k w[o][k] * (x[k] + offset) equals
// sum_k w[o][k] * x[k] + offset * sum_k w[o][k] modulo 2^32, so the second term and the bias are
// computed once per output (fullyConnectedInt8FoldBias, at prepare time) and the inner loop is a
// plain int8 dot product. The dot products are blocked 2 rows x 2 outputs: every loaded word of
// inputs and weights serves two outputs. With the DSP extension one step takes 4 bytes of each
// operand, widens them with SXTB16 and accumulates with SMLAD (8 MACs per 4 SMLAD).
// Freestanding.

#include <cstdint>

#include "hilsim/kernels/fully_connected.h"

namespace hilsim::kernels::opt {

// folded_bias[o] = bias[o] + input_offset * sum_k filter[o][k] (wrapping); `bias` may be null.
// `folded_bias` holds p.n values and is owned by the caller (the persistent pool).
void fullyConnectedInt8FoldBias(const FullyConnectedInt8Params& p, const int8_t* filter,
                                const int32_t* bias, int32_t* folded_bias);

// Same output as kernels::fullyConnectedInt8 given the folded bias of the same filter.
void fullyConnectedInt8(const FullyConnectedInt8Params& p, const int8_t* input,
                        const int8_t* filter, const int32_t* folded_bias, int8_t* output);

}  // namespace hilsim::kernels::opt
