#include "hilsim/energy/energy.h"

#include <string>

#include "hilsim/errors.h"

namespace hilsim::energy {
namespace {

constexpr double kUjPerPj = 1e-6;
constexpr double kSecondsPerPs = 1e-12;

}  // namespace

double EnergyBreakdown::totalUj() const {
  double sum = 0;
  for (const auto& [name, uj] : components()) sum += uj;
  return sum;
}

std::array<std::pair<const char*, double>, 9> EnergyBreakdown::components() const {
  return {{{"cpu_active", cpu_active_uj},
           {"cpu_sleep", cpu_sleep_uj},
           {"flash", flash_uj},
           {"cpu_sram", cpu_sram_uj},
           {"mac", mac_uj},
           {"sram", sram_uj},
           {"dma_bus", dma_bus_uj},
           {"system_memory", system_memory_uj},
           {"static", static_uj}}};
}

EnergyBreakdown energyOf(const ActionCounts& c, const EnergyParams& params) {
  validate(params);
  const AcceleratorEnergyParams& a = params.accel;
  const HostEnergyParams& h = params.host;
  EnergyBreakdown e;
  e.cpu_active_uj =
      double(c.cpu_kernel_cycles + c.cpu_driver_cycles) * h.runPjPerCycle() * kUjPerPj;
  e.cpu_sleep_uj = double(c.cpu_sleep_cycles) * h.sleepPjPerCycle() * kUjPerPj;
  e.flash_uj = double(c.host_flash_line_reads) * h.flash_line_read_pj * kUjPerPj;
  e.cpu_sram_uj = double(c.host_sram_accesses) * h.sram_access_pj * kUjPerPj;
  e.dma_bus_uj =
      (double(c.dma_bytes) * a.dma_pj_per_byte + double(c.bus_beats) * a.bus_pj_per_beat +
       double(c.register_accesses) * a.register_access_pj) *
      kUjPerPj;
  e.system_memory_uj = (double(c.system_memory_read_bytes) * a.system_memory_read_pj_per_byte +
                        double(c.system_memory_write_bytes) * a.system_memory_write_pj_per_byte) *
                       kUjPerPj;
  for (size_t i = 0; i < c.cores.size(); ++i) {
    const CoreActions& core = c.cores[i];
    if (core.busy_ps > c.simulated_ps)
      throw InputError("energy: core " + std::to_string(i) + " busy for " +
                       std::to_string(core.busy_ps) + " ps, longer than the run's " +
                       std::to_string(c.simulated_ps) + " ps");
    e.mac_uj += double(core.macs) * a.mac_pj * kUjPerPj;
    e.sram_uj += (double(core.sram_read_bytes) * a.sram_read_pj_per_byte +
                  double(core.sram_write_bytes) * a.sram_write_pj_per_byte) *
                 kUjPerPj;
    const double leakage_uw = double(core.sram_bytes) / 1024.0 * a.sram_leakage_uw_per_kib +
                              double(core.pes) * a.pe_leakage_uw;
    const uint64_t powered_ps = a.power_gating ? core.busy_ps : c.simulated_ps;
    e.static_uj += leakage_uw * double(powered_ps) * kSecondsPerPs;  // uW x s = uJ
  }
  return e;
}

}  // namespace hilsim::energy
