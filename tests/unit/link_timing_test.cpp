// DMA and interrupt timing at their boundaries: one cycle early is not done, exactly on time is.

#include <gtest/gtest.h>

#include "hilsim/timing/link_timing.h"

namespace hilsim::timing {
namespace {

TransferTiming timing(uint64_t accel_ps, uint64_t bus_ps) {
  TransferTiming t;
  t.accel_period_ps = accel_ps;
  t.bus_period_ps = bus_ps;
  t.setup_cycles = 16;
  t.latency_cycles = 14;
  t.bus.bytes_per_cycle = 16;
  t.bus.burst_bytes = 256;
  return t;
}

TEST(LinkTiming, LoneTransferOnOneClock) {
  // 16 + 14 cycles, then 4096 / 16 = 256 beats: done at cycle 286.
  const TransferTiming t = timing(2500, 2500);
  const uint64_t end = loneTransferEndPs(t, 0, 4096);
  EXPECT_EQ(end, 286u * 2500);
  EXPECT_GT(end, 285u * 2500);  // one cycle early it is still running
  // A start between edges waits for the next bus edge before its bursts.
  EXPECT_EQ(loneTransferEndPs(t, 1, 4096), 287u * 2500);
  EXPECT_EQ(loneTransferEndPs(t, 2500, 16), (1u + 30 + 1) * 2500);
}

TEST(LinkTiming, LoneTransferAcrossClocks) {
  // Accel at 2500 ps, bus at 4000 ps: 16 * 2500 + 14 * 4000 = 96000 ps = 24 bus cycles exactly,
  // then 2 beats.
  const TransferTiming t = timing(2500, 4000);
  EXPECT_EQ(loneTransferEndPs(t, 0, 32), (24u + 2) * 4000);
  // 1 ps later the set-up ends between bus edges: the bursts start one bus cycle later.
  EXPECT_EQ(loneTransferEndPs(t, 1, 32), (25u + 2) * 4000);
}

TEST(LinkTiming, InterruptAndHostWake) {
  // 8 accelerator cycles after the last core; the CPU takes it on its next edge.
  EXPECT_EQ(irqRisePs(100000, 2500, 8), 120000u);
  EXPECT_EQ(hostWakePs(120000, 2500), 120000u);  // exactly on an edge
  EXPECT_EQ(hostWakePs(120001, 2500), 122500u);  // one picosecond after: the next edge
  EXPECT_EQ(hostWakePs(119999, 3000), 120000u);
  EXPECT_EQ(nextEdgePs(0, 2500), 0u);
}

}  // namespace
}  // namespace hilsim::timing
