#pragma once
// Broadcasting for the element-wise binary kernels: out = op(in1, in2) over numpy-style
// broadcast shapes (right-aligned; a dimension of size 1 repeats), visiting the output in row-major
// order and reading each operand at the broadcast index. Two walks, each the one a TensorFlow Lite
// Micro reference kernel takes: the fused loops (runs of dimensions that share one layout merged,
// the innermost loop specialised for a repeating operand: SUB's ReduceDimensionsForBroadcast walk)
// and the six-dimensional nest (every dimension of the shape right-aligned into six, each operand's
// offset advanced by its stride at every element: BroadcastAdd6DSlow). The arithmetic of an
// element does not depend on the walk. Freestanding.

#include <cstddef>
#include <cstdint>

namespace hilsim::kernels {

// Ranks up to this many dimensions are handled (TFLite Micro's generic broadcast loop limit).
constexpr int kMaxBroadcastRank = 8;

// The dimensions of TFLite Micro's broadcast loop nest (BroadcastAdd6DSlow, NdArrayDesc<6>).
constexpr int kNestRank = 6;

// The loop nest of a broadcast binary operator, outermost loop first, with runs of dimensions that
// share one layout fused. An operand's stride is 0 along a loop it is broadcast over. The
// innermost loop has strides 0 or 1. rank == 0: the output is empty, nothing to do.
struct BroadcastLoops {
  int32_t rank = 0;
  int64_t extent[kMaxBroadcastRank] = {};
  int64_t stride1[kMaxBroadcastRank] = {};  // elements of input 1
  int64_t stride2[kMaxBroadcastRank] = {};  // elements of input 2
  // The operand shapes right-aligned into kNestRank dimensions (leading ones), as the six-fold nest
  // takes them; all zero when an operand has more than kNestRank dimensions.
  int32_t nest_shape1[kNestRank] = {};
  int32_t nest_shape2[kNestRank] = {};
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

// Calls run(a, b, out, n) for every innermost loop of the loops of planBroadcast, in row-major
// output order: `a` and `b` point at the operands' first elements of the run, `out` at its first
// output, `n` is the innermost extent.
template <typename In, typename Out, typename Run>
void forEachBroadcastRun(const BroadcastLoops& loops, const In* in1, const In* in2, Out* out,
                         Run run) {
  if (loops.rank <= 0) return;
  const int32_t inner = loops.rank - 1;
  const int64_t n = loops.extent[inner];
  int64_t index[kMaxBroadcastRank] = {};
  int64_t offset1 = 0;
  int64_t offset2 = 0;
  for (;;) {
    run(in1 + offset1, in2 + offset2, out, n);
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

// Whether the operands have the same shape (leading ones aside): one flat loop serves them.
inline bool sameShapes(const BroadcastLoops& loops) {
  return loops.rank == 1 && loops.stride1[0] == 1 && loops.stride2[0] == 1 &&
         loops.extent[0] <= INT32_MAX;
}

// Runs out[o] = op(in1[i1], in2[i2]) over the fused loops of planBroadcast, the innermost loop
// specialised for an operand that repeats along it.
template <typename In, typename Out, typename Op>
void broadcastBinary(const BroadcastLoops& loops, const In* in1, const In* in2, Out* out, Op op) {
  if (loops.rank <= 0) return;
  const bool in1_repeats = loops.stride1[loops.rank - 1] == 0;
  const bool in2_repeats = loops.stride2[loops.rank - 1] == 0;
  forEachBroadcastRun(loops, in1, in2, out,
                      [in1_repeats, in2_repeats, op](const In* a, const In* b, Out* o, int64_t n) {
                        if (in1_repeats) {
                          const In a0 = *a;
                          for (int64_t i = 0; i < n; ++i) o[i] = op(a0, b[i]);
                        } else if (in2_repeats) {
                          const In b0 = *b;
                          for (int64_t i = 0; i < n; ++i) o[i] = op(a[i], b0);
                        } else {
                          for (int64_t i = 0; i < n; ++i) o[i] = op(a[i], b[i]);
                        }
                      });
}

// Runs out[o] = op(in1[i1], in2[i2]) as TFLite Micro's six-fold broadcast nest does: each
// operand's strides worked out from its shape (NdArrayDescsForElementwiseBroadcast: row major, 0
// along a dimension it is broadcast over), then six nested loops over the output shape (dimensions
// of extent 1 included), each operand's offset advanced by its stride and the output's by one at
// every element, the outer loops restarting the inner offsets from their own. Operands of more
// than kNestRank dimensions take the fused loops.
template <typename In, typename Out, typename Op>
void broadcastNest6(const BroadcastLoops& loops, const In* in1, const In* in2, Out* out, Op op) {
  if (loops.rank <= 0) return;
  const int32_t* shape1 = loops.nest_shape1;
  const int32_t* shape2 = loops.nest_shape2;
  if (shape1[0] == 0) {
    broadcastBinary(loops, in1, in2, out, op);
    return;
  }
  int32_t stride1[kNestRank];
  int32_t stride2[kNestRank];
  int32_t dims[kNestRank];
  int32_t elements1 = 1;
  int32_t elements2 = 1;
  for (int32_t i = kNestRank - 1; i >= 0; --i) {
    stride1[i] = elements1;
    stride2[i] = elements2;
    elements1 *= shape1[i];
    elements2 *= shape2[i];
  }
  for (int32_t i = 0; i < kNestRank; ++i) {
    dims[i] = shape1[i] == 1 ? shape2[i] : shape1[i];
    if (shape1[i] != shape2[i]) {
      if (shape1[i] == 1)
        stride1[i] = 0;
      else
        stride2[i] = 0;
    }
  }
  size_t in1_a = 0;
  size_t in2_a = 0;
  size_t out_a = 0;
  for (int32_t a = 0; a < dims[0]; ++a) {
    size_t in1_d = in1_a;
    size_t in2_d = in2_a;
    size_t out_d = out_a;
    for (int32_t d = 0; d < dims[1]; ++d) {
      size_t in1_b = in1_d;
      size_t in2_b = in2_d;
      size_t out_b = out_d;
      for (int32_t b = 0; b < dims[2]; ++b) {
        size_t in1_y = in1_b;
        size_t in2_y = in2_b;
        size_t out_y = out_b;
        for (int32_t y = 0; y < dims[3]; ++y) {
          size_t in1_x = in1_y;
          size_t in2_x = in2_y;
          size_t out_x = out_y;
          for (int32_t x = 0; x < dims[4]; ++x) {
            size_t in1_c = in1_x;
            size_t in2_c = in2_x;
            size_t out_c = out_x;
            for (int32_t c = 0; c < dims[5]; ++c) {
              out[out_c] = op(in1[in1_c], in2[in2_c]);
              in1_c += static_cast<size_t>(stride1[5]);
              in2_c += static_cast<size_t>(stride2[5]);
              ++out_c;
            }
            in1_x += static_cast<size_t>(stride1[4]);
            in2_x += static_cast<size_t>(stride2[4]);
            out_x += static_cast<size_t>(dims[5]);
          }
          in1_y += static_cast<size_t>(stride1[3]);
          in2_y += static_cast<size_t>(stride2[3]);
          out_y += static_cast<size_t>(dims[4]) * static_cast<size_t>(dims[5]);
        }
        in1_b += static_cast<size_t>(stride1[2]);
        in2_b += static_cast<size_t>(stride2[2]);
        out_b += static_cast<size_t>(dims[3]) * static_cast<size_t>(dims[4]) *
                 static_cast<size_t>(dims[5]);
      }
      in1_d += static_cast<size_t>(stride1[1]);
      in2_d += static_cast<size_t>(stride2[1]);
      out_d += static_cast<size_t>(dims[2]) * static_cast<size_t>(dims[3]) *
               static_cast<size_t>(dims[4]) * static_cast<size_t>(dims[5]);
    }
    in1_a += static_cast<size_t>(stride1[0]);
    in2_a += static_cast<size_t>(stride2[0]);
    out_a += static_cast<size_t>(dims[1]) * static_cast<size_t>(dims[2]) *
             static_cast<size_t>(dims[3]) * static_cast<size_t>(dims[4]) *
             static_cast<size_t>(dims[5]);
  }
}

// How a kernel walks operands that broadcast; operands of one shape take the flat loop either way.
enum class BroadcastWalk : uint8_t {
  kFusedLoops,  // broadcastBinary: SUB's (and MUL's, MAXIMUM's, MINIMUM's) loops
  kNest6,       // broadcastNest6: ADD's six-fold nest
};

// out[o] = op(in1[i1], in2[i2]): operands of one shape (leading ones aside) in TFLite Micro's flat
// loop (one int index for all three arrays, the element inlined), others by `Walk`.
template <BroadcastWalk Walk, typename In, typename Out, typename Op>
void elementwiseBinary(const BroadcastLoops& loops, const In* in1, const In* in2, Out* out, Op op) {
  if (sameShapes(loops)) {
    const auto size = static_cast<int32_t>(loops.extent[0]);
    for (int32_t i = 0; i < size; ++i) out[i] = op(in1[i], in2[i]);
  } else if constexpr (Walk == BroadcastWalk::kNest6) {
    broadcastNest6(loops, in1, in2, out, op);
  } else {
    broadcastBinary(loops, in1, in2, out, op);
  }
}

}  // namespace hilsim::kernels
