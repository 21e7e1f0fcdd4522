// Persistent memory and page memory: alignment, zero fill, page-aligned whole-page blocks that
// never move (what a CpuTarget maps without copying).

#include <gtest/gtest.h>

#include <cstdint>

#include "hilsim/rt/page_memory.h"
#include "hilsim/rt/persistent_pool.h"

namespace hilsim::rt {
namespace {

bool pageAligned(const void* p) {
  return reinterpret_cast<uintptr_t>(p) % kPageBytes == 0;
}

TEST(PageMemory, IsZeroedWholePagesOnAPageBoundary) {
  const PageMemory empty(0);
  EXPECT_EQ(empty.bytes(), kPageBytes);  // something to map, even for an empty arena
  const PageMemory m(kPageBytes + 1);
  EXPECT_EQ(m.bytes(), 2 * kPageBytes);
  EXPECT_TRUE(pageAligned(m.data()));
  for (size_t i = 0; i < m.bytes(); ++i) ASSERT_EQ(m.data()[i], 0) << i;
}

TEST(PersistentPool, AlignsZeroFillsAndKeepsEarlierAllocationsInPlace) {
  PersistentPool pool;
  auto* a = static_cast<uint8_t*>(pool.allocate(3, 1));
  auto* b = static_cast<uint8_t*>(pool.allocate(8, 8));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % 8, 0u);
  EXPECT_EQ(b - a, 8);  // a's 3 bytes, then padding to 8
  EXPECT_EQ(pool.usedBytes(), 16u);
  a[0] = 7;
  void* page = pool.allocate(1, kPageBytes);
  EXPECT_TRUE(pageAligned(page));
  ASSERT_EQ(pool.blocks().size(), 1u);

  // Larger than a block: a block of its own; the earlier memory stays where it was.
  auto* big = static_cast<uint8_t*>(pool.allocate(PersistentPool::kBlockBytes + 1, 4));
  ASSERT_EQ(pool.blocks().size(), 2u);
  EXPECT_EQ(big, pool.blocks()[1].data());
  EXPECT_GE(pool.blocks()[1].bytes(), PersistentPool::kBlockBytes + 1);
  EXPECT_EQ(a[0], 7);
  for (size_t i = 0; i < PersistentPool::kBlockBytes + 1; ++i) ASSERT_EQ(big[i], 0) << i;
  for (const PageMemory& block : pool.blocks()) {
    EXPECT_TRUE(pageAligned(block.data()));
    EXPECT_EQ(block.bytes() % kPageBytes, 0u);
  }
  EXPECT_NE(pool.allocate(0, 4), nullptr);
  EXPECT_THROW(pool.allocate(4, 3), std::invalid_argument);
}

}  // namespace
}  // namespace hilsim::rt
