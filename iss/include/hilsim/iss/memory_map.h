#pragma once
// The host MCU's memory map: the same for every CPU preset. The firmware's linker scripts place
// their sections by these addresses, and the ISS maps its memories at them.

#include <cstdint>

namespace hilsim::iss {

// Flash: firmware code and read-only data.
constexpr uint32_t kFlashCodeBase = 0x0000'0000;
constexpr uint32_t kFlashCodeBytes = 16u << 20;
// Flash: the model's constant buffers (weights), read-only.
constexpr uint32_t kModelFlashBase = 0x0100'0000;
constexpr uint32_t kModelFlashBytes = 240u << 20;
// SRAM: firmware .data/.bss and the stack, which grows down from kStackTop.
constexpr uint32_t kFirmwareSramBase = 0x2000'0000;
constexpr uint32_t kFirmwareSramBytes = 1u << 20;
constexpr uint32_t kStackTop = kFirmwareSramBase + kFirmwareSramBytes;
// SRAM: kernel parameters prepared once (the persistent pool).
constexpr uint32_t kPersistentSramBase = 0x2010'0000;
constexpr uint32_t kPersistentSramBytes = 15u << 20;
// SRAM: the tensor arena. It starts 512 KB into its 16 MB so that its pages and the model
// flash's, both at the start of their regions, do not share entries of the engine's direct-mapped
// data TLB (iss/README.md, "Engine notes").
constexpr uint32_t kArenaSramBase = 0x2108'0000;
constexpr uint32_t kArenaSramBytes = (240u << 20) - (512u << 10);
// The accelerator's register block (MMIO).
constexpr uint32_t kAcceleratorRegsBase = 0x4000'0000;
constexpr uint32_t kAcceleratorRegsBytes = 4u << 10;
// The accelerator-visible system memory window (MMIO).
constexpr uint32_t kSystemWindowBase = 0x6000'0000;

// Arm cores only: the System Control Space page (CPACR, the FPU's enable, lives at 0xE000ED88).
// The ISS maps it as plain memory; the engine itself grants the FPU access.
constexpr uint32_t kSystemControlBase = 0xE000'E000;
constexpr uint32_t kSystemControlBytes = 4u << 10;

// Functions called through Cpu::call return here: a page the ISS maps itself, between the model
// flash and the SRAM, that firmware never uses.
constexpr uint32_t kReturnSentinel = 0x1FFF'F000;

// True when [address, address + bytes) lies inside [base, base + size).
constexpr bool inRegion(uint64_t address, uint64_t bytes, uint64_t base, uint64_t size) {
  return address >= base && bytes <= size && address - base <= size - bytes;
}

}  // namespace hilsim::iss
