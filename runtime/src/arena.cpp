#include "hilsim/rt/arena.h"

#include <algorithm>
#include <numeric>

namespace hilsim::rt {
namespace {

size_t alignUp(size_t value, size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

bool livesOverlap(const ArenaRequest& a, const ArenaRequest& b) {
  return a.first_use <= b.last_use && b.first_use <= a.last_use;
}

}  // namespace

ArenaPlan planArena(const std::vector<ArenaRequest>& requests, size_t alignment) {
  ArenaPlan plan;
  plan.offsets.assign(requests.size(), 0);
  std::vector<size_t> order(requests.size());
  std::iota(order.begin(), order.end(), size_t{0});
  // Largest first; ties broken by first use then index so the plan is deterministic.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (requests[a].bytes != requests[b].bytes) return requests[a].bytes > requests[b].bytes;
    return requests[a].first_use < requests[b].first_use;
  });

  std::vector<size_t> placed;  // indices already given an offset, kept sorted by offset
  for (size_t r : order) {
    const ArenaRequest& req = requests[r];
    size_t candidate = 0;
    if (req.bytes > 0) {
      for (size_t p : placed) {
        const ArenaRequest& other = requests[p];
        if (other.bytes == 0 || !livesOverlap(req, other)) continue;
        const size_t other_begin = plan.offsets[p];
        const size_t other_end = other_begin + other.bytes;
        if (candidate + req.bytes <= other_begin) break;  // fits in the gap before `other`
        candidate = std::max(candidate, alignUp(other_end, alignment));
      }
    }
    plan.offsets[r] = candidate;
    plan.total_bytes = std::max(plan.total_bytes, alignUp(candidate + req.bytes, alignment));
    const auto pos = std::upper_bound(placed.begin(), placed.end(), candidate,
                                      [&](size_t off, size_t p) { return off < plan.offsets[p]; });
    placed.insert(pos, r);
  }
  return plan;
}

}  // namespace hilsim::rt
