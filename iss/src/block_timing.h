#pragma once
// The static timing of one basic block, computed once when the block is first executed, and the
// dynamic rules applied when blocks follow each other (iss/README.md has every number's source).

#include <cstdint>
#include <functional>
#include <vector>

#include "hilsim/iss/core_model.h"
#include "hilsim/iss/cpu.h"

namespace hilsim::iss {

// The timing rules read the core and the wait states of the CPU's options.
using TimingParams = CpuOptions;

// How to find the address a load or store used, to name the instruction of a memory fault
// (Unicorn reports the block, not the instruction). Register numbers are core register numbers.
struct MemoryOperand {
  uint32_t address = 0;  // the instruction's address
  int base = -1;         // -1: not a memory instruction
  int index = -1;
  int32_t displacement = 0;
  uint8_t index_shift = 0;
  bool post_indexed = false;  // the access uses the base before the offset is added
  bool descending = false;    // LDMDB/STMDB/PUSH: the accesses lie below the base
  uint32_t bytes = 0;         // bytes accessed (4 * N for multiple transfers)
};

// A divide instruction whose cycles depend on its operands (timed by a code hook).
struct DivideSite {
  uint32_t address = 0;
  uint8_t dividend_reg = 0;  // core register numbers
  uint8_t divisor_reg = 0;
  bool is_signed = false;
  // E31: cycles from the divide's issue to the first instruction that waits for it (its result
  // or the divider); a divide longer than that stalls by the difference. Cortex-M: unused (the
  // divide blocks the pipeline).
  uint32_t slack_cycles = 0;
};

// Returned as the fall-through of blocks whose last instruction always transfers control.
constexpr uint32_t kNoFallthrough = 0xFFFF'FFFF;

// The fields every block hook reads come first, so that they share the first two cache lines.
struct alignas(64) BlockTiming {
  uint32_t start = 0;
  uint32_t bytes = 0;
  uint32_t instructions = 0;
  // Every static cost of the block: the instruction table, pipelining and interlocks inside the
  // block, not-taken branches, SRAM wait states, divides at their minimum.
  uint32_t base_cycles = 0;
  // The address after the block when its last instruction may fall through.
  uint32_t fallthrough = kNoFallthrough;
  // Cortex-M: added when the next block is not the fall-through (the branch was taken).
  uint32_t taken_cycles = 0;
  // Added when this block is entered other than by falling through: (Cortex-M4/M33) a 32-bit
  // target instruction that is not word aligned. Flash wait states are the flash memory
  // system's (flash_system.h).
  uint32_t nonseq_entry_cycles = 0;
  // E31: the block ends in a conditional branch at branch_pc (predicted by the branch history).
  bool conditional_branch = false;
  bool uses_flash = false;     // fetch_lines or literal_lines
  uint16_t literal_count = 0;  // literal_lines.size()
  uint32_t branch_pc = 0;
  // Flash memory system (flash_system.h): the flash lines the block's instructions span (none
  // outside the flash code region), the lines its literal loads read, and the cache fill counts
  // at which every one of them last hit.
  uint32_t fetch_first_line = 0;
  uint32_t fetch_lines = 0;
  // E31: results still in flight when the block ends (tail) and the registers the block reads
  // before writing them, with the cycle of their first read (head). Bit 0 stands for the
  // multiplier/divider unit (x0 is never a dependency).
  uint32_t tail_mask = 0;
  uint32_t head_mask = 0;
  mutable uint64_t flash_epoch = ~uint64_t{0};       // instruction cache fills
  mutable uint64_t flash_data_epoch = ~uint64_t{0};  // data cache fills (literal lines)
  // The blocks that last followed this one (key: address << 32 | size), most recent first: a
  // loop's block is found from its predecessor without a table lookup.
  struct Successor {
    uint64_t key = ~uint64_t{0};
    const BlockTiming* block = nullptr;
  };
  mutable Successor successors[2];
  std::vector<uint32_t> literal_lines;
  uint8_t tail_cycles[32] = {};
  uint8_t head_cycles[32] = {};
  std::vector<uint32_t> literal_addresses;     // filled by the analyzer (Arm literal pools)
  std::vector<MemoryOperand> memory_operands;  // for naming faults
  std::vector<uint32_t> instruction_addresses;
  // The block's static cycles before each instruction (parallel to instruction_addresses), to
  // take back the part of a block that did not execute (after a WFI, before a fault).
  std::vector<uint32_t> cycles_before;
};

// Tells whether the divide at an address has a code hook (its operands are then timed exactly;
// otherwise the block charges the divide's worst case).
using DivideHooked = std::function<bool(uint32_t address)>;

// Thumb (Cortex-M0+, M4, M33): decodes with Capstone. `code` holds the block's bytes.
class ThumbTiming {
 public:
  explicit ThumbTiming(const TimingParams& params);
  ~ThumbTiming();
  ThumbTiming(const ThumbTiming&) = delete;
  ThumbTiming& operator=(const ThumbTiming&) = delete;
  BlockTiming analyze(uint32_t start, const uint8_t* code, uint32_t bytes,
                      const DivideHooked& hooked, std::vector<DivideSite>& divides) const;

 private:
  TimingParams params_;
  size_t handle_ = 0;
};

// RV32IM on the SiFive E31 pipeline: decoded from the opcode fields.
BlockTiming analyzeRiscV(const TimingParams& params, uint32_t start, const uint8_t* code,
                         uint32_t bytes, const DivideHooked& hooked,
                         std::vector<DivideSite>& divides);

// Divide cycles for the operand values.
// Cortex-M4/M33: total cycles of SDIV/UDIV, 2..12 by the quotient's bit length.
uint32_t armDivideCycles(uint32_t dividend, uint32_t divisor, bool is_signed);
// E31: result latency of DIV/DIVU/REM/REMU, 2..33 by the quotient's bit length.
uint32_t e31DivideLatency(uint32_t dividend, uint32_t divisor, bool is_signed);

// Candidate divide instructions in a code segment (found by their encodings at every halfword):
// the addresses to hook before the code is translated. False candidates inside data are harmless.
std::vector<DivideSite> scanDivides(Core core, uint32_t base, const uint8_t* code, size_t bytes);

// Flash wait-state region test shared by the analyzers: code fetched from the flash code region.
bool inFlashCode(uint32_t address);

}  // namespace hilsim::iss
