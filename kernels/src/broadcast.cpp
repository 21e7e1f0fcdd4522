#include "hilsim/kernels/broadcast.h"

namespace hilsim::kernels {
namespace {

// Dimension `i` of `shape` right-aligned into `rank` dimensions (leading ones).
int32_t alignedDim(const int32_t* shape, int32_t shape_rank, int32_t rank, int32_t i) {
  const int32_t pad = rank - shape_rank;
  return i < pad ? 1 : shape[i - pad];
}

// Whether a loop of `stride` continues the loop inside it (`inner_stride`, `inner_extent`) so the
// two can run as one: both broadcast, or the outer one starts where the inner one ends.
bool continues(int64_t inner_stride, int64_t inner_extent, int64_t stride) {
  if (inner_stride == 0) return stride == 0;
  return stride == inner_stride * inner_extent;
}

}  // namespace

BroadcastStatus planBroadcast(const int32_t* shape1, int32_t rank1, const int32_t* shape2,
                              int32_t rank2, BroadcastLoops* loops, int32_t* out_shape,
                              int32_t* out_rank) {
  if (rank1 < 0 || rank2 < 0 || rank1 > kMaxBroadcastRank || rank2 > kMaxBroadcastRank)
    return BroadcastStatus::kRankTooLarge;
  const int32_t rank = rank1 > rank2 ? rank1 : rank2;
  bool empty = false;
  for (int32_t i = 0; i < rank; ++i) {
    const int32_t d1 = alignedDim(shape1, rank1, rank, i);
    const int32_t d2 = alignedDim(shape2, rank2, rank, i);
    if (d1 < 0 || d2 < 0) return BroadcastStatus::kNegativeDim;
    if (d1 != d2 && d1 != 1 && d2 != 1) return BroadcastStatus::kIncompatible;
    out_shape[i] = d1 == 1 ? d2 : d1;
    empty = empty || out_shape[i] == 0;
  }
  *out_rank = rank;
  *loops = BroadcastLoops{};
  if (empty) return BroadcastStatus::kOk;
  if (rank <= kNestRank) {
    for (int32_t i = 0; i < kNestRank; ++i) {
      loops->nest_shape1[i] = alignedDim(shape1, rank1, kNestRank, i);
      loops->nest_shape2[i] = alignedDim(shape2, rank2, kNestRank, i);
    }
  }

  // Loops from the innermost out; dimensions of extent 1 add no loop.
  int64_t extent[kMaxBroadcastRank];
  int64_t stride1[kMaxBroadcastRank];
  int64_t stride2[kMaxBroadcastRank];
  int32_t count = 0;
  int64_t elements1 = 1;
  int64_t elements2 = 1;
  for (int32_t i = rank - 1; i >= 0; --i) {
    const int32_t d1 = alignedDim(shape1, rank1, rank, i);
    const int32_t d2 = alignedDim(shape2, rank2, rank, i);
    const int64_t e = out_shape[i];
    if (e != 1) {
      const int64_t s1 = d1 == 1 ? 0 : elements1;
      const int64_t s2 = d2 == 1 ? 0 : elements2;
      if (count > 0 && continues(stride1[count - 1], extent[count - 1], s1) &&
          continues(stride2[count - 1], extent[count - 1], s2)) {
        extent[count - 1] *= e;
      } else {
        extent[count] = e;
        stride1[count] = s1;
        stride2[count] = s2;
        ++count;
      }
    }
    elements1 *= d1;
    elements2 *= d2;
  }
  if (count == 0) {  // one element
    extent[0] = 1;
    stride1[0] = 1;
    stride2[0] = 1;
    count = 1;
  }
  loops->rank = count;
  for (int32_t l = 0; l < count; ++l) {
    loops->extent[l] = extent[count - 1 - l];
    loops->stride1[l] = stride1[count - 1 - l];
    loops->stride2[l] = stride2[count - 1 - l];
  }
  return BroadcastStatus::kOk;
}

}  // namespace hilsim::kernels
