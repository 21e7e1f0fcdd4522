#include "hilsim/kernels/optimized/elementwise.h"

#include <cstddef>
#include <cstring>

#include "hilsim/kernels/add.h"
#include "hilsim/kernels/mul.h"
#include "hilsim/kernels/optimized/requant.h"
#include "hilsim/kernels/optimized/simd.h"

namespace hilsim::kernels::opt {
namespace {

inline int32_t wrapAdd32(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

inline int32_t clampTo(int32_t v, int32_t lo, int32_t hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

inline void store4(int8_t* out, int32_t r0, int32_t r1, int32_t r2, int32_t r3) {
  const uint32_t word =
      (static_cast<uint32_t>(r0) & 0xFFu) | ((static_cast<uint32_t>(r1) & 0xFFu) << 8) |
      ((static_cast<uint32_t>(r2) & 0xFFu) << 16) | (static_cast<uint32_t>(r3) << 24);
  std::memcpy(out, &word, 4);
}

// Runs the loops of planBroadcast (hilsim/kernels/broadcast.h) in the reference's order, each
// innermost run by one of three run kernels: both(a, b, out, n) where both operands vary,
// fixed1(a, b, out, n) where input 1 repeats along the run (a points at its one value),
// fixed2(a, b, out, n) where input 2 does.
template <typename Both, typename Fixed1, typename Fixed2>
void binaryRuns(const BroadcastLoops& loops, const int8_t* in1, const int8_t* in2, int8_t* out,
                Both both, Fixed1 fixed1, Fixed2 fixed2) {
  const bool in1_repeats = loops.stride1[loops.rank - 1] == 0;
  const bool in2_repeats = loops.stride2[loops.rank - 1] == 0;
  forEachBroadcastRun(loops, in1, in2, out,
                      [&](const int8_t* a, const int8_t* b, int8_t* o, int64_t n64) {
                        const auto n = static_cast<int32_t>(n64);
                        if (in1_repeats)
                          fixed1(a, b, o, n);
                        else if (in2_repeats)
                          fixed2(a, b, o, n);
                        else
                          both(a, b, o, n);
                      });
}

bool runsFitInt32(const BroadcastLoops& loops) {
  return loops.extent[loops.rank - 1] <= INT32_MAX;
}

bool offsetFitsHalfword(int32_t offset) {
  return offset >= -256 && offset <= 256;
}

// ---- ADD ----

// The ADD parameters with every shift as a non-negative right shift.
struct AddScale {
  int32_t offset1, offset2, left_shift;
  int32_t multiplier1, right1, multiplier2, right2;
  int32_t out_multiplier, out_right, out_offset, act_min, act_max;
};

// MultiplyByQuantizedMultiplierSmallerThanOneExp for a multiplier other than INT32_MIN (so the
// doubling high multiply cannot saturate): one 64-bit product, then the rounding right shift.
inline int32_t scaleDown(int32_t x, int32_t multiplier, int32_t right) {
  const auto high =
      static_cast<int32_t>((int64_t{x} * int64_t{multiplier} + (int64_t{1} << 30)) >> 31);
  const int32_t mask = static_cast<int32_t>((uint32_t{1} << right) - 1u);
  const int32_t remainder = high & mask;
  const int32_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
  return (high >> right) + (remainder > threshold ? 1 : 0);
}

// A centred operand value on the common scale.
inline int32_t addend(int32_t centred, int32_t left_shift, int32_t multiplier, int32_t right) {
  return scaleDown(static_cast<int32_t>(static_cast<uint32_t>(centred) << left_shift), multiplier,
                   right);
}

inline int32_t addOutput(const AddScale& s, int32_t raw_sum) {
  return clampTo(wrapAdd32(scaleDown(raw_sum, s.out_multiplier, s.out_right), s.out_offset),
                 s.act_min, s.act_max);
}

inline int32_t addBoth(const AddScale& s, int32_t centred1, int32_t centred2) {
  return addOutput(s, wrapAdd32(addend(centred1, s.left_shift, s.multiplier1, s.right1),
                                addend(centred2, s.left_shift, s.multiplier2, s.right2)));
}

void addRun(const AddScale& s, const int8_t* a, const int8_t* b, int8_t* out, int32_t n) {
  int32_t i = 0;
#if HILSIM_OPT_DSP
  const uint32_t off1 = halfPair(s.offset1);
  const uint32_t off2 = halfPair(s.offset2);
  for (; i + 4 <= n; i += 4) {
    const uint32_t wa = load4(a + i);
    const uint32_t wb = load4(b + i);
    const uint32_t a02 = sxtab16(off1, wa), a13 = sxtab16Odd(off1, wa);
    const uint32_t b02 = sxtab16(off2, wb), b13 = sxtab16Odd(off2, wb);
    store4(out + i, addBoth(s, lowHalf(a02), lowHalf(b02)), addBoth(s, lowHalf(a13), lowHalf(b13)),
           addBoth(s, highHalf(a02), highHalf(b02)), addBoth(s, highHalf(a13), highHalf(b13)));
  }
#else
  for (; i + 2 <= n; i += 2) {
    const int32_t r0 = addBoth(s, a[i] + s.offset1, b[i] + s.offset2);
    const int32_t r1 = addBoth(s, a[i + 1] + s.offset1, b[i + 1] + s.offset2);
    out[i] = static_cast<int8_t>(r0);
    out[i + 1] = static_cast<int8_t>(r1);
  }
#endif
  for (; i < n; ++i) out[i] = static_cast<int8_t>(addBoth(s, a[i] + s.offset1, b[i] + s.offset2));
}

// One operand repeats: `fixed` is its value on the common scale; `v` varies with offset,
// multiplier and right shift of its own.
void addRunFixed(const AddScale& s, int32_t fixed, const int8_t* v, int32_t offset,
                 int32_t multiplier, int32_t right, int8_t* out, int32_t n) {
  const auto one = [&](int32_t centred) {
    return addOutput(s, wrapAdd32(fixed, addend(centred, s.left_shift, multiplier, right)));
  };
  int32_t i = 0;
#if HILSIM_OPT_DSP
  const uint32_t off = halfPair(offset);
  for (; i + 4 <= n; i += 4) {
    const uint32_t w = load4(v + i);
    const uint32_t e = sxtab16(off, w), o = sxtab16Odd(off, w);
    store4(out + i, one(lowHalf(e)), one(lowHalf(o)), one(highHalf(e)), one(highHalf(o)));
  }
#else
  for (; i + 2 <= n; i += 2) {
    const int32_t r0 = one(v[i] + offset);
    const int32_t r1 = one(v[i + 1] + offset);
    out[i] = static_cast<int8_t>(r0);
    out[i + 1] = static_cast<int8_t>(r1);
  }
#endif
  for (; i < n; ++i) out[i] = static_cast<int8_t>(one(v[i] + offset));
}

// ---- MUL ----

struct MulScale {
  int32_t offset1, offset2, multiplier, left, right, out_offset, act_min, act_max;
};

inline int32_t mulOutput(const MulScale& s, int32_t product) {
  return clampTo(wrapAdd32(s.out_offset, requantizeShifts(product, s.multiplier, s.left, s.right)),
                 s.act_min, s.act_max);
}

void mulRun(const MulScale& s, const int8_t* a, const int8_t* b, int8_t* out, int32_t n) {
  int32_t i = 0;
#if HILSIM_OPT_DSP
  const uint32_t off1 = halfPair(s.offset1);
  const uint32_t off2 = halfPair(s.offset2);
  for (; i + 4 <= n; i += 4) {
    const uint32_t wa = load4(a + i);
    const uint32_t wb = load4(b + i);
    const uint32_t a02 = sxtab16(off1, wa), a13 = sxtab16Odd(off1, wa);
    const uint32_t b02 = sxtab16(off2, wb), b13 = sxtab16Odd(off2, wb);
    store4(out + i, mulOutput(s, smulbb(a02, b02)), mulOutput(s, smulbb(a13, b13)),
           mulOutput(s, smultt(a02, b02)), mulOutput(s, smultt(a13, b13)));
  }
#else
  for (; i + 2 <= n; i += 2) {
    const int32_t r0 = mulOutput(s, (a[i] + s.offset1) * (b[i] + s.offset2));
    const int32_t r1 = mulOutput(s, (a[i + 1] + s.offset1) * (b[i + 1] + s.offset2));
    out[i] = static_cast<int8_t>(r0);
    out[i + 1] = static_cast<int8_t>(r1);
  }
#endif
  for (; i < n; ++i)
    out[i] = static_cast<int8_t>(mulOutput(s, (a[i] + s.offset1) * (b[i] + s.offset2)));
}

// One operand repeats with centred value `fixed`; `v` varies with `offset`. The product is
// commutative, so either operand may be the fixed one.
void mulRunFixed(const MulScale& s, int32_t fixed, const int8_t* v, int32_t offset, int8_t* out,
                 int32_t n) {
  int32_t i = 0;
#if HILSIM_OPT_DSP
  const uint32_t off = halfPair(offset);
  const uint32_t pair = halfPair(fixed);
  for (; i + 4 <= n; i += 4) {
    const uint32_t w = load4(v + i);
    const uint32_t e = sxtab16(off, w), o = sxtab16Odd(off, w);
    store4(out + i, mulOutput(s, smulbb(e, pair)), mulOutput(s, smulbb(o, pair)),
           mulOutput(s, smultt(e, pair)), mulOutput(s, smultt(o, pair)));
  }
#else
  for (; i + 2 <= n; i += 2) {
    const int32_t r0 = mulOutput(s, fixed * (v[i] + offset));
    const int32_t r1 = mulOutput(s, fixed * (v[i + 1] + offset));
    out[i] = static_cast<int8_t>(r0);
    out[i + 1] = static_cast<int8_t>(r1);
  }
#endif
  for (; i < n; ++i) out[i] = static_cast<int8_t>(mulOutput(s, fixed * (v[i] + offset)));
}

}  // namespace

void addInt8(const QuantizedAddParams& p, const BroadcastLoops& loops, const int8_t* input1,
             const int8_t* input2, int8_t* output) {
  if (loops.rank <= 0) return;
  const auto rightShift = [](int32_t shift) { return shift <= 0 && shift >= -31; };
  if (!runsFitInt32(loops) || !offsetFitsHalfword(p.input1_offset) ||
      !offsetFitsHalfword(p.input2_offset) || p.left_shift < 0 || p.left_shift > 31 ||
      !rightShift(p.input1_shift) || !rightShift(p.input2_shift) || !rightShift(p.output_shift) ||
      p.input1_multiplier == INT32_MIN || p.input2_multiplier == INT32_MIN ||
      p.output_multiplier == INT32_MIN) {
    kernels::addInt8(p, loops, input1, input2, output);
    return;
  }
  const AddScale s{p.input1_offset, p.input2_offset,     p.left_shift,    p.input1_multiplier,
                   -p.input1_shift, p.input2_multiplier, -p.input2_shift, p.output_multiplier,
                   -p.output_shift, p.output_offset,     p.act_min,       p.act_max};
  binaryRuns(
      loops, input1, input2, output,
      [&s](const int8_t* a, const int8_t* b, int8_t* out, int32_t n) { addRun(s, a, b, out, n); },
      [&s](const int8_t* a, const int8_t* b, int8_t* out, int32_t n) {
        const int32_t fixed = addend(*a + s.offset1, s.left_shift, s.multiplier1, s.right1);
        addRunFixed(s, fixed, b, s.offset2, s.multiplier2, s.right2, out, n);
      },
      [&s](const int8_t* a, const int8_t* b, int8_t* out, int32_t n) {
        const int32_t fixed = addend(*b + s.offset2, s.left_shift, s.multiplier2, s.right2);
        addRunFixed(s, fixed, a, s.offset1, s.multiplier1, s.right1, out, n);
      });
}

void mulInt8(const QuantizedMulParams& p, const BroadcastLoops& loops, const int8_t* input1,
             const int8_t* input2, int8_t* output) {
  if (loops.rank <= 0) return;
  if (!runsFitInt32(loops) || !offsetFitsHalfword(p.input1_offset) ||
      !offsetFitsHalfword(p.input2_offset) || p.output_shift < -31 || p.output_shift > 31) {
    kernels::mulInt8(p, loops, input1, input2, output);
    return;
  }
  const MulScale s{p.input1_offset,
                   p.input2_offset,
                   p.output_multiplier,
                   p.output_shift > 0 ? p.output_shift : 0,
                   p.output_shift > 0 ? 0 : -p.output_shift,
                   p.output_offset,
                   p.act_min,
                   p.act_max};
  binaryRuns(
      loops, input1, input2, output,
      [&s](const int8_t* a, const int8_t* b, int8_t* out, int32_t n) { mulRun(s, a, b, out, n); },
      [&s](const int8_t* a, const int8_t* b, int8_t* out, int32_t n) {
        mulRunFixed(s, *a + s.offset1, b, s.offset2, out, n);
      },
      [&s](const int8_t* a, const int8_t* b, int8_t* out, int32_t n) {
        mulRunFixed(s, *b + s.offset2, a, s.offset1, out, n);
      });
}

}  // namespace hilsim::kernels::opt
