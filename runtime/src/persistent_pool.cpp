#include "hilsim/rt/persistent_pool.h"

#include <algorithm>
#include <stdexcept>

namespace hilsim::rt {

void* PersistentPool::allocate(size_t bytes, size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment > kPageBytes)
    throw std::invalid_argument("persistent memory alignment must be a power of two up to a page");
  bytes = std::max<size_t>(bytes, 1);
  const size_t aligned = (offset_in_last_ + alignment - 1) & ~(alignment - 1);
  if (blocks_.empty() || aligned > blocks_.back().bytes() ||
      bytes > blocks_.back().bytes() - aligned) {
    blocks_.emplace_back(std::max(bytes, kBlockBytes));  // blocks start on a page
    used_bytes_ += bytes;
    offset_in_last_ = bytes;
    return blocks_.back().data();
  }
  used_bytes_ += aligned - offset_in_last_ + bytes;
  offset_in_last_ = aligned + bytes;
  return blocks_.back().data() + aligned;
}

}  // namespace hilsim::rt
