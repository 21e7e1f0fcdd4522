// hs_kernel and hs_memcpy: the kernels' arithmetic behind the kernel ABI. The packed words carry
// this image's own addresses, so a pointer is the address as it is. Which calls hs_kernel knows
// is the image's library: dispatch_reference.cpp or dispatch_optimized.cpp (hs_dispatch).

#include <cstdint>
#include <cstring>

#include "entries.h"
#include "hilsim/kernels/abi/calls.h"

namespace abi = hilsim::kernels::abi;

extern "C" {

uint32_t hs_call_words[abi::kCallBufferWords];

// Constant data (no constructor runs): each kernel's payload word count in this image.
__attribute__((used)) extern const abi::CallWordTable hs_call_payload_words =
    abi::callWordTable(abi::AllCalls{});

uint32_t hs_kernel(uint32_t id, const uint32_t* words) {
  return hs_dispatch(id, words);
}

void hs_memcpy(void* dst, const void* src, uint32_t bytes) {
  std::memmove(dst, src, bytes);
}

}  // extern "C"
