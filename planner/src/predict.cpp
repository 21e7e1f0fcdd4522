#include "hilsim/planner/predict.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "hilsim/drv/driver.h"
#include "hilsim/drv/regs.h"
#include "hilsim/errors.h"
#include "hilsim/planner/conv_plan.h"
#include "hilsim/planner/layer_energy.h"

namespace hilsim::planner {
namespace {

uint64_t toHost(uint64_t cycles, double mhz, const timing::Clocks& clocks) {
  return static_cast<uint64_t>(static_cast<double>(cycles) * clocks.cpu_mhz / mhz + 0.5);
}

// The MACs of the first member of a shape family (member(n), n from 1 up) for which pays(n): the
// sizes double until one pays, then bisection between it and the half that did not. nullopt if
// none pays up to 2^40 MACs and n up to max_n.
template <typename Member, typename Pays>
std::optional<uint64_t> firstPayingMacs(const Member& member, const Pays& pays, uint64_t max_n) {
  const uint64_t limit_macs = uint64_t{1} << 40;
  uint64_t hi = 1;
  while (!pays(hi)) {
    hi *= 2;
    if (member(hi).macs() > limit_macs || hi > max_n) return std::nullopt;
  }
  uint64_t lo = hi / 2;  // lo does not pay (or is 0)
  while (hi - lo > 1) {
    const uint64_t mid = lo + (hi - lo) / 2;
    (pays(mid) ? hi : lo) = mid;
  }
  return member(hi).macs();
}

}  // namespace

timing::JobWork jobWork(const Plan& plan) {
  timing::JobWork w;
  w.rows = plan.shape.rows;
  w.k = plan.shape.k;
  w.n = plan.shape.n;
  w.descriptor_bytes = drv::regs::kDescriptorBytes;
  w.param_bytes_per_feature = drv::regs::kParamBytes;
  if (plan.kind != PlanKind::kFullyConnected) {
    w.convolution = true;
    w.conv = plan.conv;
    for (const Chunk& c : plan.chunks)
      w.conv_cores.push_back(convCoreWork(c, plan.hardware.double_buffer));
    std::sort(w.conv_cores.begin(), w.conv_cores.end(),
              [](const timing::ConvCoreWork& a, const timing::ConvCoreWork& b) {
                return a.core < b.core;
              });
    return w;
  }
  for (const Chunk& c : plan.chunks)
    w.cores.push_back({c.core, c.n_count, c.tile_n, c.num_tiles, c.sram_tile.size() > 1});
  std::sort(w.cores.begin(), w.cores.end(),
            [](const timing::CoreWork& a, const timing::CoreWork& b) { return a.core < b.core; });
  return w;
}

timing::DriverTraffic driverTraffic(const Plan& plan) {
  const drv::JobRegisterTraffic traffic = drv::jobRegisterTraffic(plan.hardware.num_cores);
  return {traffic.submit_writes, traffic.completion_reads, traffic.completion_writes};
}

AccelBreakdown splitCycles(const Plan& plan, const timing::Clocks& clocks,
                           const timing::JobSteps& at, const std::vector<timing::CoreCounts>& cores,
                           uint64_t upload_bytes) {
  const uint64_t cycles = at.end;
  AccelBreakdown b;
  // The critical core: the one that finished last.
  timing::CoreCounts critical;
  uint64_t busy = 0;
  for (const timing::CoreCounts& k : cores) {
    const uint64_t core_busy = toHost(k.busy_cycles, clocks.accel_mhz, clocks);
    b.per_core.push_back({k.core, core_busy, cycles ? double(core_busy) / double(cycles) : 0.0});
    if (core_busy >= busy) {
      busy = core_busy;
      critical = k;
    }
  }
  const uint64_t startup = toHost(critical.startup_cycles, clocks.accel_mhz, clocks);
  const uint64_t run = at.job_done - at.job_started;
  const uint64_t sync = run > busy ? run - busy : 0;
  b.upload_cycles = at.uploaded - at.dispatched;
  b.fixed_cycles = std::min<uint64_t>(
      cycles, at.dispatched + b.upload_cycles + (at.job_started - at.input_sent) + startup + sync);
  b.variable_cycles = cycles - b.fixed_cycles;
  b.dma_in_cycles =
      (at.input_sent - at.uploaded) + toHost(critical.load_wait_cycles, clocks.accel_mhz, clocks);
  b.compute_cycles = toHost(critical.compute_cycles, clocks.accel_mhz, clocks);
  b.dma_out_cycles =
      toHost(critical.store_wait_cycles, clocks.accel_mhz, clocks) + (at.end - at.job_done);
  b.sync_cycles = sync;
  b.bus_stall_cycles = toHost(critical.stall_cycles, clocks.bus_mhz, clocks);
  b.bytes_moved = timing::jobBytes(jobWork(plan)) + (b.upload_cycles ? upload_bytes : 0);
  const double accel_cycles = double(cycles) * clocks.accel_mhz / clocks.cpu_mhz;
  const double slots =
      double(plan.hardware.num_cores) * plan.hardware.array_rows * plan.hardware.array_cols;
  b.mac_utilization = accel_cycles > 0 ? double(plan.shape.macs()) / (slots * accel_cycles) : 0.0;
  return b;
}

Prediction predictAccelerated(const Plan& plan, const timing::PlatformTiming& t) {
  timing::PlatformTiming on_plan = t;
  on_plan.geometry = plan.hardware;
  const timing::JobTimeline timeline =
      timing::jobTimeline(on_plan, jobWork(plan), driverTraffic(plan));
  AccelBreakdown b = splitCycles(plan, t.clocks, timeline.steps, timeline.cores, 0);
  const timing::JobWork work = jobWork(plan);
  b.host_input_bytes = timing::hostInputBytes(work);
  b.host_output_bytes = timing::hostOutputBytes(work);
  const timing::DriverTraffic traffic = driverTraffic(plan);
  b.register_accesses =
      uint64_t{traffic.submit_writes} + traffic.completion_reads + traffic.completion_writes;
  b.sleep_cycles = timeline.sleep_cycles;
  b.predicted_cycles = timeline.steps.end;
  return {timeline.steps.end, b.fixed_cycles, b.variable_cycles, b};
}

PathCosts predictCosts(const Plan& plan, const timing::PlatformTiming& t, uint64_t ref_cycles,
                       const ObjectiveSetting& objective) {
  PathCosts costs;
  costs.ref_cycles = ref_cycles;
  if (objective.objective == Objective::kCycles) {
    costs.accel_cycles = predictAccelerated(plan, t).cycles;
    return costs;
  }
  if (!objective.params)
    throw std::invalid_argument(std::string("objective ") + objectiveName(objective.objective) +
                                " needs the energy parameters");
  const Prediction p = predictAccelerated(plan, t);
  costs.accel_cycles = p.cycles;
  costs.accel_uj = accelEnergy(plan, p.breakdown, t, *objective.params).totalUj();
  costs.ref_uj = refEnergyUj(ref_cycles, 0, *objective.params);
  return costs;
}

std::optional<uint64_t> breakEvenMacs(const GemmShape& shape, const Hardware& hw,
                                      const timing::PlatformTiming& t,
                                      const timing::CpuCostModel& cpu,
                                      const ObjectiveSetting& objective) {
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
      const uint64_t ref = cpu.fullyConnectedCycles(m.rows, m.k, m.n);
      return offloadPays(objective.objective, predictCosts(makePlan(hw, m), t, ref, objective));
    } catch (const ModelError&) {
      return false;
    }
  };
  return firstPayingMacs(member, pays, uint64_t{1} << 31);
}

uint64_t convReferenceCycles(const ConvGeometry& g, const timing::CpuCostModel& cpu) {
  return cpu.cycles(
      g.depthwise ? tflite::BuiltinOperator::DEPTHWISE_CONV_2D : tflite::BuiltinOperator::CONV_2D,
      timing::convolutionWork(g, g.in_c));
}

double arrayUtilization(const Plan& plan, const std::vector<timing::CoreCounts>& cores) {
  uint64_t compute = 0;
  for (const timing::CoreCounts& c : cores) compute += c.compute_cycles;
  const double slots = double(plan.hardware.array_rows) * plan.hardware.array_cols;
  return compute ? double(plan.shape.macs()) / (slots * double(compute)) : 0.0;
}

double predictedUtilization(const Plan& plan, const timing::PlatformTiming& t) {
  timing::PlatformTiming on_plan = t;
  on_plan.geometry = plan.hardware;
  const timing::JobTimeline timeline =
      timing::jobTimeline(on_plan, jobWork(plan), driverTraffic(plan));
  return arrayUtilization(plan, timeline.cores);
}

std::optional<uint64_t> convBreakEvenMacs(const ConvGeometry& geo, const Hardware& hw,
                                          const timing::PlatformTiming& t,
                                          const timing::CpuCostModel& cpu,
                                          const ObjectiveSetting& objective) {
  const double ratio = static_cast<double>(geo.in_c) / static_cast<double>(geo.out_c);
  auto member = [&](uint64_t n) {
    ConvGeometry m = geo;
    if (geo.depthwise) {
      m.in_c = static_cast<uint32_t>(n);
      m.out_c = static_cast<uint32_t>(n * geo.depth_multiplier);
    } else {
      m.out_c = static_cast<uint32_t>(n);
      m.in_c =
          static_cast<uint32_t>(std::max<double>(1.0, std::round(ratio * static_cast<double>(n))));
    }
    return m;
  };
  auto pays = [&](uint64_t n) {
    const ConvGeometry m = member(n);
    try {
      return offloadPays(objective.objective, predictCosts(makeConvPlan(hw, m, t), t,
                                                           convReferenceCycles(m, cpu), objective));
    } catch (const ModelError&) {
      return false;
    }
  };
  return firstPayingMacs(member, pays, uint64_t{1} << 16);
}

}  // namespace hilsim::planner
