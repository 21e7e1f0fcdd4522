#pragma once
// The host MCU's energy figures: a typical part for each CPU preset and the board presets, from
// datasheets where one was available (docs/ENERGY.md, "Host MCU", gives the document, table and
// condition of each value and labels the estimates).
//
// Units: a current per MHz times the supply voltage is energy per cycle: 1 uA/MHz x 1 V = 1 pJ.

#include <cstdint>
#include <string>
#include <vector>

namespace hilsim::energy {

enum class Regulator : uint8_t { kLdo, kSmps };

struct HostMcu {
  std::string name;             // the preset: a CPU preset or a board
  std::string part;             // the part the figures are from
  double clock_mhz = 0;         // the clock the figures apply at
  double run_ua_per_mhz = 0;    // run mode, running from flash (the datasheet's benchmark)
  double sleep_ua_per_mhz = 0;  // sleep (WFI) at the same clock
  double supply_v = 0;          // VDD the currents are drawn at
  Regulator regulator = Regulator::kLdo;
  uint32_t flash_line_bits = 0;   // one flash read
  double flash_line_read_pj = 0;  // one flash line read, drawn from VDD
  // A host SRAM access beyond the run current: 0, the run current already includes the SRAM
  // traffic of running code (docs/ENERGY.md).
  double sram_access_pj = 0;
};

// The figures of a CPU preset (cortex-m0plus, cortex-m4f, cortex-m33, cortex-m7, cortex-m55,
// cortex-m55-helium, rv32im) or a board (stm32l4r5, nrf5340, stm32u575, stm32g0b1, fe310,
// ra6m4);
// throws hilsim::ConfigError naming the valid ones.
const HostMcu& hostMcu(const std::string& name);
std::vector<std::string> hostMcuNames();

// Energy of reading one line of `bits` from embedded flash, drawn from `supply_v` through
// `regulator`: a conventional embedded flash reads 32 bits for 50 uA per MHz of reads at a 1.2 V
// core supply (Renesas, 2T-MONOS, VLSI Symposium 2019); an LDO draws that current from VDD, an
// SMPS converts the 1.2 V energy at 85% efficiency.
double embeddedFlashLineReadPj(uint32_t bits, Regulator regulator, double supply_v);

}  // namespace hilsim::energy
