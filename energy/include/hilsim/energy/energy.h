#pragma once
// The energy of a set of action counts: each component is its counts times their configured
// energies, in uJ, and the components sum to the total (docs/ENERGY.md, "Formulas").

#include <array>
#include <utility>

#include "hilsim/energy/action_counts.h"
#include "hilsim/energy/energy_params.h"

namespace hilsim::energy {

struct EnergyBreakdown {
  double cpu_active_uj = 0;     // (kernel + driver cycles) x run pJ/cycle
  double cpu_sleep_uj = 0;      // sleep cycles x sleep pJ/cycle
  double flash_uj = 0;          // host flash line reads x flash_line_read_pj
  double cpu_sram_uj = 0;       // host SRAM accesses x sram_access_pj
  double mac_uj = 0;            // MACs x mac_pj
  double sram_uj = 0;           // SRAM bytes read and written x their pJ/byte
  double dma_bus_uj = 0;        // DMA bytes, bus beats and register accesses x their pJ
  double system_memory_uj = 0;  // system memory bytes read and written x their pJ/byte
  double static_uj = 0;         // each core's leakage x the time it was powered

  double totalUj() const;
  // The components by name, in the order above.
  std::array<std::pair<const char*, double>, 9> components() const;
};

// Throws hilsim::ConfigError for invalid parameters (validate) and hilsim::InputError for a core
// busy longer than the run.
EnergyBreakdown energyOf(const ActionCounts& counts, const EnergyParams& params);

}  // namespace hilsim::energy
