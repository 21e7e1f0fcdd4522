#pragma once
// Zero-filled host memory that starts on a page boundary and spans whole pages, as a CpuTarget
// needs to map it into a simulated address space without copying (the arena, persistent blocks).

#include <cstddef>
#include <cstdint>
#include <memory>

namespace hilsim::rt {

constexpr size_t kPageBytes = 4096;

class PageMemory {
 public:
  PageMemory() = default;
  // At least `bytes` bytes (and at least one page), rounded up to whole pages, all zero.
  explicit PageMemory(size_t bytes);

  uint8_t* data() const { return data_.get(); }
  // The mapped size: a multiple of kPageBytes (0 only for a default-constructed object).
  size_t bytes() const { return bytes_; }

 private:
  struct Free {
    void operator()(uint8_t* p) const;
  };
  std::unique_ptr<uint8_t, Free> data_;
  size_t bytes_ = 0;
};

}  // namespace hilsim::rt
