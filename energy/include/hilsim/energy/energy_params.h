#pragma once
// The configured energy of every action: plain per-action energies (pJ), static powers (uW) and
// the host's currents, resolved from a technology preset, the hardware geometry and a host MCU
// preset. These are the values a run's action counts are multiplied by (energy.h).

#include <string>

#include "hilsim/energy/area.h"
#include "hilsim/energy/host_mcu.h"
#include "hilsim/energy/technology.h"

namespace hilsim::energy {

struct AcceleratorEnergyParams {
  double mac_pj = 0;                 // one int8 MAC
  double sram_read_pj_per_byte = 0;  // a core's SRAM, at its size
  double sram_write_pj_per_byte = 0;
  double dma_pj_per_byte = 0;     // the DMA engine's staging of a byte
  double bus_pj_per_beat = 0;     // one beat of bus.width_bytes over the bus
  double register_access_pj = 0;  // one 32-bit register block access
  double system_memory_read_pj_per_byte = 0;
  double system_memory_write_pj_per_byte = 0;
  double sram_leakage_uw_per_kib = 0;
  double pe_leakage_uw = 0;  // per processing element
  // Idle cores power-gated: static power only while a core is busy.
  bool power_gating = false;
};

struct HostEnergyParams {
  double run_ua_per_mhz = 0;    // active (kernel and driver) cycles
  double sleep_ua_per_mhz = 0;  // cycles asleep in WFI
  double supply_v = 0;
  double flash_line_read_pj = 0;
  double sram_access_pj = 0;
  // Energy of one active or sleeping cycle: uA/MHz x V = pJ.
  double runPjPerCycle() const { return run_ua_per_mhz * supply_v; }
  double sleepPjPerCycle() const { return sleep_ua_per_mhz * supply_v; }
};

struct EnergyParams {
  AcceleratorEnergyParams accel;
  HostEnergyParams host;
};

// The accelerator's energies at a node for a geometry: the SRAM's at its size (sramPjPerByte),
// DMA staging 16 register bits per byte, a bus beat of width x 8 wires as long as the side of the
// accelerator (the square root of its area), a register access 32 wires of that bus and 32
// register bits.
AcceleratorEnergyParams acceleratorEnergyParams(const Technology& t, const AcceleratorGeometry& g,
                                                bool power_gating);
HostEnergyParams hostEnergyParams(const HostMcu& mcu);
// Both, from a technology preset, a geometry and a host MCU preset's name.
EnergyParams energyParams(TechNode node, const AcceleratorGeometry& g, const std::string& mcu,
                          bool power_gating);

// Throws hilsim::ConfigError naming the first value that is negative or not finite.
void validate(const EnergyParams& p);

}  // namespace hilsim::energy
