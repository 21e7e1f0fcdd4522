// The broadcast planner of the element-wise kernels: statuses, the output shape, fused loops and
// empty outputs.

#include <gtest/gtest.h>

#include <vector>

#include "hilsim/kernels/broadcast.h"

namespace hilsim::test {
namespace {

using kernels::BroadcastLoops;
using kernels::BroadcastStatus;

struct Plan {
  BroadcastStatus status;
  BroadcastLoops loops;
  std::vector<int32_t> shape;
};

Plan plan(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  Plan p;
  int32_t shape[kernels::kMaxBroadcastRank] = {};
  int32_t rank = 0;
  p.status = kernels::planBroadcast(a.data(), int32_t(a.size()), b.data(), int32_t(b.size()),
                                    &p.loops, shape, &rank);
  if (p.status == BroadcastStatus::kOk) p.shape.assign(shape, shape + rank);
  return p;
}

TEST(Broadcast, SameShapesFuseIntoOneLoop) {
  const Plan p = plan({2, 3, 4}, {2, 3, 4});
  ASSERT_EQ(p.status, BroadcastStatus::kOk);
  EXPECT_EQ(p.shape, (std::vector<int32_t>{2, 3, 4}));
  ASSERT_EQ(p.loops.rank, 1);
  EXPECT_EQ(p.loops.extent[0], 24);
  EXPECT_EQ(p.loops.stride1[0], 1);
  EXPECT_EQ(p.loops.stride2[0], 1);
}

TEST(Broadcast, ChannelVectorAgainstNhwc) {
  // [C] against [N,H,W,C]: N*H*W rows of C, input 1 restarting each row.
  const Plan p = plan({5}, {2, 3, 4, 5});
  ASSERT_EQ(p.status, BroadcastStatus::kOk);
  EXPECT_EQ(p.shape, (std::vector<int32_t>{2, 3, 4, 5}));
  ASSERT_EQ(p.loops.rank, 2);
  EXPECT_EQ(p.loops.extent[0], 24);
  EXPECT_EQ(p.loops.stride1[0], 0);
  EXPECT_EQ(p.loops.stride2[0], 5);
  EXPECT_EQ(p.loops.extent[1], 5);
  EXPECT_EQ(p.loops.stride1[1], 1);
  EXPECT_EQ(p.loops.stride2[1], 1);
}

TEST(Broadcast, ScalarsAndUnitShapes) {
  const Plan scalars = plan({}, {});
  ASSERT_EQ(scalars.status, BroadcastStatus::kOk);
  EXPECT_TRUE(scalars.shape.empty());
  ASSERT_EQ(scalars.loops.rank, 1);
  EXPECT_EQ(scalars.loops.extent[0], 1);

  const Plan scalar = plan({}, {3, 1, 2});
  ASSERT_EQ(scalar.status, BroadcastStatus::kOk);
  EXPECT_EQ(scalar.shape, (std::vector<int32_t>{3, 1, 2}));
  ASSERT_EQ(scalar.loops.rank, 1);
  EXPECT_EQ(scalar.loops.extent[0], 6);
  EXPECT_EQ(scalar.loops.stride1[0], 0);
}

TEST(Broadcast, EmptyOutputsHaveNoLoops) {
  const Plan p = plan({2, 0, 3}, {1, 1, 3});
  ASSERT_EQ(p.status, BroadcastStatus::kOk);
  EXPECT_EQ(p.shape, (std::vector<int32_t>{2, 0, 3}));
  EXPECT_EQ(p.loops.rank, 0);
  std::vector<int8_t> out(1, 42);
  const std::vector<int8_t> a(1, 1), b(1, 2);
  kernels::broadcastBinary(p.loops, a.data(), b.data(), out.data(),
                           [](int8_t x, int8_t y) -> int8_t { return x + y; });
  EXPECT_EQ(out[0], 42);
}

TEST(Broadcast, NestShapesAreTheOperandsRightAlignedIntoSix) {
  const Plan p = plan({5}, {2, 3, 4, 5});
  ASSERT_EQ(p.status, BroadcastStatus::kOk);
  EXPECT_EQ(std::vector<int32_t>(p.loops.nest_shape1, p.loops.nest_shape1 + kernels::kNestRank),
            (std::vector<int32_t>{1, 1, 1, 1, 1, 5}));
  EXPECT_EQ(std::vector<int32_t>(p.loops.nest_shape2, p.loops.nest_shape2 + kernels::kNestRank),
            (std::vector<int32_t>{1, 1, 2, 3, 4, 5}));
  // Beyond six dimensions there is no nest.
  const Plan seven = plan({2, 1, 1, 1, 1, 1, 3}, {3});
  ASSERT_EQ(seven.status, BroadcastStatus::kOk);
  EXPECT_EQ(seven.loops.nest_shape1[0], 0);
  EXPECT_EQ(seven.loops.nest_shape2[kernels::kNestRank - 1], 0);
}

// Every operand pair of both walks: the output element o holds 1000 * (index in a) + (index in b),
// worked out independently by index arithmetic.
TEST(Broadcast, NestAndFusedLoopsVisitEveryOutputAtTheBroadcastIndex) {
  const std::vector<std::pair<std::vector<int32_t>, std::vector<int32_t>>> cases = {
      {{5}, {2, 3, 4, 5}},
      {{2, 3, 1, 2}, {1, 1, 3, 2}},
      {{2, 3, 1, 2}, {2, 1, 3, 1}},
      {{1}, {7}},
      {{4, 1}, {1, 6}},
      {{2, 1, 3, 1, 2, 1}, {1, 2, 1, 2, 1, 2}},
      {{2, 1, 1, 1, 1, 1, 3}, {3}}};
  for (const auto& [shape_a, shape_b] : cases) {
    const Plan p = plan(shape_a, shape_b);
    ASSERT_EQ(p.status, BroadcastStatus::kOk);
    size_t na = 1, nb = 1, no = 1;
    for (int32_t d : shape_a) na *= size_t(d);
    for (int32_t d : shape_b) nb *= size_t(d);
    for (int32_t d : p.shape) no *= size_t(d);
    std::vector<int32_t> a(na), b(nb);
    for (size_t i = 0; i < na; ++i) a[i] = int32_t(i);
    for (size_t i = 0; i < nb; ++i) b[i] = int32_t(i);
    const auto op = [](int32_t x, int32_t y) { return 1000 * x + y; };
    std::vector<int32_t> nest(no, -1), fused(no, -1);
    kernels::broadcastNest6(p.loops, a.data(), b.data(), nest.data(), op);
    kernels::broadcastBinary(p.loops, a.data(), b.data(), fused.data(), op);
    // Index arithmetic per output element.
    const size_t rank = p.shape.size();
    std::vector<int32_t> ea(rank, 1), eb(rank, 1);
    for (size_t i = 0; i < shape_a.size(); ++i) ea[rank - shape_a.size() + i] = shape_a[i];
    for (size_t i = 0; i < shape_b.size(); ++i) eb[rank - shape_b.size() + i] = shape_b[i];
    std::vector<int32_t> want(no);
    for (size_t o = 0; o < no; ++o) {
      size_t rest = o, ia = 0, ib = 0, sa = 1, sb = 1;
      for (size_t d = rank; d-- > 0;) {
        const size_t coord = rest % size_t(p.shape[d]);
        rest /= size_t(p.shape[d]);
        ia += (ea[d] == 1 ? 0 : coord) * sa;
        ib += (eb[d] == 1 ? 0 : coord) * sb;
        sa *= size_t(ea[d]);
        sb *= size_t(eb[d]);
      }
      want[o] = op(int32_t(ia), int32_t(ib));
    }
    EXPECT_EQ(nest, want) << shape_a.size() << "-d against " << shape_b.size() << "-d";
    EXPECT_EQ(fused, want) << shape_a.size() << "-d against " << shape_b.size() << "-d";
  }
}

TEST(Broadcast, Errors) {
  EXPECT_EQ(plan({2, 3}, {3, 2}).status, BroadcastStatus::kIncompatible);
  EXPECT_EQ(plan({2, 0}, {2, 3}).status, BroadcastStatus::kIncompatible);
  EXPECT_EQ(plan({2, -1}, {2, 1}).status, BroadcastStatus::kNegativeDim);
  EXPECT_EQ(plan(std::vector<int32_t>(9, 1), {1}).status, BroadcastStatus::kRankTooLarge);
  EXPECT_EQ(plan(std::vector<int32_t>(8, 1), {1}).status, BroadcastStatus::kOk);
}

}  // namespace
}  // namespace hilsim::test
