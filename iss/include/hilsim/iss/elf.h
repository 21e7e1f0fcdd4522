#pragma once
// A verified reader of ELF32 little-endian executables for Arm and RISC-V: loadable segments and
// symbols. Every offset, size and index is checked before use; a malformed file throws
// hilsim::InputError naming the file and what is wrong, never reads out of bounds.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hilsim::iss {

enum class ElfMachine { kArm, kRiscV };

struct ElfSegment {
  uint32_t vaddr = 0;
  uint32_t mem_bytes = 0;      // >= bytes.size(); the rest is zero-filled
  std::vector<uint8_t> bytes;  // the file's bytes of the segment
  bool executable = false;
  bool writable = false;
};

// A range of addresses [address, address + bytes).
struct ElfRange {
  uint32_t address = 0;
  uint32_t bytes = 0;
};

struct ElfSymbol {
  std::string name;
  uint32_t value = 0;  // address; for Arm Thumb functions without the Thumb bit
  uint32_t size = 0;
  bool function = false;
  bool thumb = false;  // an Arm function whose st_value had bit 0 set
};

// The build attributes of an executable (.ARM.attributes, .riscv.attributes): what the compiler
// says the code needs. Absent tags stay empty.
struct ElfAttributes {
  // Arm (ARM IHI 0045 "Addenda to the Arm ABI"): Tag_CPU_arch (6), Tag_CPU_arch_profile (7, 'M'
  // for microcontrollers), Tag_FP_arch (10), Tag_Advanced_SIMD_arch (12), Tag_MVE_arch (48).
  std::optional<uint32_t> cpu_arch, cpu_arch_profile, fp_arch, simd_arch, mve_arch;
  // RISC-V: Tag_RISCV_arch (5), e.g. "rv32i2p1_m2p0".
  std::string riscv_arch;
};

class ElfImage {
 public:
  // Parses `bytes`; `name` stands for the file in messages.
  static ElfImage parse(const std::vector<uint8_t>& bytes, const std::string& name);
  // Reads and parses a file. Throws InputError when it cannot be read or is malformed.
  static ElfImage fromFile(const std::string& path);

  const std::string& name() const { return name_; }
  ElfMachine machine() const { return machine_; }
  uint32_t entry() const { return entry_; }
  // True when the executable passes floating-point values in floating-point registers (the Arm
  // hard-float ABI, EF_ARM_ABI_FLOAT_HARD; a RISC-V single or double float ABI,
  // EF_RISCV_FLOAT_ABI).
  bool hardFloatAbi() const { return hard_float_abi_; }
  // PT_LOAD segments with a non-zero memory size, in file order.
  const std::vector<ElfSegment>& segments() const { return segments_; }
  const std::vector<ElfSymbol>& symbols() const { return symbols_; }
  // The allocated sections holding instructions (SHF_EXECINSTR), and those holding read-only data
  // (SHF_ALLOC without SHF_WRITE or SHF_EXECINSTR, with contents: .rodata and the like). Empty
  // for an image without section headers.
  const std::vector<ElfRange>& codeSections() const { return code_sections_; }
  const std::vector<ElfRange>& constantSections() const { return constant_sections_; }
  const ElfAttributes& attributes() const { return attributes_; }
  // The defined symbol called `name` (functions preferred), or nullopt.
  std::optional<ElfSymbol> findSymbol(const std::string& name) const;
  // The same, throwing InputError("<file>: no symbol '<name>'") when absent.
  ElfSymbol symbol(const std::string& name) const;

 private:
  std::string name_;
  ElfMachine machine_ = ElfMachine::kArm;
  uint32_t entry_ = 0;
  bool hard_float_abi_ = false;
  std::vector<ElfSegment> segments_;
  std::vector<ElfSymbol> symbols_;
  std::vector<ElfRange> code_sections_;
  std::vector<ElfRange> constant_sections_;
  ElfAttributes attributes_;
};

}  // namespace hilsim::iss
