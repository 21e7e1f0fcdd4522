// DMA, register and interrupt timing at their boundaries: one cycle early is not done, exactly on
// time is.

#include <gtest/gtest.h>

#include "hilsim/timing/link_timing.h"

namespace hilsim::timing {
namespace {

PlatformTiming timing(uint64_t accel_ps, uint64_t bus_ps, uint64_t cpu_ps = 2500) {
  PlatformTiming t;
  t.clocks.accel_ps = accel_ps;
  t.clocks.bus_ps = bus_ps;
  t.clocks.cpu_ps = cpu_ps;
  t.accel.dma_setup_cycles = 16;
  t.bus.latency_cycles = 4;
  t.bus.memory_latency_cycles = 10;
  t.bus.width_bytes = 16;
  t.bus.arbitration.bytes_per_cycle = 16;
  t.bus.arbitration.burst_bytes = 256;
  return t;
}

// When a transfer that begins at `begin_ps` ends with the bus to itself.
uint64_t loneTransferEndPs(const PlatformTiming& t, uint64_t begin_ps, uint64_t bytes) {
  const uint64_t start = eligibleBusCycle(dmaEligiblePs(t, begin_ps), begin_ps, t.clocks.bus_ps);
  return (start + transferCycles(t.bus.arbitration, bytes)) * t.clocks.bus_ps;
}

TEST(LinkTiming, LoneTransferOnOneClock) {
  // 16 + 14 cycles, then 4096 / 16 = 256 beats: done at cycle 286.
  const PlatformTiming t = timing(2500, 2500);
  const uint64_t end = loneTransferEndPs(t, 0, 4096);
  EXPECT_EQ(end, 286u * 2500);
  // A start between edges waits for the next bus edge before its bursts.
  EXPECT_EQ(loneTransferEndPs(t, 1, 4096), 287u * 2500);
  EXPECT_EQ(loneTransferEndPs(t, 2500, 16), (1u + 30 + 1) * 2500);
}

TEST(LinkTiming, LoneTransferAcrossClocks) {
  // Accel at 2500 ps, bus at 4000 ps: 16 * 2500 + 14 * 4000 = 96000 ps = 24 bus cycles exactly,
  // then 2 beats.
  const PlatformTiming t = timing(2500, 4000);
  EXPECT_EQ(loneTransferEndPs(t, 0, 32), (24u + 2) * 4000);
  // 1 ps later the set-up ends between bus edges: the bursts start one bus cycle later.
  EXPECT_EQ(loneTransferEndPs(t, 1, 32), (25u + 2) * 4000);
}

TEST(LinkTiming, RegisterAccess) {
  PlatformTiming t = timing(2500, 4000, 3000);
  t.host.driver_reg_cycles = 10;
  t.accel.reg_access_cycles = 2;
  // 10 CPU cycles of software (30000 ps), 2 accelerator cycles to take effect (5000 ps), then
  // 4 + 1 bus cycles (20000 ps): 55000 ps, and the CPU goes on at its next edge, 57000.
  const RegisterAccess a = registerAccess(t, 0);
  EXPECT_EQ(a.effect_ps, 35000u);
  EXPECT_EQ(a.done_ps, 57000u);
  // A wider access needs more data cycles; a single access to a 4-byte bus one per word.
  t.bus.width_bytes = 4;
  EXPECT_EQ(singleAccessBusCycles(t.bus, 4), 5u);
  EXPECT_EQ(singleAccessBusCycles(t.bus, 5), 6u);
}

TEST(LinkTiming, InterruptAndHostWake) {
  PlatformTiming t = timing(2500, 2500);
  t.accel.irq_latency_cycles = 8;
  // 8 accelerator cycles after the last core; the CPU takes it on its next edge.
  EXPECT_EQ(irqRisePs(t, 100000), 120000u);
  EXPECT_EQ(hostWakePs(120000, 0, 2500), 120000u);  // exactly on an edge
  EXPECT_EQ(hostWakePs(120001, 0, 2500), 122500u);  // one picosecond after: the next edge
  EXPECT_EQ(hostWakePs(119999, 0, 3000), 120000u);
  // A CPU that began waiting later than the event goes on where it was.
  EXPECT_EQ(hostWakePs(120000, 125000, 2500), 125000u);
  EXPECT_EQ(nextEdgePs(0, 2500), 0u);
}

}  // namespace
}  // namespace hilsim::timing
