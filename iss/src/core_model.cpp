// Per-core engine configuration and defaults. Every number is derived in iss/README.md.
// Flash wait states of the typical part at the preset's clock (iss/README.md, "Wait states"):
// STM32G0 at 48 MHz (RM0444), STM32L4R5 at 120 MHz (RM0432), STM32U5 at 128 MHz (RM0456); the
// E31's ITIM and DTIM have none, and every part's SRAM runs at the core clock.
// Their flash memory systems (iss/README.md, "Flash memory system"): the STM32G0's prefetch and
// 2 x 64-bit instruction cache (RM0444), the STM32L4R5's ART accelerator with 1 KB of instruction
// and 256 bytes of data cache in 64-bit lines, prefetch off as ST's HAL leaves it (RM0432), the
// STM32U5's 8 KB 2-way ICACHE of 16-byte lines on the code bus, which serves literal and constant
// loads too (RM0456), and the FE310's 16 KB 2-way instruction cache of 32-byte lines (FE310-G002
// manual).

#include "hilsim/iss/core_model.h"

#include <unicorn/unicorn.h>

namespace hilsim::iss {
namespace {

constexpr int kArmMClass = UC_MODE_THUMB | UC_MODE_MCLASS;

const CoreInfo kCores[] = {
    // Exception entry 15 (Cortex-M0+ TRM 3.6.1); exit 11 is an estimate (POP of 8 words with PC).
    {Core::kCortexM0Plus,
     "cortex-m0plus",
     {UC_ARCH_ARM, kArmMClass, UC_CPU_ARM_CORTEX_M0},
     true,
     15,
     11,
     1,
     0,
     {8, true, 2, 2, 0, 1, false}},
    // Exception entry 12, exit 10 (Cortex-M4 TRM; without FPU context stacking).
    {Core::kCortexM4F,
     "cortex-m4f",
     {UC_ARCH_ARM, kArmMClass, UC_CPU_ARM_CORTEX_M4},
     true,
     12,
     10,
     5,
     0,
     {8, false, 128, 4, 32, 4, false}},
    // Exception entry and exit as Cortex-M4.
    {Core::kCortexM33,
     "cortex-m33",
     {UC_ARCH_ARM, kArmMClass, UC_CPU_ARM_CORTEX_M33},
     true,
     12,
     10,
     3,
     0,
     {16, true, 512, 2, 0, 1, true}},
    // SiFive E31. Exception entry: 4 cycles of
    // interrupt latency plus 16 stores of a trap wrapper; exit: 16 loads, mret and its refill.
    {Core::kRv32im,
     "rv32im",
     {UC_ARCH_RISCV, UC_MODE_RISCV32, UC_CPU_RISCV32_SIFIVE_E31},
     false,
     20,
     20,
     0,
     0,
     {32, false, 512, 2, 0, 1, false}},
};

}  // namespace

std::optional<Core> coreForPreset(const std::string& preset) {
  for (const CoreInfo& info : kCores)
    if (preset == info.preset) return info.core;
  return std::nullopt;
}

const CoreInfo& coreInfo(Core core) {
  for (const CoreInfo& info : kCores)
    if (info.core == core) return info;
  return kCores[0];
}

std::vector<std::string> issPresetNames() {
  std::vector<std::string> names;
  for (const CoreInfo& info : kCores) names.push_back(info.preset);
  return names;
}

}  // namespace hilsim::iss
