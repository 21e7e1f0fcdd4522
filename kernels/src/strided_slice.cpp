#include "hilsim/kernels/strided_slice.h"

#include <cstddef>
#include <cstring>

namespace hilsim::kernels {
namespace {

inline bool inRange(int64_t index, int32_t stop, int32_t stride) {
  return stride > 0 ? index < stop : index > stop;
}

template <typename T>
void stridedSlice(const StridedSliceParams& p, const T* input, T* output) {
  const int32_t* d = p.input_dims;
  const ptrdiff_t stride3 = d[4];
  const ptrdiff_t stride2 = stride3 * d[3];
  const ptrdiff_t stride1 = stride2 * d[2];
  const ptrdiff_t stride0 = stride1 * d[1];
  const int32_t run = p.stop[4] - p.start[4];
  for (int64_t i0 = p.start[0]; inRange(i0, p.stop[0], p.stride[0]); i0 += p.stride[0]) {
    for (int64_t i1 = p.start[1]; inRange(i1, p.stop[1], p.stride[1]); i1 += p.stride[1]) {
      for (int64_t i2 = p.start[2]; inRange(i2, p.stop[2], p.stride[2]); i2 += p.stride[2]) {
        for (int64_t i3 = p.start[3]; inRange(i3, p.stop[3], p.stride[3]); i3 += p.stride[3]) {
          const T* row = input + i0 * stride0 + i1 * stride1 + i2 * stride2 + i3 * stride3;
          if (p.stride[4] == 1) {
            if (run > 0) {
              std::memcpy(output, row + p.start[4], sizeof(T) * size_t(run));
              output += run;
            }
            continue;
          }
          for (int64_t i4 = p.start[4]; inRange(i4, p.stop[4], p.stride[4]); i4 += p.stride[4])
            *output++ = row[i4];
        }
      }
    }
  }
}

}  // namespace

void stridedSlice8(const StridedSliceParams& p, const uint8_t* input, uint8_t* output) {
  stridedSlice(p, input, output);
}

void stridedSlice16(const StridedSliceParams& p, const uint16_t* input, uint16_t* output) {
  stridedSlice(p, input, output);
}

void stridedSlice32(const StridedSliceParams& p, const uint32_t* input, uint32_t* output) {
  stridedSlice(p, input, output);
}

}  // namespace hilsim::kernels
