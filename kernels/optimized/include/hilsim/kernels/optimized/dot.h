#pragma once
// Register-blocked int8 dot products, the inner loops of the optimized FULLY_CONNECTED and
// CONV_2D. All sums wrap modulo 2^32. Freestanding.

#include <cstdint>

#include "hilsim/kernels/optimized/simd.h"

namespace hilsim::kernels::opt {

// acc[2 * r + c] += sum_k a_r[k] * b_c[k] for two int8 rows a and two int8 columns b.
inline void dot2x2S8(const int8_t* a0, const int8_t* a1, const int8_t* b0, const int8_t* b1,
                     int32_t k, int32_t acc[4]) {
  int32_t s00 = acc[0], s01 = acc[1], s10 = acc[2], s11 = acc[3];
  int32_t i = 0;
#if HILSIM_OPT_DSP
  for (; i + 4 <= k; i += 4) {
    const uint32_t wa = load4(b0 + i), wb = load4(b1 + i);
    const uint32_t b0e = sxtb16(wa), b0o = sxtb16Odd(wa);
    const uint32_t b1e = sxtb16(wb), b1o = sxtb16Odd(wb);
    const uint32_t xa = load4(a0 + i);
    const uint32_t a0e = sxtb16(xa), a0o = sxtb16Odd(xa);
    s00 = smlad(a0e, b0e, s00);
    s00 = smlad(a0o, b0o, s00);
    s01 = smlad(a0e, b1e, s01);
    s01 = smlad(a0o, b1o, s01);
    const uint32_t xb = load4(a1 + i);
    const uint32_t a1e = sxtb16(xb), a1o = sxtb16Odd(xb);
    s10 = smlad(a1e, b0e, s10);
    s10 = smlad(a1o, b0o, s10);
    s11 = smlad(a1e, b1e, s11);
    s11 = smlad(a1o, b1o, s11);
  }
#else
  for (; i + 2 <= k; i += 2) {
    const int32_t x00 = a0[i], x01 = a0[i + 1], x10 = a1[i], x11 = a1[i + 1];
    const int32_t w00 = b0[i], w01 = b0[i + 1], w10 = b1[i], w11 = b1[i + 1];
    s00 = wrapAddU(s00, static_cast<uint32_t>(x00 * w00) + static_cast<uint32_t>(x01 * w01));
    s01 = wrapAddU(s01, static_cast<uint32_t>(x00 * w10) + static_cast<uint32_t>(x01 * w11));
    s10 = wrapAddU(s10, static_cast<uint32_t>(x10 * w00) + static_cast<uint32_t>(x11 * w01));
    s11 = wrapAddU(s11, static_cast<uint32_t>(x10 * w10) + static_cast<uint32_t>(x11 * w11));
  }
#endif
  for (; i < k; ++i) {
    const int32_t x0 = a0[i], x1 = a1[i], w0 = b0[i], w1 = b1[i];
    s00 = wrapAddU(s00, static_cast<uint32_t>(x0 * w0));
    s01 = wrapAddU(s01, static_cast<uint32_t>(x0 * w1));
    s10 = wrapAddU(s10, static_cast<uint32_t>(x1 * w0));
    s11 = wrapAddU(s11, static_cast<uint32_t>(x1 * w1));
  }
  acc[0] = s00;
  acc[1] = s01;
  acc[2] = s10;
  acc[3] = s11;
}

// dot2x2S8 for rows and columns `stride` bytes apart (a1 = a0 + stride, b1 = b0 + stride: a
// FULLY_CONNECTED's batch rows and weight rows, a pointwise CONV_2D's neighbouring pixels at
// stride 1). One offset register serves both second operands, which keeps the loop's pointers,
// sums and operands within a Cortex-M's registers.
inline void dot2x2S8Strided(const int8_t* a0, const int8_t* b0, int32_t stride, int32_t k,
                            int32_t acc[4]) {
#if HILSIM_OPT_DSP
  int32_t s00 = acc[0], s01 = acc[1], s10 = acc[2], s11 = acc[3];
  // A count down to zero instead of an end pointer: the flags of the decrement end the loop.
  for (int32_t n = k >> 2; n != 0; --n) {
    const uint32_t xb = load4(a0 + stride);
    const uint32_t xa = load4(a0);
    a0 += 4;
    const uint32_t wb = load4(b0 + stride);
    const uint32_t wa = load4(b0);
    b0 += 4;
    const uint32_t b0e = sxtb16(wa), b0o = sxtb16Odd(wa);
    const uint32_t a0e = sxtb16(xa), a0o = sxtb16Odd(xa);
    s00 = smlad(a0e, b0e, s00);
    s00 = smlad(a0o, b0o, s00);
    const uint32_t a1e = sxtb16(xb), a1o = sxtb16Odd(xb);
    s10 = smlad(a1e, b0e, s10);
    s10 = smlad(a1o, b0o, s10);
    const uint32_t b1e = sxtb16(wb), b1o = sxtb16Odd(wb);
    s01 = smlad(a0e, b1e, s01);
    s01 = smlad(a0o, b1o, s01);
    s11 = smlad(a1e, b1e, s11);
    s11 = smlad(a1o, b1o, s11);
  }
  acc[0] = s00;
  acc[1] = s01;
  acc[2] = s10;
  acc[3] = s11;
  const int32_t done = k & ~int32_t{3};
  if (done == k) return;
  dot2x2S8(a0, a0 + stride, b0, b0 + stride, k - done, acc);
#else
  dot2x2S8(a0, a0 + stride, b0, b0 + stride, k, acc);
#endif
}

// acc + sum_k a[k] * b[k] for int8 a and b.
inline int32_t dot1x1S8(const int8_t* a, const int8_t* b, int32_t k, int32_t acc) {
  int32_t i = 0;
#if HILSIM_OPT_DSP
  for (; i + 4 <= k; i += 4) {
    const uint32_t x = load4(a + i), w = load4(b + i);
    acc = smlad(sxtb16(x), sxtb16(w), acc);
    acc = smlad(sxtb16Odd(x), sxtb16Odd(w), acc);
  }
#else
  uint32_t s0 = 0, s1 = 0;
  for (; i + 4 <= k; i += 4) {
    s0 += static_cast<uint32_t>(int32_t{a[i]} * b[i]) +
          static_cast<uint32_t>(int32_t{a[i + 2]} * b[i + 2]);
    s1 += static_cast<uint32_t>(int32_t{a[i + 1]} * b[i + 1]) +
          static_cast<uint32_t>(int32_t{a[i + 3]} * b[i + 3]);
  }
  acc = wrapAddU(acc, s0 + s1);
#endif
  for (; i < k; ++i) acc = wrapAddU(acc, static_cast<uint32_t>(int32_t{a[i]} * b[i]));
  return acc;
}

// acc[c] += sum_k a[k] * b_c[k] for one int8 row a and four int8 columns b_c, each b_c
// `b_stride` bytes after the previous one.
inline void dot1x4S8(const int8_t* a, const int8_t* b, int32_t b_stride, int32_t k,
                     int32_t acc[4]) {
  const int8_t* b0 = b;
  const int8_t* b1 = b0 + b_stride;
  const int8_t* b2 = b1 + b_stride;
  const int8_t* b3 = b2 + b_stride;
  int32_t s0 = acc[0], s1 = acc[1], s2 = acc[2], s3 = acc[3];
  int32_t i = 0;
#if HILSIM_OPT_DSP
  // Two weight pointers and one stride instead of four pointers: with the four sums and the
  // operands this keeps the loop in registers on a Cortex-M.
  const int8_t* w02 = b0;
  const int8_t* const a_end = a + (k & ~int32_t{3});
  for (const int8_t* x_ptr = a; x_ptr != a_end; x_ptr += 4, w02 += 4) {
    const uint32_t x = load4(x_ptr);
    const uint32_t xe = sxtb16(x), xo = sxtb16Odd(x);
    uint32_t w = load4(w02);
    s0 = smlad(xe, sxtb16(w), s0);
    s0 = smlad(xo, sxtb16Odd(w), s0);
    w = load4(w02 + b_stride);
    s1 = smlad(xe, sxtb16(w), s1);
    s1 = smlad(xo, sxtb16Odd(w), s1);
    w = load4(w02 + 2 * b_stride);
    s2 = smlad(xe, sxtb16(w), s2);
    s2 = smlad(xo, sxtb16Odd(w), s2);
    w = load4(w02 + 3 * b_stride);
    s3 = smlad(xe, sxtb16(w), s3);
    s3 = smlad(xo, sxtb16Odd(w), s3);
  }
  i = k & ~int32_t{3};
#endif
  for (; i < k; ++i) {
    const int32_t x = a[i];
    s0 = wrapAddU(s0, static_cast<uint32_t>(x * b0[i]));
    s1 = wrapAddU(s1, static_cast<uint32_t>(x * b1[i]));
    s2 = wrapAddU(s2, static_cast<uint32_t>(x * b2[i]));
    s3 = wrapAddU(s3, static_cast<uint32_t>(x * b3[i]));
  }
  acc[0] = s0;
  acc[1] = s1;
  acc[2] = s2;
  acc[3] = s3;
}

// acc[2 * r + c] += sum_k a_r[k] * b_c[k] for two int16 columns a (im2col output, values
// x + input_offset) and two int8 filter rows b. With the DSP extension every group of four
// column values is stored as (a[0], a[2], a[1], a[3]) (im2colOrder), matching SXTB16's even and
// odd bytes of the filter word; the last k % 4 values are in natural order.
inline void dot2x2S16S8(const int16_t* a0, const int16_t* a1, const int8_t* b0, const int8_t* b1,
                        int32_t k, int32_t acc[4]) {
  int32_t s00 = acc[0], s01 = acc[1], s10 = acc[2], s11 = acc[3];
  int32_t i = 0;
#if HILSIM_OPT_DSP
  for (; i + 4 <= k; i += 4) {
    const uint32_t wa = load4(b0 + i), wb = load4(b1 + i);
    const uint32_t b0e = sxtb16(wa), b0o = sxtb16Odd(wa);
    const uint32_t b1e = sxtb16(wb), b1o = sxtb16Odd(wb);
    const uint32_t a0e = load4(a0 + i), a0o = load4(a0 + i + 2);
    s00 = smlad(a0e, b0e, s00);
    s00 = smlad(a0o, b0o, s00);
    s01 = smlad(a0e, b1e, s01);
    s01 = smlad(a0o, b1o, s01);
    const uint32_t a1e = load4(a1 + i), a1o = load4(a1 + i + 2);
    s10 = smlad(a1e, b0e, s10);
    s10 = smlad(a1o, b0o, s10);
    s11 = smlad(a1e, b1e, s11);
    s11 = smlad(a1o, b1o, s11);
  }
#else
  for (; i + 2 <= k; i += 2) {
    const int32_t x00 = a0[i], x01 = a0[i + 1], x10 = a1[i], x11 = a1[i + 1];
    const int32_t w00 = b0[i], w01 = b0[i + 1], w10 = b1[i], w11 = b1[i + 1];
    s00 = wrapAddU(s00, static_cast<uint32_t>(x00 * w00) + static_cast<uint32_t>(x01 * w01));
    s01 = wrapAddU(s01, static_cast<uint32_t>(x00 * w10) + static_cast<uint32_t>(x01 * w11));
    s10 = wrapAddU(s10, static_cast<uint32_t>(x10 * w00) + static_cast<uint32_t>(x11 * w01));
    s11 = wrapAddU(s11, static_cast<uint32_t>(x10 * w10) + static_cast<uint32_t>(x11 * w11));
  }
#endif
  for (; i < k; ++i) {
    const int32_t x0 = a0[i], x1 = a1[i], w0 = b0[i], w1 = b1[i];
    s00 = wrapAddU(s00, static_cast<uint32_t>(x0 * w0));
    s01 = wrapAddU(s01, static_cast<uint32_t>(x0 * w1));
    s10 = wrapAddU(s10, static_cast<uint32_t>(x1 * w0));
    s11 = wrapAddU(s11, static_cast<uint32_t>(x1 * w1));
  }
  acc[0] = s00;
  acc[1] = s01;
  acc[2] = s10;
  acc[3] = s11;
}

// acc + sum_k a[k] * b[k] for an int16 column a laid out as for dot2x2S16S8.
inline int32_t dot1x1S16S8(const int16_t* a, const int8_t* b, int32_t k, int32_t acc) {
  int32_t i = 0;
#if HILSIM_OPT_DSP
  for (; i + 4 <= k; i += 4) {
    const uint32_t w = load4(b + i);
    acc = smlad(load4(a + i), sxtb16(w), acc);
    acc = smlad(load4(a + i + 2), sxtb16Odd(w), acc);
  }
#endif
  for (; i < k; ++i) acc = wrapAddU(acc, static_cast<uint32_t>(int32_t{a[i]} * b[i]));
  return acc;
}

// Puts the int16 column a[0..k) into the order dot2x2S16S8 reads.
inline void im2colOrder(int16_t* a, int32_t k) {
#if HILSIM_OPT_DSP
  for (int32_t i = 0; i + 4 <= k; i += 4) {
    const int16_t t = a[i + 1];
    a[i + 1] = a[i + 2];
    a[i + 2] = t;
  }
#else
  (void)a;
  (void)k;
#endif
}

// Sum of n int8 values, wrapping.
inline int32_t sumS8(const int8_t* a, int32_t n) {
  uint32_t s = 0;
  for (int32_t i = 0; i < n; ++i) s += static_cast<uint32_t>(int32_t{a[i]});
  return static_cast<int32_t>(s);
}

}  // namespace hilsim::kernels::opt
