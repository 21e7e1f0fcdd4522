#pragma once
// Memory planning for the tensor arena: every non-constant tensor and scratch buffer gets an
// offset so that buffers alive at the same time never overlap. Greedy by size, first fit.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hilsim::rt {

struct ArenaRequest {
  size_t bytes = 0;
  int first_use = 0;  // first node index that touches the buffer
  int last_use = 0;   // last node index that touches it (inclusive)
};

struct ArenaPlan {
  std::vector<size_t> offsets;  // one per request
  size_t total_bytes = 0;       // peak arena size: the end of the highest buffer
};

constexpr size_t kArenaAlignment = 16;

// The tensor arena as TensorFlow Lite Micro would size it for the model on a 32-bit
// microcontroller (built with TF_LITE_STATIC_MEMORY): the planned activations in the arena's head,
// and in its tail the kernels' persistent buffers, the interpreter's structures and the
// quantization parameters of the model's input and output tensors.
struct ArenaFootprint {
  uint64_t activation_bytes = 0;    // tensors in use and scratch buffers, as planned
  uint64_t persistent_bytes = 0;    // what the kernels keep from prepare (requantization arrays)
  uint64_t runtime_bytes = 0;       // TfLiteEvalTensor per tensor, node and registration per
                                    // operator, TfLiteTensor per model input and output
  uint64_t quantization_bytes = 0;  // the model inputs' and outputs' quantization parameters
  uint64_t totalBytes() const {
    return activation_bytes + persistent_bytes + runtime_bytes + quantization_bytes;
  }
};

ArenaPlan planArena(const std::vector<ArenaRequest>& requests, size_t alignment = kArenaAlignment);

}  // namespace hilsim::rt
