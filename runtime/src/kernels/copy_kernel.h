#pragma once
// The base of the reference kernels whose output holds the input's bytes as they are (RESHAPE,
// SQUEEZE). TensorFlow Lite Micro runs them in place when it can; hilsim's arena gives the output
// its own buffer, so invoke copies the bytes with a copy call (so that a CpuTarget executes it
// too), unless the two share their buffer or there is nothing to copy.

#include <cstdint>
#include <limits>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/kernel_util.h"

namespace hilsim::rt {

class ByteCopyKernel : public Kernel {
 public:
  void invoke(InvokeContext& ctx, Node&) final {
    if (output_->data == input_->data || input_->bytes == 0) return;
    kernels::abi::CopyCall call{input_->data, output_->data, static_cast<uint32_t>(input_->bytes)};
    runCall(ctx, call);
  }

 protected:
  // Checks the output has the input's type and the copy fits one call; remembers both tensors.
  void prepareCopy(const Tensor& in, Tensor& out) {
    expectSameType(in, out);
    if (in.bytes > std::numeric_limits<uint32_t>::max())
      throw ModelError("input " + describe(in) + " has more than 2^32 - 1 bytes");
    input_ = &in;
    output_ = &out;
  }

 private:
  const Tensor* input_ = nullptr;
  Tensor* output_ = nullptr;
};

}  // namespace hilsim::rt
