// hs_dispatch of the optimized images: the optimized library's calls, and the reference
// kernels' calls for the operators and types it has no kernel for.

#include "entries.h"
#include "hilsim/kernels/abi/dispatch.h"
#include "hilsim/kernels/optimized/abi_calls.h"
#include "own_address.h"

extern "C" uint32_t hs_dispatch(uint32_t id, const uint32_t* words) {
  return static_cast<uint32_t>(
      hilsim::kernels::abi::dispatchOptimized(id, words, hilsim::firmware::OwnAddress{}));
}
