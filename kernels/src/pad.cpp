#include "hilsim/kernels/pad.h"

#include <algorithm>
#include <cstring>

namespace hilsim::kernels {
namespace {

// Walks the output row by row (a row is the innermost dimension): a row outside the input in an
// outer dimension is all padding, any other row is left padding, an input row, right padding.
template <typename T>
void pad(const PadParams& p, const T* input, T pad_value, T* output) {
  const int32_t* d = p.output_dims;
  const auto outside = [&p, d](int32_t dim, int32_t index) {
    return index < p.left[dim] || index >= d[dim] - p.right[dim];
  };
  const int32_t row = d[4];
  const int32_t row_input = row - p.left[4] - p.right[4];
  for (int32_t i0 = 0; i0 < d[0]; ++i0) {
    for (int32_t i1 = 0; i1 < d[1]; ++i1) {
      for (int32_t i2 = 0; i2 < d[2]; ++i2) {
        for (int32_t i3 = 0; i3 < d[3]; ++i3) {
          if (outside(0, i0) || outside(1, i1) || outside(2, i2) || outside(3, i3)) {
            std::fill(output, output + row, pad_value);
            output += row;
            continue;
          }
          std::fill(output, output + p.left[4], pad_value);
          output += p.left[4];
          if (row_input > 0) std::memcpy(output, input, sizeof(T) * size_t(row_input));
          output += row_input;
          input += row_input;
          std::fill(output, output + p.right[4], pad_value);
          output += p.right[4];
        }
      }
    }
  }
}

}  // namespace

void padInt8(const PadParams& p, const int8_t* input, int8_t pad_value, int8_t* output) {
  pad(p, input, pad_value, output);
}

void padInt16(const PadParams& p, const int16_t* input, int16_t pad_value, int16_t* output) {
  pad(p, input, pad_value, output);
}

void padInt32(const PadParams& p, const int32_t* input, int32_t pad_value, int32_t* output) {
  pad(p, input, pad_value, output);
}

void padFloat32(const PadParams& p, const float* input, float pad_value, float* output) {
  pad(p, input, pad_value, output);
}

}  // namespace hilsim::kernels
