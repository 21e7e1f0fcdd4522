#pragma once
// How a reference kernel's invoke runs its arithmetic: it builds the kernel call
// (hilsim/kernels/abi/calls.h) and hands it to runCall, which calls the freestanding function on
// the host or, with a CpuTarget, packs the call into words (pointers become the target's
// addresses) and runs it there. Every pointer a call carries must point into the tensor arena,
// persistent memory (PrepareContext::allocatePersistent) or the model's bytes.

#include <cstdint>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/kernels/abi/words.h"
#include "hilsim/rt/cpu_target.h"
#include "hilsim/rt/kernel.h"

namespace hilsim::rt {

// Packs `call` and runs it on `target`. Throws SimulationError (from the target) if a pointer is
// outside the memory the target mapped or the target fails.
template <class Call>
uint64_t runOnTarget(CpuTarget& target, Call& call) {
  uint32_t words[kernels::abi::kCallBufferWords];
  const uint32_t count =
      kernels::abi::pack(call, words, [&target](const void* host) { return target.address(host); });
  return target.run(static_cast<uint32_t>(Call::kId), words, count);
}

template <class Call>
void runCall(InvokeContext& ctx, Call& call) {
  if (CpuTarget* target = ctx.cpuTarget()) {
    ctx.ranOnTarget(runOnTarget(*target, call));
    return;
  }
  kernels::abi::run(call);
}

}  // namespace hilsim::rt
