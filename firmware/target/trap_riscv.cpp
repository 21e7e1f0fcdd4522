// The RV32 trap vector (for mtvec, direct mode): a machine interrupt runs hs_irq_handler, with
// the registers saved and restored and MRET at the end by the interrupt attribute. Anything else
// stops at hs_halt.

#include <cstdint>

#include "cpu.h"
#include "entries.h"

extern "C" __attribute__((interrupt("machine"))) void hs_trap_vector(void) {
  uint32_t cause;
  __asm__ volatile(HILSIM_WITH_ZICSR("csrr %0, mcause") : "=r"(cause));
  if (cause & 0x80000000u)
    hs_irq_handler();
  else
    hs_halt();
}
