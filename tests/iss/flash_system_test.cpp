// The flash memory system's memo of block walks (iss/src/flash_walk_memo.h): on every part's
// flash, a program of blocks that loops, branches, loads model flash and reloads its code gets
// the same wait cycles block by block, and the same statistics, with the memo as without it.

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "block_timing.h"
#include "flash_system.h"

namespace hilsim::iss {
namespace {

struct BlockShape {
  uint32_t first_line;
  uint32_t lines;
  std::vector<uint32_t> literal_lines;
};

// Blocks laid out one after the other from line 0x20; a block starts in the line its predecessor
// ends in when `shared` says so (as blocks of 16-bit instructions do), and every third has a
// literal load.
std::vector<BlockShape> program() {
  std::vector<BlockShape> shapes;
  uint32_t line = 0x20;
  const uint32_t lines[] = {1, 3, 2, 1, 4, 2, 1, 5, 2, 3, 1, 2};
  const bool shared[] = {false, true, false, true, true, false, true, false, true, true, false};
  for (size_t k = 0; k < std::size(lines); ++k) {
    if (k > 0 && !shared[k - 1]) ++line;
    BlockShape s{line, lines[k], {}};
    if (k % 3 == 2) s.literal_lines = {line + lines[k] + 8};
    shapes.push_back(s);
    line += lines[k] - 1;
  }
  return shapes;
}

std::vector<BlockTiming> blocksFor(const FlashSystem& flash) {
  std::vector<BlockTiming> blocks;
  for (const BlockShape& s : program()) {
    BlockTiming b;
    b.fetch_first_line = s.first_line;
    b.fetch_lines = s.lines;
    b.literal_lines = s.literal_lines;
    b.literal_count = uint16_t(s.literal_lines.size());
    b.uses_flash = true;
    flash.prepare(b);
    blocks.push_back(std::move(b));
  }
  return blocks;
}

// One step of the program: the block that runs, whether it follows its predecessor without a
// branch, or a model-flash load (block -1), or a reload of the code (block -2).
struct Step {
  int block;
  bool sequential;
  uint32_t model_address;
};

// Loops over ranges of the program, each run of a loop a few times, with a data-dependent
// early exit now and then, model-flash loads between blocks and one reload of the code.
std::vector<Step> trace() {
  std::mt19937 random(23);
  const int n = int(program().size());
  std::vector<Step> steps;
  for (int loop = 0; loop < 60; ++loop) {
    const int first = int(random() % uint32_t(n));
    const int last = first + int(random() % uint32_t(n - first));
    const int iterations = 1 + int(random() % 12);
    for (int it = 0; it < iterations; ++it) {
      for (int k = first; k <= last; ++k) {
        steps.push_back({k, k > first, 0});
        if (random() % 7 == 0) steps.push_back({-1, false, 0x01000000u + uint32_t(random() % 256)});
        if (k < last && random() % 23 == 0) break;
      }
    }
    if (loop == 30) steps.push_back({-2, false, 0});
  }
  return steps;
}

void expectSameStats(const FlashStats& a, const FlashStats& b, const char* what) {
  EXPECT_EQ(a.line_reads, b.line_reads) << what;
  EXPECT_EQ(a.icache_hits, b.icache_hits) << what;
  EXPECT_EQ(a.icache_misses, b.icache_misses) << what;
  EXPECT_EQ(a.dcache_hits, b.dcache_hits) << what;
  EXPECT_EQ(a.dcache_misses, b.dcache_misses) << what;
  EXPECT_EQ(a.model_line_reads, b.model_line_reads) << what;
}

TEST(FlashSystem, MemoisedWalksChargeWhatWalkingChargesOnEveryPart) {
  // How many walks the memo serves: most (the cache is too small to mark the loops' blocks as
  // hitting, or there is none), any (a large cache marks most blocks), none (four ways).
  enum class Hits { kMost, kAny, kNone };
  struct Part {
    const char* name;
    FlashOptions flash;
    Hits hits;
  };
  const Part parts[] = {
      {"STM32G0 (2 lines, prefetch)", {8, true, 2, 2, 0, 1, false}, Hits::kMost},
      {"4 lines, 2 sets", {8, false, 4, 2, 0, 1, false}, Hits::kMost},
      {"no cache, prefetch", {8, true, 0, 1, 0, 1, false}, Hits::kMost},
      {"no cache", {8, false, 0, 1, 0, 1, false}, Hits::kMost},
      {"STM32U5 ICACHE", {16, true, 512, 2, 0, 1, true}, Hits::kAny},
      {"nRF5340 cache", {16, false, 512, 2, 0, 1, true}, Hits::kAny},
      {"FE310", {32, false, 512, 2, 0, 1, false}, Hits::kAny},
      {"STM32L4 ART (four ways: walked)", {8, false, 128, 4, 32, 4, false}, Hits::kNone},
  };
  const std::vector<Step> steps = trace();
  for (const Part& p : parts) {
    FlashSystem walked(p.flash, 3, 1, false), memoised(p.flash, 3, 1, true);
    std::vector<BlockTiming> walked_blocks = blocksFor(walked);
    std::vector<BlockTiming> memoised_blocks = blocksFor(memoised);
    uint64_t walked_wait = 0, memoised_wait = 0;
    for (size_t k = 0; k < steps.size(); ++k) {
      const Step& s = steps[k];
      if (s.block == -2) {
        walked.invalidate();
        memoised.invalidate();
      } else if (s.block == -1) {
        walked_wait += uint64_t(walked.modelLoadCycles(s.model_address));
        memoised_wait += uint64_t(memoised.modelLoadCycles(s.model_address));
      } else {
        const uint32_t a = walked.blockCycles(walked_blocks[size_t(s.block)], s.sequential);
        const uint32_t b = memoised.blockCycles(memoised_blocks[size_t(s.block)], s.sequential);
        ASSERT_EQ(a, b) << p.name << ", step " << k << ", block " << s.block;
        walked_wait += a;
        memoised_wait += b;
      }
    }
    EXPECT_EQ(walked_wait, memoised_wait) << p.name;
    expectSameStats(walked.stats(), memoised.stats(), p.name);
    EXPECT_EQ(walked.memoHits(), 0u) << p.name;
    if (p.hits == Hits::kMost) EXPECT_GT(memoised.memoHits(), steps.size() / 4) << p.name;
    if (p.hits == Hits::kAny) EXPECT_GT(memoised.memoHits(), 0u) << p.name;
    if (p.hits == Hits::kNone) EXPECT_EQ(memoised.memoHits(), 0u) << p.name;
  }
}

}  // namespace
}  // namespace hilsim::iss
