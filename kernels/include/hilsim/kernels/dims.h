#pragma once
// Tensor shapes for the freestanding kernels: up to kMaxDims dimensions in a fixed array (no
// allocation), with the row-major flat size and the broadcast strides TFLite Micro's reference
// kernels use (NdArrayDesc).

#include <cstdint>

namespace hilsim::kernels {

constexpr int kMaxDims = 6;

struct Dims {
  int32_t rank = 0;
  int32_t d[kMaxDims] = {};

  int32_t flatSize() const {
    int32_t n = 1;
    for (int32_t i = 0; i < rank; ++i) n *= d[i];
    return n;
  }
  // Product of the dimensions from `first` to the last.
  int32_t sizeFrom(int32_t first) const {
    int32_t n = 1;
    for (int32_t i = first; i < rank; ++i) n *= d[i];
    return n;
  }
  // Product of the dimensions before `last` (exclusive).
  int32_t sizeBefore(int32_t last) const {
    int32_t n = 1;
    for (int32_t i = 0; i < last; ++i) n *= d[i];
    return n;
  }
};

// `shape` right-aligned into `rank` dimensions with leading ones (TFLite's ExtendedShape).
inline Dims extendDims(const Dims& shape, int32_t rank) {
  Dims out;
  out.rank = rank;
  const int32_t pad = rank - shape.rank;
  for (int32_t i = 0; i < rank; ++i) out.d[i] = i < pad ? 1 : shape.d[i - pad];
  return out;
}

// Strides that let an operand of shape `shape` be read at the index of a broadcast output:
// a dimension of size 1 gets stride 0. Both shapes must have rank kMaxDims (extendDims).
struct BroadcastDesc {
  int32_t extent[kMaxDims] = {};
  int32_t stride[kMaxDims] = {};
};

inline BroadcastDesc broadcastDesc(const Dims& shape, const Dims& output) {
  BroadcastDesc desc;
  int32_t stride = 1;
  for (int32_t i = kMaxDims - 1; i >= 0; --i) {
    desc.extent[i] = output.d[i];
    desc.stride[i] = shape.d[i] == 1 ? 0 : stride;
    stride *= shape.d[i];
  }
  return desc;
}

}  // namespace hilsim::kernels
