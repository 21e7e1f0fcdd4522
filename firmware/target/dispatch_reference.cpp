// hs_dispatch of the reference images: the reference kernels' calls only.

#include "entries.h"
#include "hilsim/kernels/abi/dispatch.h"
#include "own_address.h"

extern "C" uint32_t hs_dispatch(uint32_t id, const uint32_t* words) {
  return static_cast<uint32_t>(
      hilsim::kernels::abi::dispatch(id, words, hilsim::firmware::OwnAddress{}));
}
