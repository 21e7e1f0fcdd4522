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

// E31: how the block's last instruction transfers control, which says what predicts it.
enum class ControlTransfer : uint8_t {
  kNone,         // falls through to the next block
  kConditional,  // conditional branch: direction from the history table, target from the BTB
  kJump,         // jal, or jalr that is neither a call nor a return: target from the BTB
  kCall,         // jal/jalr writing ra or t0: a jump that pushes its return address
  kReturn,       // jalr x0 through ra or t0: target from the return-address stack
};

// The fields a Cortex-M block hook reads fill the first cache line; the E31's and the flash
// marks' fill the second.
struct alignas(64) BlockTiming {
  // The blocks that last followed this one (key: address << 32 | size), most recent first: a
  // loop's block is found from its predecessor without a table lookup. On Cortex-M each also
  // holds what following this block costs, as far as it is known in advance.
  struct Successor {
    uint64_t key = ~uint64_t{0};
    const BlockTiming* block = nullptr;
    // The block's base cycles, a taken branch's refill and the flash cycles known in advance.
    uint32_t cycles = 0;
    uint32_t instructions = 0;
    uint32_t flash_last_line = 0;   // the line the flash system last read after the block
    uint16_t flash_line_reads = 0;  // line reads known in advance
    uint8_t flash = 0;              // FlashSystem::Edge
    bool sequential = false;        // the block is this one's fall-through
  };
  mutable Successor successors[2];
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
  // Flash memory system (flash_system.h): the flash lines the block's instructions span (none
  // outside the flash code region), the lines its literal loads read, and the cache fill counts
  // at which every one of them last hit.
  uint32_t fetch_first_line = 0;
  uint32_t fetch_lines = 0;
  uint16_t literal_count = 0;                        // literal_lines.size()
  bool uses_flash = false;                           // fetch_lines or literal_lines
  mutable uint64_t flash_epoch = ~uint64_t{0};       // instruction cache fills
  mutable uint64_t flash_data_epoch = ~uint64_t{0};  // data cache fills (literal lines)
  uint32_t start = 0;
  uint32_t bytes = 0;
  // E31: the control transfer ending the block, at branch_pc.
  ControlTransfer control = ControlTransfer::kNone;
  // E31: the target buffer slot this block's branch was last placed in (E31Predictor).
  mutable uint8_t target_slot = 0;
  uint32_t branch_pc = 0;
  // E31: results still in flight when the block ends (tail) and the registers the block reads
  // before writing them, with the cycle of their first read (head). Bit 0 stands for the
  // multiplier/divider unit (x0 is never a dependency).
  uint32_t tail_mask = 0;
  uint32_t head_mask = 0;
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

// The E31's branch predictor (E31 Core Complex Manual v2p0, 3.2 "Instruction Fetch Unit"): a
// branch history table of 2-bit counters for the direction of conditional branches, a fully
// associative branch target buffer with least-recently-used replacement for the targets of taken
// branches and jumps, and a return-address stack. Fixed-size storage; the sizes come from the
// preset (BranchPredictorOptions). iss/README.md has the rules.
class E31Predictor {
 public:
  static constexpr uint32_t kMispredictCycles = 3;  // 3.2 and 3.3
  static constexpr uint32_t kMaxTargetEntries = 64;
  static constexpr uint32_t kMaxReturnEntries = 16;
  static constexpr uint32_t kMaxHistoryEntries = 4096;

  // Throws std::invalid_argument for sizes it cannot hold (history entries: a power of two).
  explicit E31Predictor(const BranchPredictorOptions& sizes);

  // The cycles lost to the control transfer ending `p` when the next block starts at `next`
  // (`sequential`: at p's fall-through), and the predictor's update.
  uint32_t penaltyCycles(const BlockTiming& p, uint32_t next, bool sequential) {
    switch (p.control) {
      case ControlTransfer::kNone:
        return 0;
      case ControlTransfer::kConditional: {
        uint8_t& counter = history_[(p.branch_pc >> 2) & history_mask_];
        const bool predicted_taken = counter >= 2;
        if (sequential) {
          counter = uint8_t(counter == 0 ? 0 : counter - 1);
          return predicted_taken ? kMispredictCycles : 0;
        }
        counter = uint8_t(counter == 3 ? 3 : counter + 1);
        return targetHit(p, next) && predicted_taken ? 0 : kMispredictCycles;
      }
      case ControlTransfer::kJump:
        return targetHit(p, next) ? 0 : kMispredictCycles;
      case ControlTransfer::kCall:
        push(p.start + p.bytes);
        return targetHit(p, next) ? 0 : kMispredictCycles;
      case ControlTransfer::kReturn:
        return pop() == next ? 0 : kMispredictCycles;
    }
    return 0;
  }

 private:
  static constexpr uint32_t kNoAddress = 0xFFFF'FFFF;  // never a branch or return address
  struct Target {
    uint32_t branch_pc = kNoAddress;
    uint32_t target = kNoAddress;
    uint64_t last_use = 0;
  };

  // Whether the target buffer predicts `target` for p's branch; updates it either way.
  bool targetHit(const BlockTiming& p, uint32_t target) {
    Target& t = targets_[p.target_slot];
    if (t.branch_pc == p.branch_pc && t.target == target) {
      t.last_use = ++uses_;
      return true;
    }
    return searchTarget(p, target);
  }
  // The slow path: the branch's entry in another slot, or a miss that replaces the least
  // recently used entry (or a hit with another target that rewrites it).
  bool searchTarget(const BlockTiming& p, uint32_t target);

  void push(uint32_t return_address) {
    top_ = top_ + 1 == return_entries_ ? 0 : top_ + 1;
    returns_[top_] = return_address;
    if (depth_ < return_entries_) ++depth_;
  }
  uint32_t pop() {
    if (depth_ == 0) return kNoAddress;
    const uint32_t address = returns_[top_];
    top_ = top_ == 0 ? return_entries_ - 1 : top_ - 1;
    --depth_;
    return address;
  }

  uint32_t history_mask_;
  uint32_t target_entries_;
  uint32_t return_entries_;
  uint32_t top_ = 0;    // the return stack's newest entry (when depth_ > 0)
  uint32_t depth_ = 0;  // entries held; a push beyond return_entries_ drops the oldest
  uint64_t uses_ = 0;
  Target targets_[kMaxTargetEntries];
  uint32_t returns_[kMaxReturnEntries] = {};
  uint8_t history_[kMaxHistoryEntries];
};

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
