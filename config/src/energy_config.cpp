#include "hilsim/config/hardware_config.h"

namespace hilsim::config {

energy::EnergyParams EnergyConfig::params() const {
  energy::EnergyParams p;
  p.accel.mac_pj = mac_pj;
  p.accel.sram_read_pj_per_byte = sram_read_pj_per_byte;
  p.accel.sram_write_pj_per_byte = sram_write_pj_per_byte;
  p.accel.dma_pj_per_byte = dma_pj_per_byte;
  p.accel.bus_pj_per_beat = bus_pj_per_beat;
  p.accel.register_access_pj = register_access_pj;
  p.accel.system_memory_read_pj_per_byte = system_memory_read_pj_per_byte;
  p.accel.system_memory_write_pj_per_byte = system_memory_write_pj_per_byte;
  p.accel.sram_leakage_uw_per_kib = sram_leakage_uw_per_kib;
  p.accel.pe_leakage_uw = pe_leakage_uw;
  p.accel.power_gating = power_gating;
  p.host.run_ua_per_mhz = host.run_ua_per_mhz;
  p.host.sleep_ua_per_mhz = host.sleep_ua_per_mhz;
  p.host.supply_v = host.supply_v;
  p.host.flash_line_read_pj = host.flash_line_read_pj;
  p.host.sram_access_pj = host.sram_access_pj;
  return p;
}

energy::AcceleratorGeometry acceleratorGeometry(const HardwareConfig& config) {
  energy::AcceleratorGeometry g;
  g.cores = config.accel.num_cores;
  g.array_rows = config.accel.core.array_rows;
  g.array_cols = config.accel.core.array_cols;
  g.sram_bytes = config.accel.core.sram_bytes;
  g.bus_width_bytes = config.bus.width_bytes;
  return g;
}

energy::Technology technology(const HardwareConfig& config) {
  energy::Technology t = energy::technology(config.energy.preset);
  t.sram_array_efficiency = config.energy.area.sram_array_efficiency;
  t.control_fraction = config.energy.area.control_fraction;
  return t;
}

}  // namespace hilsim::config
