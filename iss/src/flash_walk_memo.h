#pragma once
// What walking one block's flash lines did, remembered per block and per state of the flash
// memory system at the block's entry (flash_system.h). The walk is a function of that state
// alone: the line the fetch last read, whether the block continues in it, the contents of the
// instruction cache sets the block's lines fall in (two ways: one word per set) and whether each
// of those sets is pinned. A loop's blocks meet the same states on every iteration, so that a
// block that cannot be marked as hitting (a small cache that its loop overflows, lines served by
// the prefetch) still costs a comparison instead of a walk. Private to the library.

#include <cstdint>

namespace hilsim::iss {

struct FlashWalkMemo {
  // Instruction cache sets a memoised block may touch (its lines, consecutive, fall in these).
  static constexpr uint32_t kMaxSets = 2;
  static constexpr uint32_t kEntries = 4;

  struct Entry {
    // The state at entry.
    uint64_t entry_sets[kMaxSets] = {};
    uint32_t entry_fetch_line = 0;
    uint8_t entry_flags = 0;  // kValid, kContinuing, kPinned << set
    // What the walk did: its wait cycles, its counts, the state it left.
    uint8_t epoch_advance = 0;  // instruction cache epochs the walk advanced (0 or 1)
    bool marked = false;        // the walk marked the block as hitting
    uint32_t wait_cycles = 0;
    uint32_t line_reads = 0;
    uint32_t icache_hits = 0;
    uint32_t icache_misses = 0;
    uint64_t exit_sets[kMaxSets] = {};
  };
  static constexpr uint8_t kValid = 1;
  static constexpr uint8_t kContinuing = 2;
  static constexpr uint8_t kPinnedShift = 2;

  // Set by FlashSystem::prepare: whether the walk may be memoised, and the cache sets it reads.
  bool eligible = false;
  uint8_t set_count = 0;
  uint8_t next = 0;  // the entry the next miss replaces (round robin)
  uint32_t sets[kMaxSets] = {};
  Entry entries[kEntries];
};

}  // namespace hilsim::iss
