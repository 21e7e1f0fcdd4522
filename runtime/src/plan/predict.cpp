#include "hilsim/rt/plan/predict.h"

#include <algorithm>
#include <cmath>

#include "hilsim/drv/regs.h"
#include "hilsim/errors.h"

namespace hilsim::rt::plan {
namespace {

// Converts between clocks in picoseconds, as the simulator does.
struct Clock {
  double ps;
  explicit Clock(double mhz) : ps(std::round(1e6 / mhz)) {}
};

class Estimator {
 public:
  explicit Estimator(const timing::PlatformTiming& t)
      : t_(t), cpu_(t.clocks.cpu_mhz), accel_(t.clocks.accel_mhz), bus_(t.clocks.bus_mhz) {}

  double accel(double cycles) const { return cycles * accel_.ps; }
  double bus(double cycles) const { return cycles * bus_.ps; }
  double cpu(double cycles) const { return cycles * cpu_.ps; }
  double toCpuCycles(double ps) const { return std::ceil(ps / cpu_.ps); }

  // One register access from the host: software, bus trip, register block.
  double regAccess() const {
    return cpu(static_cast<double>(t_.host.driver_reg_cycles)) + bus(t_.bus.latency_cycles + 1.0) +
           accel(t_.accel.reg_access_cycles);
  }
  // A bulk transfer of `bytes` sharing the bus with `sharers` equal transfers.
  double transfer(uint64_t bytes, double sharers) const {
    return bus(t_.bus.latency_cycles + t_.bus.memory_latency_cycles) +
           bus(static_cast<double>(timing::transferCycles(t_.bus.arbitration, bytes)) * sharers);
  }
  double dma(uint64_t bytes, double sharers) const {
    return accel(t_.accel.dma_setup_cycles) + transfer(bytes, sharers);
  }
  const timing::PlatformTiming& params() const { return t_; }

 private:
  const timing::PlatformTiming& t_;
  Clock cpu_, accel_, bus_;
};

}  // namespace

Prediction predictAccelerated(const Plan& plan, const timing::PlatformTiming& t) {
  const Estimator e(t);
  const GemmShape& s = plan.shape;
  const double cores = static_cast<double>(plan.chunks.size());
  // Cores load concurrently; they share the bus and the DMA channels.
  const double sharers = std::max(1.0, std::min(cores, static_cast<double>(t.accel.dma_channels)));
  const double channel_wait = std::max(1.0, cores / std::max(1u, t.accel.dma_channels));

  // Host before the job: dispatch, driver software, input copy, five register writes.
  const double host_fixed =
      e.cpu(static_cast<double>(t.host.dispatch_cycles + t.host.driver_job_cycles)) +
      5 * e.regAccess();
  const double input_copy = e.transfer(uint64_t{s.rows} * s.k, 1);
  // Host after the job: interrupt, handler, two register accesses, output copy.
  const double irq_fixed = e.accel(t.accel.irq_latency_cycles) +
                           e.cpu(static_cast<double>(t.host.irq_handler_cycles)) +
                           2 * e.regAccess();
  const double output_copy = e.transfer(uint64_t{s.rows} * s.n, 1);

  double slowest = 0, core_fixed = 0, bus_bytes = 0;
  for (const Chunk& c : plan.chunks) {
    const double startup = e.accel(t.accel.core_startup_cycles) +
                           e.dma(drv::regs::kDescriptorBytes, sharers) * channel_wait;
    const bool db = c.sram_tile.size() > 1;
    double time = startup;
    const uint64_t per_feature = uint64_t{s.k} + kParamBytesPerFeature;
    auto tileFeatures = [&](uint32_t tile) {
      return std::min<uint64_t>(c.tile_n, c.n_count - uint64_t{tile} * c.tile_n);
    };
    auto compute = [&](uint32_t tile) {
      const auto cc = timing::computeCycles(plan.hardware.dataflow,
                                            {plan.hardware.array_rows, plan.hardware.array_cols},
                                            s.rows, s.k, tileFeatures(tile));
      return e.accel(static_cast<double>(cc.cycles));
    };
    auto load = [&](uint32_t tile) {
      return e.dma(tileFeatures(tile) * per_feature, sharers) * channel_wait;
    };
    time += std::max(e.dma(uint64_t{s.rows} * s.k, sharers) * channel_wait, load(0));
    for (uint32_t tile = 0; tile < c.num_tiles; ++tile) {
      const bool more = tile + 1 < c.num_tiles;
      if (db)
        time += std::max(compute(tile), more ? load(tile + 1) : 0.0);
      else
        time += compute(tile) + (more ? load(tile + 1) : 0.0);
    }
    time += e.dma(uint64_t{s.rows} * tileFeatures(c.num_tiles - 1), sharers);
    slowest = std::max(slowest, time);
    core_fixed = std::max(core_fixed, startup + e.accel(t.accel.dma_setup_cycles));
    bus_bytes += static_cast<double>(uint64_t{s.rows} * s.k + c.n_count * per_feature +
                                     uint64_t{s.rows} * c.n_count + drv::regs::kDescriptorBytes);
  }
  // The bus cannot move the layer's bytes faster than its bandwidth.
  const double bus_bound = e.bus(bus_bytes / t.bus.arbitration.bytes_per_cycle) + core_fixed;
  const double accel_span = std::max(slowest, bus_bound);

  Prediction p;
  p.cycles = static_cast<uint64_t>(
      e.toCpuCycles(host_fixed + input_copy + accel_span + irq_fixed + output_copy));
  p.fixed_cycles = std::min<uint64_t>(
      p.cycles, static_cast<uint64_t>(e.toCpuCycles(host_fixed + core_fixed + irq_fixed)));
  p.variable_cycles = p.cycles - p.fixed_cycles;
  return p;
}

std::optional<uint64_t> breakEvenMacs(const GemmShape& shape, const Hardware& hw,
                                      const timing::PlatformTiming& t,
                                      const timing::CpuCostModel& cpu) {
  const double ratio = static_cast<double>(shape.k) / static_cast<double>(shape.n);
  auto member = [&](uint64_t n) {
    GemmShape m = shape;
    m.n = static_cast<uint32_t>(n);
    m.k = static_cast<uint32_t>(std::max<double>(1.0, std::round(ratio * static_cast<double>(n))));
    return m;
  };
  // Whether offloading member n pays; false if it does not fit the hardware.
  auto pays = [&](uint64_t n) {
    const GemmShape m = member(n);
    try {
      const Prediction p = predictAccelerated(makePlan(hw, m), t);
      return p.cycles < cpu.fullyConnectedCycles(m.rows, m.k, m.n);
    } catch (const ModelError&) {
      return false;
    }
  };
  const uint64_t limit_macs = uint64_t{1} << 40;
  uint64_t hi = 1;
  while (!pays(hi)) {
    hi *= 2;
    if (member(hi).macs() > limit_macs || hi > (uint64_t{1} << 31)) return std::nullopt;
  }
  uint64_t lo = hi / 2;  // lo does not pay (or is 0)
  while (hi - lo > 1) {
    const uint64_t mid = lo + (hi - lo) / 2;
    (pays(mid) ? hi : lo) = mid;
  }
  return member(hi).macs();
}

}  // namespace hilsim::rt::plan
