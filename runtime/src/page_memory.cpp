#include "hilsim/rt/page_memory.h"

#include <cstring>
#include <new>

namespace hilsim::rt {

PageMemory::PageMemory(size_t bytes) {
  const size_t pages = bytes == 0 ? 1 : (bytes + kPageBytes - 1) / kPageBytes;
  bytes_ = pages * kPageBytes;
  data_.reset(static_cast<uint8_t*>(::operator new (bytes_, std::align_val_t{kPageBytes})));
  std::memset(data_.get(), 0, bytes_);
}

void PageMemory::Free::operator()(uint8_t* p) const {
  ::operator delete (p, std::align_val_t{kPageBytes});
}

}  // namespace hilsim::rt
