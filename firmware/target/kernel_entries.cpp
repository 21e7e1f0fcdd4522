// hs_kernel and hs_memcpy: the reference kernels' arithmetic behind the kernel ABI. The packed
// words carry this image's own addresses, so a pointer is the address as it is.

#include <cstdint>
#include <cstring>

#include "entries.h"
#include "hilsim/kernels/abi/dispatch.h"

namespace {

namespace abi = hilsim::kernels::abi;

struct OwnAddress {
  void* operator()(uint32_t address) const {
    return reinterpret_cast<void*>(static_cast<uintptr_t>(address));
  }
};

}  // namespace

extern "C" {

uint32_t hs_call_words[abi::kCallBufferWords];

// Constant data (no constructor runs): each kernel's payload word count in this image.
__attribute__((used)) extern const abi::CallWordTable hs_call_payload_words =
    abi::callWordTable(abi::AllCalls{});

uint32_t hs_kernel(uint32_t id, const uint32_t* words) {
  return static_cast<uint32_t>(abi::dispatch(id, words, OwnAddress{}));
}

void hs_memcpy(void* dst, const void* src, uint32_t bytes) {
  std::memmove(dst, src, bytes);
}

}  // extern "C"
