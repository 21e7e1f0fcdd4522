#include "hilsim/energy/energy_params.h"

#include <cmath>
#include <utility>
#include <vector>

#include "hilsim/errors.h"

namespace hilsim::energy {
namespace {

// A byte through the DMA engine is written into and read out of its staging register.
constexpr double kDmaRegisterBitsPerByte = 16;
// A register block access: 32 data bits over the bus, into or out of a 32-bit register.
constexpr double kRegisterAccessBits = 32;

}  // namespace

AcceleratorEnergyParams acceleratorEnergyParams(const Technology& t, const AcceleratorGeometry& g,
                                                bool power_gating) {
  if (g.bus_width_bytes == 0) throw ConfigError("accelerator energy: the bus has no width");
  const double bus_mm = std::sqrt(acceleratorArea(t, g).totalMm2());
  AcceleratorEnergyParams p;
  p.mac_pj = macPj(t);
  p.sram_read_pj_per_byte = sramPjPerByte(t, g.sram_bytes);
  p.sram_write_pj_per_byte = p.sram_read_pj_per_byte;
  p.dma_pj_per_byte = kDmaRegisterBitsPerByte * t.register_bit_pj;
  p.bus_pj_per_beat = g.bus_width_bytes * 8.0 * t.wire_pj_per_bit_mm * bus_mm;
  p.register_access_pj = kRegisterAccessBits * (t.wire_pj_per_bit_mm * bus_mm + t.register_bit_pj);
  p.system_memory_read_pj_per_byte = t.system_memory_pj_per_byte;
  p.system_memory_write_pj_per_byte = t.system_memory_pj_per_byte;
  p.sram_leakage_uw_per_kib = t.sram_leakage_uw_per_kib;
  p.pe_leakage_uw = t.pe_leakage_uw;
  p.power_gating = power_gating;
  return p;
}

HostEnergyParams hostEnergyParams(const HostMcu& mcu) {
  HostEnergyParams p;
  p.run_ua_per_mhz = mcu.run_ua_per_mhz;
  p.sleep_ua_per_mhz = mcu.sleep_ua_per_mhz;
  p.supply_v = mcu.supply_v;
  p.flash_line_read_pj = mcu.flash_line_read_pj;
  p.sram_access_pj = mcu.sram_access_pj;
  return p;
}

EnergyParams energyParams(TechNode node, const AcceleratorGeometry& g, const std::string& mcu,
                          bool power_gating) {
  return {acceleratorEnergyParams(technology(node), g, power_gating),
          hostEnergyParams(hostMcu(mcu))};
}

void validate(const EnergyParams& p) {
  const std::vector<std::pair<const char*, double>> values{
      {"mac_pj", p.accel.mac_pj},
      {"sram_read_pj_per_byte", p.accel.sram_read_pj_per_byte},
      {"sram_write_pj_per_byte", p.accel.sram_write_pj_per_byte},
      {"dma_pj_per_byte", p.accel.dma_pj_per_byte},
      {"bus_pj_per_beat", p.accel.bus_pj_per_beat},
      {"register_access_pj", p.accel.register_access_pj},
      {"system_memory_read_pj_per_byte", p.accel.system_memory_read_pj_per_byte},
      {"system_memory_write_pj_per_byte", p.accel.system_memory_write_pj_per_byte},
      {"sram_leakage_uw_per_kib", p.accel.sram_leakage_uw_per_kib},
      {"pe_leakage_uw", p.accel.pe_leakage_uw},
      {"run_ua_per_mhz", p.host.run_ua_per_mhz},
      {"sleep_ua_per_mhz", p.host.sleep_ua_per_mhz},
      {"supply_v", p.host.supply_v},
      {"flash_line_read_pj", p.host.flash_line_read_pj},
      {"sram_access_pj", p.host.sram_access_pj},
  };
  for (const auto& [name, value] : values)
    if (!std::isfinite(value) || value < 0)
      throw ConfigError(std::string("energy parameter ") + name + " = " + std::to_string(value) +
                        " must be a finite number >= 0");
}

}  // namespace hilsim::energy
