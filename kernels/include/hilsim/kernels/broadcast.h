#pragma once
// Broadcasting for the element-wise binary kernels: out = op(in1, in2) over numpy-style
// broadcast shapes (right-aligned; a dimension of size 1 repeats), visiting the output in row-major
// order and reading each operand at the broadcast index, as TensorFlow Lite Micro's reference
// kernels do whichever loop (flat, fivefold or the generic slow path) they take. The arithmetic of
// an element does not depend on the loop, so one loop nest serves every case. Freestanding.

#include <cstdint>

namespace hilsim::kernels {

// Ranks up to this many dimensions are handled (TFLite Micro's generic broadcast loop limit).
constexpr int kMaxBroadcastRank = 8;

// The loop nest of a broadcast binary operator, outermost loop first, with runs of dimensions that
// share one layout fused. An operand's stride is 0 along a loop it is broadcast over. The
// innermost loop has strides 0 or 1. rank == 0: the output is empty, nothing to do.
struct BroadcastLoops {
  int32_t rank = 0;
  int64_t extent[kMaxBroadcastRank] = {};
  int64_t stride1[kMaxBroadcastRank] = {};  // elements of input 1
  int64_t stride2[kMaxBroadcastRank] = {};  // elements of input 2
};

enum class BroadcastStatus : uint8_t {
  kOk,
  kRankTooLarge,  // an operand has more than kMaxBroadcastRank dimensions
  kIncompatible,  // two dimensions differ and neither is 1
  kNegativeDim,
};

// Plans out = op(in1, in2) for operand shapes `shape1` (rank1 dims) and `shape2` (rank2 dims).
// Writes the broadcast output shape (rank max(rank1, rank2), at most kMaxBroadcastRank entries) to
// out_shape / *out_rank and the loops to *loops. On an error the outputs are unspecified.
[[nodiscard]] BroadcastStatus planBroadcast(const int32_t* shape1, int32_t rank1,
                                            const int32_t* shape2, int32_t rank2,
                                            BroadcastLoops* loops, int32_t* out_shape,
                                            int32_t* out_rank);

// Runs out[o] = op(in1[i1], in2[i2]) over the loops of planBroadcast.
template <typename In, typename Out, typename Op>
void broadcastBinary(const BroadcastLoops& loops, const In* in1, const In* in2, Out* out, Op op) {
  if (loops.rank <= 0) return;
  const int32_t inner = loops.rank - 1;
  const int64_t n = loops.extent[inner];
  const bool in1_repeats = loops.stride1[inner] == 0;
  const bool in2_repeats = loops.stride2[inner] == 0;
  int64_t index[kMaxBroadcastRank] = {};
  int64_t offset1 = 0;
  int64_t offset2 = 0;
  for (;;) {
    const In* a = in1 + offset1;
    const In* b = in2 + offset2;
    if (in1_repeats) {
      const In a0 = *a;
      for (int64_t i = 0; i < n; ++i) out[i] = op(a0, b[i]);
    } else if (in2_repeats) {
      const In b0 = *b;
      for (int64_t i = 0; i < n; ++i) out[i] = op(a[i], b0);
    } else {
      for (int64_t i = 0; i < n; ++i) out[i] = op(a[i], b[i]);
    }
    out += n;
    int32_t d = inner - 1;
    for (; d >= 0; --d) {
      offset1 += loops.stride1[d];
      offset2 += loops.stride2[d];
      if (++index[d] < loops.extent[d]) break;
      offset1 -= loops.stride1[d] * loops.extent[d];
      offset2 -= loops.stride2[d] * loops.extent[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace hilsim::kernels
