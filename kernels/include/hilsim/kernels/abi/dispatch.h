#pragma once
// Runs a packed call: finds the Call of its KernelId in AllCalls, unpacks the words into it and
// runs it. The firmware's hs_kernel entry is this function with the target's own addresses; host
// tests use it with translated ones. Freestanding.

#include <cstdint>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/kernels/abi/words.h"

namespace hilsim::kernels::abi {

enum class CallStatus : uint32_t {
  kOk = 0,
  kUnknownKernel = 1,  // no Call has the id
  kBadLength = 2,      // the payload length is not the Call's (host and target disagree)
};

template <class Call, class PointerOf>
CallStatus unpackAndRun(const uint32_t* words, PointerOf pointer_of) {
  Call call{};
  if (!unpack(words, pointer_of, &call)) return CallStatus::kBadLength;
  run(call);
  return CallStatus::kOk;
}

// `words` is a packed call (words.h); PointerOf as for WordReader.
template <class PointerOf, class... Calls>
CallStatus dispatch(CallList<Calls...>, uint32_t kernel_id, const uint32_t* words,
                    PointerOf pointer_of) {
  CallStatus status = CallStatus::kUnknownKernel;
  (void)((kernel_id == static_cast<uint32_t>(Calls::kId) &&
          (status = unpackAndRun<Calls>(words, pointer_of), true)) ||
         ...);
  return status;
}

template <class PointerOf>
CallStatus dispatch(uint32_t kernel_id, const uint32_t* words, PointerOf pointer_of) {
  return dispatch(AllCalls{}, kernel_id, words, pointer_of);
}

}  // namespace hilsim::kernels::abi
