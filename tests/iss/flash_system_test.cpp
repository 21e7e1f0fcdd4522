// The flash memory system on its own (iss/src/flash_system.h), block by block, on the STM32G0's
// flash (8-byte lines, prefetch, a 2-line 2-way cache) at 2 wait states: what each block waits
// and counts, from the rules of iss/README.md, "Flash memory system".

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "block_timing.h"
#include "flash_system.h"

namespace hilsim::iss {
namespace {

constexpr FlashOptions kG0{8, true, 2, 2, 0, 1, false};
constexpr uint32_t kWait = 2;

BlockTiming block(uint32_t first_line, uint32_t lines, std::vector<uint32_t> literal_lines = {}) {
  BlockTiming b;
  b.fetch_first_line = first_line;
  b.fetch_lines = lines;
  b.literal_count = uint16_t(literal_lines.size());
  b.literal_lines = std::move(literal_lines);
  b.uses_flash = true;
  return b;
}

struct Counts {
  uint64_t line_reads, icache_hits, icache_misses;
};

void expectCounts(const FlashSystem& flash, Counts c, const char* when) {
  EXPECT_EQ(flash.stats().line_reads, c.line_reads) << when;
  EXPECT_EQ(flash.stats().icache_hits, c.icache_hits) << when;
  EXPECT_EQ(flash.stats().icache_misses, c.icache_misses) << when;
  EXPECT_EQ(flash.stats().dcache_hits + flash.stats().dcache_misses, 0u) << when;
}

TEST(FlashSystem, ThePrefetchServesEveryLineOfABlockAfterItsFirst) {
  FlashSystem flash(kG0, kWait, 0);
  const BlockTiming a = block(0x20, 5), b = block(0x25, 2);
  // Branched to: the first line misses and waits (and fills the cache); the four others are
  // read ahead, each a line read without waiting.
  EXPECT_EQ(flash.blockCycles(a, false), kWait);
  expectCounts(flash, {5, 0, 1}, "a, cold");
  // Again: the first line hits; the block is then marked as hitting.
  EXPECT_EQ(flash.blockCycles(a, false), 0u);
  expectCounts(flash, {9, 1, 1}, "a, second");
  EXPECT_EQ(flash.blockCycles(a, false), 0u);
  expectCounts(flash, {13, 2, 1}, "a, marked");
  // Falling through into the line after a's last: read ahead, as is the line after it.
  EXPECT_EQ(flash.blockCycles(b, true), 0u);
  expectCounts(flash, {15, 2, 1}, "b after a");
  // Branched to: lines read ahead were not copied into the cache, so b's first line misses.
  EXPECT_EQ(flash.blockCycles(b, false), kWait);
  expectCounts(flash, {17, 2, 2}, "b branched to");
  // The cache now holds 0x25 and 0x20 (the fill of 0x25 ended a's mark): a hits by a walk.
  EXPECT_EQ(flash.blockCycles(a, false), 0u);
  expectCounts(flash, {21, 3, 2}, "a after b");
}

TEST(FlashSystem, ABlockContinuingInTheLineJustReadReadsNothingForIt) {
  FlashSystem flash(kG0, kWait, 0);
  const BlockTiming a = block(0x40, 2), b = block(0x41, 3);
  EXPECT_EQ(flash.blockCycles(a, false), kWait);
  expectCounts(flash, {2, 0, 1}, "a");
  // b starts in a's last line (0x41): nothing for it; 0x42 and 0x43 read ahead.
  EXPECT_EQ(flash.blockCycles(b, true), 0u);
  expectCounts(flash, {4, 0, 1}, "b after a");
  // b from a branch: 0x41 was never cached (read ahead), so it misses; 0x42 and 0x43 read ahead.
  EXPECT_EQ(flash.blockCycles(b, false), kWait);
  expectCounts(flash, {7, 0, 2}, "b branched to");
}

TEST(FlashSystem, UncachedLiteralLoadsEachReadTheFlash) {
  FlashSystem flash(kG0, kWait, 0);
  const BlockTiming a = block(0x60, 3, {0x80, 0x80});
  EXPECT_EQ(flash.blockCycles(a, false), 3 * kWait);  // the first line and both literals wait
  expectCounts(flash, {5, 0, 1}, "cold");
  EXPECT_EQ(flash.blockCycles(a, false), 2 * kWait);  // the first line hits: marked
  expectCounts(flash, {9, 1, 1}, "second");
  EXPECT_EQ(flash.blockCycles(a, false), 2 * kWait);  // marked: the literals still wait
  expectCounts(flash, {13, 2, 1}, "marked");
}

TEST(FlashSystem, WithoutPrefetchEveryLineGoesThroughTheCache) {
  const FlashOptions no_prefetch{8, false, 2, 2, 0, 1, false};
  FlashSystem flash(no_prefetch, kWait, 0);
  const BlockTiming a = block(0x20, 3);
  // Three lines in one 2-way set: each misses; the third evicts the first.
  EXPECT_EQ(flash.blockCycles(a, false), 3 * kWait);
  expectCounts(flash, {3, 0, 3}, "cold");
  // 0x20 misses (evicting 0x21), then 0x21 misses (evicting 0x22), then 0x22 misses.
  EXPECT_EQ(flash.blockCycles(a, false), 3 * kWait);
  expectCounts(flash, {6, 0, 6}, "again");
}

// The block hook charges a block that follows another as last time through their edge (what is
// known in advance, then the cache's part): on every path, the same cycles and counts as a walk
// of every block. Blocks of one to three lines, some continuing in or after their predecessor's
// last line, some with literals, one outside the flash; now and then a block runs in between
// (an interrupt), so that the line last read is not the predecessor's.
TEST(FlashSystem, EdgesChargeWhatTheWalkCharges) {
  std::vector<BlockTiming> blocks = {block(0x100, 2),         block(0x101, 1),
                                     block(0x102, 3, {0x90}), block(0x106, 1),
                                     block(0x140, 2),         block(0x141, 2, {0x90, 0x91}),
                                     block(0x180, 1),         block(0x20, 1)};
  blocks.back().fetch_lines = 0;  // in RAM, its literal in flash
  blocks.back().literal_count = 1;
  blocks.back().literal_lines = {0x92};
  FlashSystem walked(kG0, kWait, 0), edged(kG0, kWait, 0);
  std::mt19937 random(7);
  const BlockTiming* prev = nullptr;
  uint64_t edge_hits = 0;
  for (int step = 0; step < 20000; ++step) {
    const BlockTiming& b = blocks[random() % blocks.size()];
    const bool sequential = random() % 2 == 0;
    uint64_t edge_cycles = 0;
    bool followed = false;
    if (prev != nullptr) {
      uint32_t fixed_cycles = 0, line_reads = 0, last_line = 0;
      const FlashSystem::Edge e =
          edged.edge(*prev, b, sequential, fixed_cycles, line_reads, last_line);
      // A prefetch and one pair of lines: only after the block outside the flash is the line
      // last read unknown in advance.
      ASSERT_TRUE(e != FlashSystem::kWalk || prev->fetch_lines == 0) << "step " << step;
      edge_cycles = fixed_cycles;
      if (e == FlashSystem::kFixed) {
        edged.followFixed(line_reads);
        followed = true;
      } else if (e != FlashSystem::kWalk && e != FlashSystem::kNoFetch) {
        followed = edged.followEdge(*prev, b, e, line_reads, last_line, edge_cycles);
      }
    }
    if (followed)
      ++edge_hits;
    else
      edge_cycles = edged.blockCycles(b, sequential);
    ASSERT_EQ(edge_cycles, walked.blockCycles(b, sequential)) << "step " << step;
    ASSERT_EQ(edged.stats().line_reads, walked.stats().line_reads) << "step " << step;
    ASSERT_EQ(edged.stats().icache_hits, walked.stats().icache_hits) << "step " << step;
    ASSERT_EQ(edged.stats().icache_misses, walked.stats().icache_misses) << "step " << step;
    prev = random() % 16 == 0 ? nullptr : &b;  // an interrupt: the next block starts afresh
    if (random() % 16 == 0) {
      const BlockTiming& handler = blocks[random() % blocks.size()];
      ASSERT_EQ(edged.blockCycles(handler, false), walked.blockCycles(handler, false));
    }
  }
  EXPECT_GT(edge_hits, 13000u);
}

}  // namespace
}  // namespace hilsim::iss
