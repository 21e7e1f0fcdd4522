#include "hilsim/kernels/transpose.h"

#include <cstddef>

namespace hilsim::kernels {
namespace {

// An odometer over the output's outer dimensions; the innermost one is a strided gather.
template <typename T>
void transpose(const TransposeParams& p, const T* input, T* output) {
  for (int32_t d = 0; d < p.rank; ++d)
    if (p.output_dims[d] <= 0) return;
  const int32_t last = p.rank - 1;
  const ptrdiff_t inner_stride = p.input_strides[last];
  int32_t index[kTransposeMaxDims] = {};
  ptrdiff_t offset = 0;
  for (;;) {
    const T* source = input + offset;
    for (int32_t i = 0; i < p.output_dims[last]; ++i) {
      *output++ = *source;
      source += inner_stride;
    }
    int32_t d = last - 1;
    for (; d >= 0; --d) {
      offset += p.input_strides[d];
      if (++index[d] < p.output_dims[d]) break;
      offset -= ptrdiff_t{p.output_dims[d]} * p.input_strides[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace

void transpose8(const TransposeParams& p, const uint8_t* input, uint8_t* output) {
  transpose(p, input, output);
}

void transpose16(const TransposeParams& p, const uint16_t* input, uint16_t* output) {
  transpose(p, input, output);
}

void transpose32(const TransposeParams& p, const uint32_t* input, uint32_t* output) {
  transpose(p, input, output);
}

}  // namespace hilsim::kernels
