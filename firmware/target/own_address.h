#pragma once
// The pointer of a packed call's address: the image works on its own address space.

#include <cstdint>

namespace hilsim::firmware {

struct OwnAddress {
  void* operator()(uint32_t address) const {
    return reinterpret_cast<void*>(static_cast<uintptr_t>(address));
  }
};

}  // namespace hilsim::firmware
