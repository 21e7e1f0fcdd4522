#pragma once
// The few SIMD primitives the optimized kernels are written in. On cores with the Arm DSP
// extension (__ARM_FEATURE_DSP: Cortex-M4, M7, M33, M55) they are the ACLE intrinsics of
// <arm_acle.h> (SXTB16, SMLAD, SADD16, SMLABB, SMLATT, SMULBB, SMULTT); elsewhere (Cortex-M0+,
// RV32, the host) portable C with the same results. Every accumulation wraps modulo 2^32 like
// TensorFlow Lite Micro's int32 accumulator (SMLAD's sum wraps too; it only sets the sticky Q
// flag). Freestanding.

#include <cstdint>
#include <cstring>

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
#define HILSIM_OPT_DSP 1
#elif defined(HILSIM_OPT_EMULATE_DSP)
// The DSP code paths on a host, with the instructions emulated in C (tests only).
#define HILSIM_OPT_DSP 1
#else
#define HILSIM_OPT_DSP 0
#endif

namespace hilsim::kernels::opt {

// Four bytes from any address (unaligned word loads are allowed on Armv7E-M and Armv8-M
// Mainline; the compiler emits byte loads where they are not).
inline uint32_t load4(const void* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

inline int32_t wrapAddU(int32_t a, uint32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + b);
}

#if HILSIM_OPT_DSP && defined(HILSIM_OPT_EMULATE_DSP) && !defined(__ARM_FEATURE_DSP)
// The instructions' definitions (Arm ARM, Armv7-M): halfword lanes, sums modulo 2^32.
inline uint32_t pack16(int32_t lo, int32_t hi) {
  return (static_cast<uint32_t>(lo) & 0xFFFFu) | (static_cast<uint32_t>(hi) << 16);
}
inline int32_t lo16(uint32_t x) {
  return static_cast<int16_t>(x & 0xFFFFu);
}
inline int32_t hi16(uint32_t x) {
  return static_cast<int16_t>(x >> 16);
}
inline uint32_t sxtb16(uint32_t x) {
  return pack16(static_cast<int8_t>(x & 0xFFu), static_cast<int8_t>((x >> 16) & 0xFFu));
}
inline uint32_t sxtb16Odd(uint32_t x) {
  return sxtb16((x >> 8) | (x << 24));
}
inline int32_t smlad(uint32_t a, uint32_t b, int32_t acc) {
  return static_cast<int32_t>(static_cast<uint32_t>(acc) +
                              static_cast<uint32_t>(lo16(a) * lo16(b)) +
                              static_cast<uint32_t>(hi16(a) * hi16(b)));
}
inline uint32_t sxtab16(uint32_t add16, uint32_t x) {
  const uint32_t e = sxtb16(x);
  return pack16(lo16(add16) + lo16(e), hi16(add16) + hi16(e));
}
inline uint32_t sxtab16Odd(uint32_t add16, uint32_t x) {
  return sxtab16(add16, (x >> 8) | (x << 24));
}
inline int32_t smlabb(uint32_t a, uint32_t b, int32_t acc) {
  return static_cast<int32_t>(static_cast<uint32_t>(acc) +
                              static_cast<uint32_t>(lo16(a) * lo16(b)));
}
inline int32_t smlatt(uint32_t a, uint32_t b, int32_t acc) {
  return static_cast<int32_t>(static_cast<uint32_t>(acc) +
                              static_cast<uint32_t>(hi16(a) * hi16(b)));
}
inline uint32_t max4S8(uint32_t a, uint32_t b) {
  uint32_t r = 0;
  for (int lane = 0; lane < 4; ++lane) {
    const int8_t x = static_cast<int8_t>(a >> (8 * lane)), y = static_cast<int8_t>(b >> (8 * lane));
    r |= static_cast<uint32_t>(static_cast<uint8_t>(x > y ? x : y)) << (8 * lane);
  }
  return r;
}
inline uint32_t sadd16(uint32_t a, uint32_t b) {
  return pack16(lo16(a) + lo16(b), hi16(a) + hi16(b));
}
inline int32_t smulbb(uint32_t a, uint32_t b) {
  return lo16(a) * lo16(b);
}
inline int32_t smultt(uint32_t a, uint32_t b) {
  return hi16(a) * hi16(b);
}
#elif HILSIM_OPT_DSP
// Bytes 0 and 2 of x sign-extended into the two halfwords.
inline uint32_t sxtb16(uint32_t x) {
  return static_cast<uint32_t>(__sxtb16(static_cast<int32_t>(x)));
}
// Bytes 1 and 3 of x sign-extended into the two halfwords: SXTB16 with its ROR #8 operand
// (written out: GCC 12 does not fold a rotate into __sxtb16's operand).
inline uint32_t sxtb16Odd(uint32_t x) {
  uint32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(x));
  return r;
}
// acc + lo(a) * lo(b) + hi(a) * hi(b), halfwords signed.
inline int32_t smlad(uint32_t a, uint32_t b, int32_t acc) {
  return __smlad(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
}
// Bytes 0 and 2 of x sign-extended and added to the two halfwords of `add16` (SXTAB16).
inline uint32_t sxtab16(uint32_t add16, uint32_t x) {
  return static_cast<uint32_t>(__sxtab16(static_cast<int32_t>(add16), static_cast<int32_t>(x)));
}
// Bytes 1 and 3 of x sign-extended and added to the two halfwords of `add16` (SXTAB16, ROR #8).
inline uint32_t sxtab16Odd(uint32_t add16, uint32_t x) {
  uint32_t r;
  __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(add16), "r"(x));
  return r;
}
// acc + lo(a) * lo(b) (SMLABB) and acc + hi(a) * hi(b) (SMLATT).
inline int32_t smlabb(uint32_t a, uint32_t b, int32_t acc) {
  return __smlabb(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
}
inline int32_t smlatt(uint32_t a, uint32_t b, int32_t acc) {
  return __smlatt(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
}
// The byte-wise signed maximum of a and b: SSUB8 sets a GE flag per byte where a >= b, SEL
// picks those bytes of a and the others of b. One asm block keeps the two together (SEL reads
// the flags SSUB8 wrote).
inline uint32_t max4S8(uint32_t a, uint32_t b) {
  uint32_t r;
  __asm__("ssub8 %0, %1, %2\n\tsel %0, %1, %2" : "=&r"(r) : "r"(a), "r"(b) : "cc");
  return r;
}
// Halfword-wise a + b modulo 2^16 (SADD16).
inline uint32_t sadd16(uint32_t a, uint32_t b) {
  return static_cast<uint32_t>(__sadd16(static_cast<int32_t>(a), static_cast<int32_t>(b)));
}
// lo(a) * lo(b) (SMULBB) and hi(a) * hi(b) (SMULTT), halfwords signed (written out: GCC 12's
// <arm_acle.h> has no intrinsics for them).
inline int32_t smulbb(uint32_t a, uint32_t b) {
  int32_t r;
  __asm__("smulbb %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
inline int32_t smultt(uint32_t a, uint32_t b) {
  int32_t r;
  __asm__("smultt %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
#endif

#if HILSIM_OPT_DSP
// The signed halfwords of a word, and a halfword pair of one value.
inline int32_t lowHalf(uint32_t x) {
  return static_cast<int16_t>(x & 0xFFFFu);
}
inline int32_t highHalf(uint32_t x) {
  return static_cast<int32_t>(x) >> 16;
}
inline uint32_t halfPair(int32_t v) {
  return (static_cast<uint32_t>(v) & 0xFFFFu) * 0x10001u;
}
#endif

}  // namespace hilsim::kernels::opt
