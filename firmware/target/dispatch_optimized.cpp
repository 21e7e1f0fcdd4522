// hs_dispatch of the optimized images: the optimized library's calls, and the reference
// kernels' calls for the operators and types it has no kernel for.

#include "entries.h"
#include "hilsim/kernels/abi/dispatch.h"
#include "hilsim/kernels/optimized/abi_calls.h"
#include "own_address.h"

namespace abi = hilsim::kernels::abi;

// Constant data (no constructor runs): each optimized kernel's payload word count in this image,
// indexed by KernelId - kOptFullyConnectedInt8.
extern "C" {
__attribute__((used)) extern const abi::OptimizedCallWordTable hs_opt_call_payload_words =
    abi::optimizedCallWordTable(abi::OptimizedCalls{});
}

extern "C" uint32_t hs_dispatch(uint32_t id, const uint32_t* words) {
  return static_cast<uint32_t>(abi::dispatchOptimized(id, words, hilsim::firmware::OwnAddress{}));
}
