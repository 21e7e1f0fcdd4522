// The bus arbitration model: closed-form results checked against hand-worked cases, a naive
// burst-by-burst reference written here, and one-cycle-early / on-time boundaries.

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "hilsim/timing/bus_scheduler.h"

namespace hilsim::timing {
namespace {

BusParams params(Arbitration a, uint32_t bpc, uint32_t burst, uint32_t ports) {
  BusParams p;
  p.arbitration = a;
  p.bytes_per_cycle = bpc;
  p.burst_bytes = burst;
  p.ports = ports;
  return p;
}

TEST(BusTiming, TransferCyclesCountBurstsSeparately) {
  const BusParams p = params(Arbitration::kRoundRobin, 16, 256, 1);
  EXPECT_EQ(transferCycles(p, 1), 1u);
  EXPECT_EQ(transferCycles(p, 16), 1u);
  EXPECT_EQ(transferCycles(p, 17), 2u);
  EXPECT_EQ(transferCycles(p, 4096), 256u);
  // A burst size that is not a multiple of the width wastes a partial beat per burst.
  const BusParams odd = params(Arbitration::kRoundRobin, 16, 24, 1);
  EXPECT_EQ(transferCycles(odd, 48), 4u);  // two bursts of 24 bytes, 2 cycles each
}

TEST(BusScheduler, LoneTransferCompletesExactlyOnTime) {
  BusScheduler bus(params(Arbitration::kRoundRobin, 16, 256, 2));
  bus.add(0, 4096, 10);  // 256 cycles from cycle 10
  EXPECT_EQ(bus.nextCompletion(), 266u);
  EXPECT_TRUE(bus.advance(265).empty());  // one cycle early: still running
  const auto done = bus.advance(266);     // exactly on time
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].cycle, 266u);
  EXPECT_EQ(done[0].stall_cycles, 0u);
  EXPECT_FALSE(bus.portBusy(0));
}

TEST(BusScheduler, TwoEqualTransfersShareTheBusRoundRobin) {
  // 4 bursts of 16 cycles each; interleaved A B A B A B A B: A ends at 112, B at 128.
  BusScheduler bus(params(Arbitration::kRoundRobin, 16, 256, 2));
  bus.add(0, 1024, 0);
  bus.add(1, 1024, 0);
  EXPECT_EQ(bus.nextCompletion(), 112u);
  auto done = bus.advance(111);
  EXPECT_TRUE(done.empty());
  done = bus.advance(112);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].port, 0u);
  EXPECT_EQ(done[0].stall_cycles, 112u - 64u);
  done = bus.advance(128);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].port, 1u);
  EXPECT_EQ(done[0].cycle, 128u);
  EXPECT_EQ(done[0].stall_cycles, 64u);
}

TEST(BusScheduler, FixedPriorityServesTheLowestPortFirst) {
  BusScheduler bus(params(Arbitration::kFixed, 16, 256, 2));
  bus.add(1, 1024, 0);
  bus.add(0, 1024, 0);
  const auto done = bus.advance(1000);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0].port, 0u);
  EXPECT_EQ(done[0].cycle, 64u);
  EXPECT_EQ(done[1].port, 1u);
  EXPECT_EQ(done[1].cycle, 128u);
}

TEST(BusScheduler, LateArrivalWaitsForTheBurstInProgress) {
  BusScheduler bus(params(Arbitration::kFixed, 16, 256, 2));
  bus.add(1, 1024, 0);  // bursts 0-16, 16-32, ...
  bus.advance(5);
  bus.add(0, 256, 5);   // higher priority, one burst: waits until 16, ends at 32
  const auto done = bus.advance(1000);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0].port, 0u);
  EXPECT_EQ(done[0].cycle, 32u);
  EXPECT_EQ(done[0].stall_cycles, 11u);
  EXPECT_EQ(done[1].cycle, 80u);
}

TEST(BusScheduler, ContinuingTransferOnTheSamePortKeepsItsPlace) {
  // One transfer of 8 KiB, or the same bytes as two 4 KiB transfers on the same port issued
  // back to back, competing with another port: identical completion of the whole.
  for (Arbitration a : {Arbitration::kRoundRobin, Arbitration::kFixed}) {
    BusScheduler whole(params(a, 16, 256, 2));
    whole.add(0, 8192, 0);
    whole.add(1, 8192, 0);
    std::map<uint32_t, uint64_t> end_whole;
    for (const auto& c : whole.advance(100000)) end_whole[c.port] = c.cycle;

    BusScheduler split(params(a, 16, 256, 2));
    split.add(0, 4096, 0);
    split.add(1, 8192, 0);
    std::map<uint32_t, uint64_t> end_split;
    while (true) {
      const auto next = split.nextCompletion();
      if (!next) break;
      for (const auto& c : split.advance(*next)) {
        if (c.port == 0 && !end_split.count(99)) {
          end_split[99] = c.cycle;  // first half done: issue the second half at once
          split.add(0, 4096, c.cycle);
        } else {
          end_split[c.port] = c.cycle;
        }
      }
    }
    EXPECT_EQ(end_split[0], end_whole[0]);
    EXPECT_EQ(end_split[1], end_whole[1]);
  }
}

// Naive reference: one burst decision at a time.
std::map<int, uint64_t> naive(const BusParams& p, const std::vector<std::tuple<uint32_t, uint64_t, uint64_t>>& transfers) {
  struct F { uint64_t remaining, eligible; int id; bool active; };
  std::vector<F> ports(p.ports, F{0, 0, -1, false});
  std::vector<std::tuple<uint32_t, uint64_t, uint64_t>> pending = transfers;  // port, bytes, eligible
  std::map<int, uint64_t> end;
  uint64_t t = 0;
  uint32_t last = p.ports - 1;
  int next_id = 0;
  auto admit = [&]() {
    for (auto it = pending.begin(); it != pending.end();) {
      auto [port, bytes, elig] = *it;
      if (!ports[port].active) {
        ports[port] = F{bytes, std::max(elig, t), next_id++, true};
        it = pending.erase(it);
      } else {
        ++it;
      }
    }
  };
  admit();
  while (true) {
    int chosen = -1;
    for (uint32_t i = 1; i <= p.ports; ++i) {
      const uint32_t q = p.arbitration == Arbitration::kFixed ? i - 1 : (last + i) % p.ports;
      if (ports[q].active && ports[q].eligible <= t) {
        chosen = static_cast<int>(q);
        break;
      }
    }
    if (chosen < 0) {
      uint64_t soonest = UINT64_MAX;
      for (const F& f : ports)
        if (f.active) soonest = std::min(soonest, f.eligible);
      if (soonest == UINT64_MAX) break;
      t = soonest;
      continue;
    }
    F& f = ports[static_cast<size_t>(chosen)];
    const uint64_t b = std::min<uint64_t>(f.remaining, p.burst_bytes);
    f.remaining -= b;
    t += (b + p.bytes_per_cycle - 1) / p.bytes_per_cycle;
    last = static_cast<uint32_t>(chosen);
    if (f.remaining == 0) {
      end[f.id] = t;
      f.active = false;
      admit();
    }
  }
  return end;
}

TEST(BusScheduler, MatchesBurstByBurstReferenceOnRandomTraffic) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const Arbitration a = trial % 2 ? Arbitration::kFixed : Arbitration::kRoundRobin;
    const uint32_t ports = 1 + static_cast<uint32_t>(rng() % 6);
    const uint32_t bpc = 1u << (rng() % 5);
    const uint32_t burst = bpc * (1 + static_cast<uint32_t>(rng() % 8)) + (trial % 3 == 0 ? 3 : 0);
    const BusParams p = params(a, bpc, burst, ports);
    // One transfer per port with random sizes and eligibility times.
    std::vector<std::tuple<uint32_t, uint64_t, uint64_t>> transfers;
    for (uint32_t port = 0; port < ports; ++port)
      transfers.emplace_back(port, 1 + rng() % 5000, rng() % 300);
    const auto expected = naive(p, transfers);

    BusScheduler bus(p);
    for (const auto& [port, bytes, elig] : transfers) bus.add(port, bytes, elig);
    std::map<int, uint64_t> got;
    // Advance in uneven steps to exercise the closed-form skipping.
    uint64_t t = 0;
    while (bus.nextCompletion()) {
      t += 1 + rng() % 97;
      for (const auto& c : bus.advance(t)) got[static_cast<int>(c.port)] = c.cycle;
    }
    ASSERT_EQ(got.size(), expected.size()) << "trial " << trial;
    for (const auto& [id, cycle] : expected) EXPECT_EQ(got[id], cycle) << "trial " << trial << " port " << id;
  }
}

}  // namespace
}  // namespace hilsim::timing
