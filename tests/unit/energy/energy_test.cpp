// The energy of action counts: each component against hand-computed values, each per-action
// energy changing exactly its component in proportion, and the components summing to the total
// (docs/ENERGY.md, "Formulas").

#include "hilsim/energy/energy.h"

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <string>

#include "hilsim/errors.h"

namespace hilsim::energy {
namespace {

// Round per-action energies, so that every expected value below is easy to check by hand.
EnergyParams roundParams() {
  EnergyParams p;
  p.accel.mac_pj = 0.5;
  p.accel.sram_read_pj_per_byte = 2;
  p.accel.sram_write_pj_per_byte = 3;
  p.accel.dma_pj_per_byte = 0.25;
  p.accel.bus_pj_per_beat = 10;
  p.accel.register_access_pj = 4;
  p.accel.system_memory_read_pj_per_byte = 12;
  p.accel.system_memory_write_pj_per_byte = 14;
  p.accel.sram_leakage_uw_per_kib = 0.02;
  p.accel.pe_leakage_uw = 5;
  p.host.run_ua_per_mhz = 100;
  p.host.sleep_ua_per_mhz = 20;
  p.host.supply_v = 3;
  p.host.flash_line_read_pj = 300;
  p.host.sram_access_pj = 7;
  return p;
}

// Two cores of 256 PEs and 256 KiB, a run of 1 ms.
ActionCounts someCounts() {
  ActionCounts c;
  c.cores = {{256 * 1024, 256, 1000000, 40000, 30000, 400000000},
             {256 * 1024, 256, 500000, 20000, 10000, 100000000}};
  c.dma_bytes = 80000;
  c.bus_beats = 5000;
  c.system_memory_read_bytes = 70000;
  c.system_memory_write_bytes = 10000;
  c.register_accesses = 60;
  c.cpu_kernel_cycles = 90000;
  c.cpu_driver_cycles = 10000;
  c.cpu_sleep_cycles = 20000;
  c.host_flash_line_reads = 1000;
  c.host_sram_accesses = 3000;
  c.simulated_ps = 1000000000;
  return c;
}

TEST(Energy, EachComponentIsItsCountsTimesTheirEnergies) {
  const EnergyBreakdown e = energyOf(someCounts(), roundParams());
  // (90000 + 10000) cycles x 100 uA/MHz x 3 V = 30,000,000 pJ.
  EXPECT_NEAR(e.cpu_active_uj, 30.0, 1e-12);
  // 20000 x 20 x 3 = 1,200,000 pJ.
  EXPECT_NEAR(e.cpu_sleep_uj, 1.2, 1e-12);
  EXPECT_NEAR(e.flash_uj, 0.3, 1e-12);
  EXPECT_NEAR(e.cpu_sram_uj, 0.021, 1e-12);
  // 1,500,000 MACs x 0.5 pJ.
  EXPECT_NEAR(e.mac_uj, 0.75, 1e-12);
  // (40000 + 20000) x 2 + (30000 + 10000) x 3 = 240,000 pJ.
  EXPECT_NEAR(e.sram_uj, 0.24, 1e-12);
  // 80000 x 0.25 + 5000 x 10 + 60 x 4 = 70,240 pJ.
  EXPECT_NEAR(e.dma_bus_uj, 0.07024, 1e-12);
  // 70000 x 12 + 10000 x 14 = 980,000 pJ.
  EXPECT_NEAR(e.system_memory_uj, 0.98, 1e-12);
  // Each core (256 KiB x 0.02 + 256 x 5) = 1285.12 uW, powered for the run's 1 ms.
  EXPECT_NEAR(e.static_uj, 2 * 1285.12 * 1e-3, 1e-12);
}

TEST(Energy, PowerGatingChargesStaticPowerWhileACoreIsBusy) {
  EnergyParams p = roundParams();
  p.accel.power_gating = true;
  // Busy 0.4 ms and 0.1 ms.
  EXPECT_NEAR(energyOf(someCounts(), p).static_uj, 1285.12 * (0.4e-3 + 0.1e-3), 1e-12);
}

TEST(Energy, ComponentsSumToTheTotal) {
  const EnergyBreakdown e = energyOf(someCounts(), roundParams());
  double sum = 0;
  for (const auto& [name, uj] : e.components()) sum += uj;
  EXPECT_DOUBLE_EQ(e.totalUj(), sum);
  EXPECT_NEAR(e.totalUj(), 30.0 + 1.2 + 0.3 + 0.021 + 0.75 + 0.24 + 0.07024 + 0.98 + 2 * 1.28512,
              1e-9);
  const auto named = e.components();
  EXPECT_STREQ(named[0].first, "cpu_active");
  EXPECT_STREQ(named[8].first, "static");
}

// Each per-action energy and the component it belongs to.
struct Knob {
  std::function<double&(EnergyParams&)> value;
  const char* component;
};

TEST(Energy, OnePerActionEnergyChangesExactlyItsComponentInProportion) {
  const std::vector<Knob> knobs{
      {[](EnergyParams& p) -> double& { return p.accel.mac_pj; }, "mac"},
      {[](EnergyParams& p) -> double& { return p.accel.sram_read_pj_per_byte; }, "sram"},
      {[](EnergyParams& p) -> double& { return p.accel.dma_pj_per_byte; }, "dma_bus"},
      {[](EnergyParams& p) -> double& { return p.accel.bus_pj_per_beat; }, "dma_bus"},
      {[](EnergyParams& p) -> double& { return p.accel.system_memory_write_pj_per_byte; },
       "system_memory"},
      {[](EnergyParams& p) -> double& { return p.accel.pe_leakage_uw; }, "static"},
      {[](EnergyParams& p) -> double& { return p.host.run_ua_per_mhz; }, "cpu_active"},
      {[](EnergyParams& p) -> double& { return p.host.sleep_ua_per_mhz; }, "cpu_sleep"},
      {[](EnergyParams& p) -> double& { return p.host.flash_line_read_pj; }, "flash"},
      {[](EnergyParams& p) -> double& { return p.host.sram_access_pj; }, "cpu_sram"},
  };
  const EnergyParams base = roundParams();
  const ActionCounts counts = someCounts();
  const EnergyBreakdown before = energyOf(counts, base);
  for (const Knob& knob : knobs) {
    EnergyParams p = base;
    EnergyParams zero = base;
    knob.value(p) *= 3;
    knob.value(zero) = 0;
    const auto was = before.components();
    const auto now = energyOf(counts, p).components();
    const auto without = energyOf(counts, zero).components();
    for (size_t i = 0; i < was.size(); ++i) {
      const std::string name = was[i].first;
      if (name != knob.component) {
        EXPECT_EQ(now[i].second, was[i].second) << knob.component << " changed " << name;
        continue;
      }
      // The knob's share of its component triples; the rest of the component stays.
      const double share = was[i].second - without[i].second;
      EXPECT_GT(share, 0) << name;
      EXPECT_NEAR(now[i].second, was[i].second + 2 * share, 1e-12 * was[i].second) << name;
    }
  }
}

TEST(Energy, EveryCountScalesItsComponentAlone) {
  // Doubling all counts (and the time) doubles every component.
  ActionCounts c = someCounts();
  ActionCounts twice = c;
  for (CoreActions& core : twice.cores) {
    core.macs *= 2;
    core.sram_read_bytes *= 2;
    core.sram_write_bytes *= 2;
    core.busy_ps *= 2;
  }
  twice.dma_bytes *= 2;
  twice.bus_beats *= 2;
  twice.system_memory_read_bytes *= 2;
  twice.system_memory_write_bytes *= 2;
  twice.register_accesses *= 2;
  twice.cpu_kernel_cycles *= 2;
  twice.cpu_driver_cycles *= 2;
  twice.cpu_sleep_cycles *= 2;
  twice.host_flash_line_reads *= 2;
  twice.host_sram_accesses *= 2;
  twice.simulated_ps *= 2;
  const auto a = energyOf(c, roundParams()).components();
  const auto b = energyOf(twice, roundParams()).components();
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_NEAR(b[i].second, 2 * a[i].second, 1e-12) << a[i].first;
}

TEST(Energy, NoCountsNoEnergy) {
  EXPECT_EQ(energyOf(ActionCounts{}, roundParams()).totalUj(), 0.0);
}

TEST(Energy, RejectsBadParametersAndCounts) {
  EnergyParams p = roundParams();
  p.accel.mac_pj = -1;
  EXPECT_THROW(energyOf(someCounts(), p), ConfigError);
  p = roundParams();
  p.host.supply_v = std::numeric_limits<double>::quiet_NaN();
  try {
    energyOf(someCounts(), p);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("supply_v"), std::string::npos);
  }
  ActionCounts c = someCounts();
  c.cores[1].busy_ps = c.simulated_ps + 1;
  EXPECT_THROW(energyOf(c, roundParams()), InputError);
}

// The defaults resolved for the default accelerator (4 cores of 16x16, 256 KiB, 16-byte bus).
constexpr AcceleratorGeometry kDefault{4, 16, 16, 256 * 1024, 16};

TEST(EnergyParams, ResolvedFromTheFortyFiveNanometrePreset) {
  const AcceleratorEnergyParams a =
      acceleratorEnergyParams(technology(TechNode::k45nm), kDefault, false);
  EXPECT_NEAR(a.mac_pj, 0.66, 1e-12);
  EXPECT_NEAR(a.sram_read_pj_per_byte, 6.56632, 1e-5);
  EXPECT_DOUBLE_EQ(a.sram_write_pj_per_byte, a.sram_read_pj_per_byte);
  // 16 bits x 0.009 pJ.
  EXPECT_NEAR(a.dma_pj_per_byte, 0.144, 1e-12);
  // 128 wires x 0.1 pJ/bit/mm x sqrt(5.3421187 mm^2) = 2.3113 mm.
  EXPECT_NEAR(a.bus_pj_per_beat, 29.5847, 1e-4);
  // 32 x (0.1 x 2.3113 + 0.009).
  EXPECT_NEAR(a.register_access_pj, 7.68417, 1e-5);
  EXPECT_DOUBLE_EQ(a.system_memory_read_pj_per_byte, 12.5);
  EXPECT_NEAR(a.pe_leakage_uw, 7.4, 1e-12);
  AcceleratorGeometry no_bus = kDefault;
  no_bus.bus_width_bytes = 0;
  EXPECT_THROW(acceleratorEnergyParams(technology(TechNode::k45nm), no_bus, false), ConfigError);
}

TEST(EnergyParams, HostFromItsPreset) {
  const EnergyParams p = energyParams(TechNode::k22nm, kDefault, "stm32l4r5", true);
  EXPECT_TRUE(p.accel.power_gating);
  // 100 uA/MHz at 3.3 V: 330 pJ per active cycle.
  EXPECT_NEAR(p.host.runPjPerCycle(), 330, 1e-9);
  EXPECT_NEAR(p.host.sleepPjPerCycle(), 3.3 * 100 * 23.0 / 137.0, 1e-9);
  EXPECT_NO_THROW(validate(p));
  EXPECT_THROW(energyParams(TechNode::k22nm, kDefault, "nope", false), ConfigError);
}

}  // namespace
}  // namespace hilsim::energy
