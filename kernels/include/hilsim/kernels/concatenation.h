#pragma once
// CONCATENATION with TensorFlow Lite Micro's behaviour (reference Concatenation): for every index
// of the dimensions before the axis, each input's slab is copied in turn. Bytes are copied as
// they are, whatever the type: TFLite Micro does not requantize int8 inputs whose quantization
// differs from the output's. Freestanding.

#include <cstddef>
#include <cstdint>

namespace hilsim::kernels {

// TFLite Micro's limit on the number of inputs.
constexpr int32_t kMaxConcatenationInputs = 10;

// Sizes are in bytes and elements of one tensor, so they fit 32 bits on every target.
struct ConcatenationParams {
  int32_t inputs = 0;        // 1 .. kMaxConcatenationInputs
  uint32_t outer_count = 0;  // product of the output dimensions before the axis
  uint32_t slab_bytes[kMaxConcatenationInputs] = {};  // per input: dim(axis) * inner * element
};

// `inputs[i]` points to input i's bytes; `output` receives outer_count * sum(slab_bytes) bytes.
void concatenate(const ConcatenationParams& p, const uint8_t* const* inputs, uint8_t* output);

}  // namespace hilsim::kernels
