// SystemC tests of the platform: memory, bus routing, DMA timing and contention, split
// invariance, the watchdog. Each test runs in a process of its own.

#include <gtest/gtest.h>

#include <cstring>

#include "hilsim/config/derived.h"
#include "hilsim/drv/regs.h"
#include "hilsim/errors.h"
#include "hilsim/timing/link_timing.h"
#include "sim_support.h"

namespace hilsim::test {
namespace {

using sc_core::sc_time;

struct Sink : model::DmaSink {
  sc_core::sc_event done;
  void dmaDone(model::DmaRequest&) override { done.notify(sc_core::SC_ZERO_TIME); }
};

tlm::tlm_response_status access(tlm::tlm_fw_transport_if<>& target, tlm::tlm_command cmd,
                                uint64_t addr, uint8_t* data, unsigned len, sc_time* delay) {
  tlm::tlm_generic_payload t;
  t.set_command(cmd);
  t.set_address(addr);
  t.set_data_ptr(data);
  t.set_data_length(len);
  t.set_streaming_width(len);
  t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time d = sc_core::SC_ZERO_TIME;
  target.b_transport(t, d);
  EXPECT_EQ(t.get_address(), addr) << "the address must be restored on return";
  if (delay) *delay = d;
  return t.get_response_status();
}

TEST(Memory, ReadWriteDebugDmiAndAddressErrors) {
  const auto cfg = testConfig({"memory.size_bytes=1048576", "memory.latency_cycles=10",
                               "bus.latency_cycles=4", "bus.width_bytes=16"});
  runOnHost(cfg, [](model::Platform& p) {
    tlm::tlm_fw_transport_if<>& mem = *p.memory().socket.get_base_export().operator->();
    uint8_t out[8] = {1, 2, 3, 4, 5, 6, 7, 8}, in[8] = {};
    sc_time delay;
    EXPECT_EQ(access(mem, tlm::TLM_WRITE_COMMAND, 100, out, 8, &delay), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(delay, busCycles(p, 10));
    EXPECT_EQ(access(mem, tlm::TLM_READ_COMMAND, 100, in, 8, nullptr), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(std::memcmp(in, out, 8), 0);

    // The last 8 bytes are in range (end == size); one byte further is not.
    EXPECT_EQ(access(mem, tlm::TLM_WRITE_COMMAND, 1048576 - 8, out, 8, nullptr),
              tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(access(mem, tlm::TLM_WRITE_COMMAND, 1048576 - 7, out, 8, nullptr),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(access(mem, tlm::TLM_READ_COMMAND, 1ull << 40, in, 8, nullptr),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);

    // transport_dbg reads without time; DMI exposes the backing store.
    tlm::tlm_generic_payload dbg;
    uint8_t peek[8] = {};
    dbg.set_command(tlm::TLM_READ_COMMAND);
    dbg.set_address(100);
    dbg.set_data_ptr(peek);
    dbg.set_data_length(8);
    dbg.set_streaming_width(8);
    EXPECT_EQ(mem.transport_dbg(dbg), 8u);
    EXPECT_EQ(std::memcmp(peek, out, 8), 0);
    tlm::tlm_dmi dmi;
    EXPECT_TRUE(mem.get_direct_mem_ptr(dbg, dmi));
    EXPECT_EQ(dmi.get_dmi_ptr(), p.memory().view(0, 1));
    EXPECT_EQ(dmi.get_end_address(), 1048576u - 1);
    EXPECT_TRUE(dmi.is_read_write_allowed());
    EXPECT_EQ(dmi.get_read_latency(), busCycles(p, 10));

    // Through the bus: routed by address, single accesses pay the bus latency and data beats.
    tlm::tlm_fw_transport_if<>& bus = *p.bus().target_socket.get_base_export().operator->();
    EXPECT_EQ(access(bus, tlm::TLM_READ_COMMAND, 100, in, 8, &delay), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(delay, busCycles(p, 10 + 4 + 1));
    EXPECT_EQ(access(bus, tlm::TLM_READ_COMMAND, 0x9'0000'0000ull, in, 8, nullptr),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    // DMI through the bus is translated to global addresses: core 1's SRAM window.
    dbg.set_address(drv::regs::kSramBase + drv::regs::kSramWindow + 64);
    EXPECT_TRUE(bus.get_direct_mem_ptr(dbg, dmi));
    EXPECT_EQ(dmi.get_start_address(), drv::regs::kSramBase + drv::regs::kSramWindow);
    EXPECT_EQ(dmi.get_dmi_ptr(), p.accel().sram(1).view(0, 1));
  });
}

// DMA loads into SRAM are snapshots: every observer sees exactly what a copy would have given.
TEST(Memory, SnapshotsBehaveLikeCopies) {
  runOnHost(testConfig(), [](model::Platform& p) {
    tlm::tlm_fw_transport_if<>& bus = *p.bus().target_socket.get_base_export().operator->();
    auto poke = [&](uint64_t addr, uint8_t value, unsigned len) {
      std::vector<uint8_t> bytes(len, value);
      tlm::tlm_generic_payload t;
      t.set_command(tlm::TLM_WRITE_COMMAND);
      t.set_address(addr);
      t.set_data_ptr(bytes.data());
      t.set_data_length(len);
      t.set_streaming_width(len);
      ASSERT_EQ(bus.transport_dbg(t), len);
    };
    auto peek = [&](uint64_t addr) {
      uint8_t value = 0;
      tlm::tlm_generic_payload t;
      t.set_command(tlm::TLM_READ_COMMAND);
      t.set_address(addr);
      t.set_data_ptr(&value);
      t.set_data_length(1);
      t.set_streaming_width(1);
      EXPECT_EQ(bus.transport_dbg(t), 1u);
      return value;
    };
    const uint64_t sram = drv::regs::kSramBase;
    model::Memory& s0 = p.accel().sram(0);
    poke(0x1000, 0xAA, 8192);
    s0.snapshotFrom(p.memory(), 0x1000, 0, 8192);
    EXPECT_EQ(s0.pendingSnapshots(), 1u);
    EXPECT_EQ(s0.view(100, 10)[0], 0xAA);
    // The source changes: the snapshot keeps the old bytes.
    poke(0x1000, 0xBB, 8192);
    EXPECT_EQ(peek(sram + 5), 0xAA);
    EXPECT_EQ(peek(0x1005), 0xBB);
    // A new snapshot over part of the old one: the rest of the old one stays.
    s0.snapshotFrom(p.memory(), 0x1000, 4096, 4096);
    EXPECT_EQ(peek(sram + 4096), 0xBB);
    EXPECT_EQ(peek(sram + 100), 0xAA);
    // Pending bytes are never lost: a write to the SRAM keeps the untouched neighbours.
    s0.snapshotFrom(p.memory(), 0x1000, 8192, 4096);
    poke(sram + 8192 + 10, 0xCC, 1);
    EXPECT_EQ(peek(sram + 8192 + 9), 0xBB);
    EXPECT_EQ(peek(sram + 8192 + 10), 0xCC);
    // DMI sees settled bytes.
    s0.snapshotFrom(p.memory(), 0x1000, 16384, 4096);
    tlm::tlm_generic_payload t;
    t.set_address(sram + 16384);
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(bus.get_direct_mem_ptr(t, dmi));
    EXPECT_EQ(s0.pendingSnapshots(), 0u);
    EXPECT_EQ(dmi.get_dmi_ptr()[16384], 0xBB);
    EXPECT_EQ(dmi.get_dmi_ptr()[0], 0xAA);
  });
}

// A lone transfer: set-up, access latency, then its bursts.
TEST(Dma, TransferCompletesExactlyWhenTheFormulaSays) {
  const auto cfg = testConfig({"accel.dma.setup_cycles=16", "memory.latency_cycles=10",
                               "bus.latency_cycles=4", "bus.width_bytes=16",
                               "memory.bytes_per_cycle=16", "accel.dma.max_burst_bytes=256"});
  runOnHost(cfg, [](model::Platform& p) {
    std::vector<uint8_t> local(4096);
    Sink sink;
    model::DmaRequest r;
    r.direction = model::DmaRequest::Direction::kToLocal;
    r.mem_addr = 0;
    r.local = local.data();
    r.row_bytes = 4096;
    r.sink = &sink;
    p.accel().dma().submit(&r);
    // 16 set-up + 14 latency + 4096 / 16 = 256 bursts' beats = 286 cycles (one clock here).
    const timing::PlatformTiming t = config::platformTiming(p.config());
    const uint64_t first =
        timing::eligibleBusCycle(timing::dmaEligiblePs(t, 0), 0, t.clocks.bus_ps);
    const sc_time expected = sc_time::from_value(
        (first + timing::transferCycles(t.bus.arbitration, 4096)) * t.clocks.bus_ps);
    EXPECT_EQ(expected, accelCycles(p, 16) + busCycles(p, 14 + 256));
    sc_core::wait(expected - busCycles(p, 1));
    EXPECT_FALSE(r.done) << "one cycle early";
    sc_core::wait(busCycles(p, 1));
    sc_core::wait(sc_core::SC_ZERO_TIME);
    sc_core::wait(sc_core::SC_ZERO_TIME);
    EXPECT_TRUE(r.done) << "exactly on time";
    EXPECT_EQ(r.done_time, expected);
    EXPECT_EQ(r.stall_cycles, 0u);
  });
}

// Two transfers on two channels share the bus burst by burst (round robin).
class Contention : public ::testing::TestWithParam<uint64_t> {};

TEST_P(Contention, TwoChannelsTakeTheTimeTheFormulaSays) {
  const auto cfg = testConfig(
      {"accel.dma.setup_cycles=16", "memory.latency_cycles=10", "bus.latency_cycles=4",
       "bus.width_bytes=16", "memory.bytes_per_cycle=16", "accel.dma.max_burst_bytes=256",
       "accel.dma.channels=2", "sim.transaction_bytes=" + std::to_string(GetParam())});
  runOnHost(cfg, [](model::Platform& p) {
    std::vector<uint8_t> a(4096), b(4096);
    Sink sink;
    model::DmaRequest ra, rb;
    for (auto [r, buf, addr] : {std::tuple{&ra, &a, 0ull}, std::tuple{&rb, &b, 65536ull}}) {
      r->mem_addr = addr;
      r->local = buf->data();
      r->row_bytes = 4096;
      r->sink = &sink;
      p.accel().dma().submit(r);
    }
    while (!(ra.done && rb.done)) sc_core::wait(sink.done);
    // 16 bursts of 16 cycles each, interleaved: A's last burst is the 31st, B's the 32nd.
    const sc_time start = accelCycles(p, 16) + busCycles(p, 14);
    EXPECT_EQ(ra.done_time, start + busCycles(p, 31 * 16));
    EXPECT_EQ(rb.done_time, start + busCycles(p, 32 * 16));
    EXPECT_EQ(ra.stall_cycles, 15u * 16u);
    EXPECT_EQ(rb.stall_cycles, 16u * 16u);
  });
}

// The simulator's own chunking of the data (one transaction, or many) changes nothing.
INSTANTIATE_TEST_SUITE_P(SplitInvariance, Contention, ::testing::Values(0u, 64u, 1024u, 4096u),
                         [](const auto& info) {
                           return "transaction_bytes_" + std::to_string(info.param);
                         });

// The interrupt rises irq_latency_cycles after the job ends: low one cycle early, high on time.
TEST(Interrupt, RisesExactlyAfterItsLatency) {
  const auto cfg = testConfig({"accel.irq_latency_cycles=8"});
  runOnHost(cfg, [](model::Platform& p) {
    drv::RegIo& io = p.host();
    // An empty core mask ends the job as soon as it starts, with an error interrupt.
    io.write32(drv::regs::CORE_MASK_LO, 0);
    io.write32(drv::regs::CTRL, drv::regs::CTRL_START);
    const sc_time done = p.accel().lastJobDone();
    EXPECT_EQ(done, p.accel().lastJobStart());
    const sc_time rise =
        sc_time::from_value(timing::irqRisePs(config::platformTiming(p.config()), done.value()));
    sc_core::wait(rise - accelCycles(p, 1) - sc_core::sc_time_stamp());
    EXPECT_FALSE(p.host().irq.read()) << "one cycle early";
    sc_core::wait(accelCycles(p, 1));
    sc_core::wait(sc_core::SC_ZERO_TIME);
    EXPECT_TRUE(p.host().irq.read()) << "exactly on time";
  });
}

TEST(Watchdog, EndsAHungSimulationNamingTheLastTransaction) {
  const auto cfg = testConfig({"sim.watchdog_cycles=10000"});
  try {
    runOnHost(cfg, [](model::Platform& p) {
      (void)p.host().read32(drv::regs::ID);
      // A host that waits for something that never happens. The event outlives the abandoned
      // thread (a stack-local one would be reported as a leak by LeakSanitizer).
      static sc_core::sc_event* const never = new sc_core::sc_event("never");
      sc_core::wait(*never);
    });
    FAIL() << "the watchdog did not fire";
  } catch (const SimulationError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("watchdog: no progress for 10000 host cycles"), std::string::npos) << msg;
    EXPECT_NE(msg.find("last transaction: cpu READ 0x100000000 (4 bytes)"), std::string::npos)
        << msg;
  }
}

}  // namespace
}  // namespace hilsim::test
