#pragma once
// Memory that lives as long as the interpreter, for what kernels compute once in prepare and
// their calls point at (per-channel multipliers, folded biases, kernel scratch that survives an
// invocation). Allocations are carved from page-aligned blocks (page_memory.h) that never move,
// so the interpreter can hand every block to a CpuTarget.

#include <cstddef>
#include <vector>

#include "hilsim/rt/page_memory.h"

namespace hilsim::rt {

class PersistentPool {
 public:
  // Bytes of each block unless one allocation needs more.
  static constexpr size_t kBlockBytes = 64 * 1024;

  // `bytes` zero-filled bytes aligned to `alignment` (a power of two up to kPageBytes); never
  // null, also for 0 bytes. Valid as long as the pool.
  void* allocate(size_t bytes, size_t alignment);

  const std::vector<PageMemory>& blocks() const { return blocks_; }
  // Bytes handed out so far, alignment padding included.
  size_t usedBytes() const { return used_bytes_; }

 private:
  std::vector<PageMemory> blocks_;
  size_t offset_in_last_ = 0;
  size_t used_bytes_ = 0;
};

}  // namespace hilsim::rt
