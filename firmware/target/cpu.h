#pragma once
// The few core instructions the firmware needs, per architecture.

#include <stdint.h>

#if defined(__arm__)

inline void maskInterrupts() {
  __asm__ volatile("cpsid i" ::: "memory");
}
inline void unmaskInterrupts() {
  __asm__ volatile("cpsie i" ::: "memory");
}
inline void waitForInterrupt() {
  __asm__ volatile("wfi" ::: "memory");
}
inline void breakpoint() {
  __asm__ volatile("bkpt #0" ::: "memory");
}

// Floating-point instructions fault until CPACR grants CP10 and CP11 (full access).
inline void enableFpu() {
#if defined(__ARM_FP)
  constexpr uintptr_t kCpacr = 0xE000ED88;
  *reinterpret_cast<volatile uint32_t*>(kCpacr) |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
}

#elif defined(__riscv)

// mstatus.MIE (bit 3) gates machine interrupts; WFI wakes on a pending one whatever its value.
// rv32im leaves out Zicsr (the CSR instructions), so the assembler is told it is there.
#define HILSIM_WITH_ZICSR(instruction) \
  ".option push\n.option arch, +zicsr\n" instruction "\n.option pop"
inline void maskInterrupts() {
  __asm__ volatile(HILSIM_WITH_ZICSR("csrci mstatus, 8")::: "memory");
}
inline void unmaskInterrupts() {
  __asm__ volatile(HILSIM_WITH_ZICSR("csrsi mstatus, 8")::: "memory");
}
inline void waitForInterrupt() {
  __asm__ volatile("wfi" ::: "memory");
}
inline void breakpoint() {
  __asm__ volatile("ebreak" ::: "memory");
}

// rv32im has no floating-point unit.
inline void enableFpu() {}

#else
#error "hilsim firmware targets Arm Cortex-M and RV32"
#endif
