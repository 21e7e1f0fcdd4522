#pragma once
// Memory planning for the tensor arena: every non-constant tensor and scratch buffer gets an
// offset so that buffers alive at the same time never overlap. Greedy by size, first fit.

#include <cstddef>
#include <vector>

namespace hilsim::rt {

struct ArenaRequest {
  size_t bytes = 0;
  int first_use = 0;  // first node index that touches the buffer
  int last_use = 0;   // last node index that touches it (inclusive)
};

struct ArenaPlan {
  std::vector<size_t> offsets;  // one per request
  size_t total_bytes = 0;       // peak arena size: the end of the highest buffer
};

constexpr size_t kArenaAlignment = 16;

ArenaPlan planArena(const std::vector<ArenaRequest>& requests,
                    size_t alignment = kArenaAlignment);

}  // namespace hilsim::rt
