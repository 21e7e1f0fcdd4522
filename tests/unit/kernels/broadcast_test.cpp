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

TEST(Broadcast, Errors) {
  EXPECT_EQ(plan({2, 3}, {3, 2}).status, BroadcastStatus::kIncompatible);
  EXPECT_EQ(plan({2, 0}, {2, 3}).status, BroadcastStatus::kIncompatible);
  EXPECT_EQ(plan({2, -1}, {2, 1}).status, BroadcastStatus::kNegativeDim);
  EXPECT_EQ(plan(std::vector<int32_t>(9, 1), {1}).status, BroadcastStatus::kRankTooLarge);
  EXPECT_EQ(plan(std::vector<int32_t>(8, 1), {1}).status, BroadcastStatus::kOk);
}

}  // namespace
}  // namespace hilsim::test
