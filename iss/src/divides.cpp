// Divide timing: the cycles depend on the operands, so the ISS times divides with a code hook on
// each divide instruction. The hooks must exist before the code is translated, so the candidates
// are found by their encodings when an image is loaded.

#include <algorithm>

#include "block_timing.h"

namespace hilsim::iss {
namespace {

uint32_t quotientMagnitude(uint32_t dividend, uint32_t divisor, bool is_signed) {
  if (divisor == 0) return 0;
  if (!is_signed) return dividend / divisor;
  const int64_t q = int64_t(int32_t(dividend)) / int64_t(int32_t(divisor));
  return uint32_t(q < 0 ? -q : q);
}

uint32_t bitLength(uint32_t v) {
  return v == 0 ? 0 : 32 - uint32_t(__builtin_clz(v));
}

}  // namespace

// Cortex-M4 TRM, Table 3-1: SDIV/UDIV take 2 to 12 cycles, terminating early by the operands'
// leading zeros and ones. Spread linearly over the quotient's bit length: 2 for a zero quotient
// (or division by zero), 12 for a 32-bit quotient.
uint32_t armDivideCycles(uint32_t dividend, uint32_t divisor, bool is_signed) {
  const uint32_t bits = bitLength(quotientMagnitude(dividend, divisor, is_signed));
  return 2 + (10 * bits + 31) / 32;
}

// E31 manual: DIV/DIVU/REM/REMU have a result latency of 2 to 33 cycles by the operand values,
// with a divider producing one quotient bit per cycle: one cycle plus one per quotient bit (at
// least one); division by zero is recognized at once.
uint32_t e31DivideLatency(uint32_t dividend, uint32_t divisor, bool is_signed) {
  if (divisor == 0) return 2;
  return 1 + std::max<uint32_t>(1, bitLength(quotientMagnitude(dividend, divisor, is_signed)));
}

std::vector<DivideSite> scanDivides(Core core, uint32_t base, const uint8_t* code, size_t bytes) {
  std::vector<DivideSite> sites;
  if (core == Core::kCortexM0Plus) return sites;  // ARMv6-M has no divide instruction
  for (size_t i = 0; i + 4 <= bytes; i += 2) {
    const uint32_t lo = uint32_t(code[i]) | uint32_t(code[i + 1]) << 8;
    const uint32_t hi = uint32_t(code[i + 2]) | uint32_t(code[i + 3]) << 8;
    DivideSite site;
    site.address = base + uint32_t(i);
    if (core == Core::kRv32im) {
      const uint32_t w = lo | hi << 16;
      // OP with funct7 = 1 (M extension) and funct3 4..7: DIV, DIVU, REM, REMU.
      if ((w & 0x7f) != 0x33 || (w >> 25) != 1 || ((w >> 12) & 7) < 4) continue;
      site.dividend_reg = uint8_t((w >> 15) & 31);
      site.divisor_reg = uint8_t((w >> 20) & 31);
      const uint32_t funct3 = (w >> 12) & 7;
      site.is_signed = funct3 == 4 || funct3 == 6;
    } else {
      // Thumb-2 SDIV (FB90 F0F0 pattern) and UDIV (FBB0): Rn in the first halfword, Rm in the
      // second.
      const uint32_t op = lo & 0xfff0;
      if ((op != 0xfb90 && op != 0xfbb0) || (hi & 0xf0f0) != 0xf0f0) continue;
      site.dividend_reg = uint8_t(lo & 15);
      site.divisor_reg = uint8_t(hi & 15);
      site.is_signed = op == 0xfb90;
    }
    sites.push_back(site);
  }
  return sites;
}

}  // namespace hilsim::iss
