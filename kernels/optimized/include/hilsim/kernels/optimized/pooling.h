#pragma once
// Optimized MAX_POOL_2D and AVERAGE_POOL_2D, int8, bit-exact with TensorFlow Lite Micro's
// reference arithmetic (hilsim/kernels/pooling.h, same parameters). Per output pixel the window's
// rows and columns inside the input are computed once; then each tap updates all channels of the
// pixel, four per word:
//   max:     SSUB8 + SEL, the byte-wise signed maximum, into the running maxima kept in the
//            output pixel (starting from -128);
//   average: SXTB16 widens the even and the odd bytes, SADD16 adds them into halfword sums kept
//            in `acc` (two words per four channels), exact while the window has at most 256 taps
//            (|sum| <= 256 * 128); larger windows sum in int32. The rounded division by the tap
//            count is the reference's.
// The channels past the last multiple of four take one channel at a time in the same loop order.
// Cores without the DSP extension run the reference kernels' loops, which are faster there.
// Freestanding.

#include <cstdint>

#include "hilsim/kernels/pooling.h"

namespace hilsim::kernels::opt {

void maxPoolInt8(const PoolParams& p, const int8_t* input, int8_t* output);

// `acc` is scratch for in_c int32 values (4-byte aligned); every window must cover at least one
// input element.
void averagePoolInt8(const PoolParams& p, const int8_t* input, int32_t* acc, int8_t* output);

}  // namespace hilsim::kernels::opt
