#include "hilsim/kernels/concatenation.h"

#include <cstring>

namespace hilsim::kernels {

void concatenate(const ConcatenationParams& p, const uint8_t* const* inputs, uint8_t* output) {
  for (uint32_t outer = 0; outer < p.outer_count; ++outer) {
    for (int32_t i = 0; i < p.inputs; ++i) {
      const size_t bytes = p.slab_bytes[i];
      if (bytes == 0) continue;
      std::memcpy(output, inputs[i] + size_t{outer} * bytes, bytes);
      output += bytes;
    }
  }
}

}  // namespace hilsim::kernels
