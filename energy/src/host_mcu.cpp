#include "hilsim/energy/host_mcu.h"

#include "hilsim/errors.h"

namespace hilsim::energy {
namespace {

// Embedded flash read current (Renesas, 65 nm SOTB 2T-MONOS, VLSI Symposium 2019): a
// conventional 2T-MONOS flash reads at about 50 uA/MHz; the SOTB one at 6 uA/MHz for
// 0.22 pJ/bit, which makes a read 32 bits at 1.2 V (6 uA/MHz x 1.2 V / 32 bits = 0.225 pJ/bit).
constexpr double kFlashReadUaPerMhz = 50.0;
constexpr double kFlashReadBits = 32.0;
constexpr double kFlashCoreV = 1.2;
constexpr double kSmpsEfficiency = 0.85;

// Sleep (WFI) current as a share of the run current, from parts whose datasheets give both at the
// same clock: Microchip's Cortex-M4F 120 MHz family (power consumption table: CoreMark 137, Idle
// 23 uA/MHz with the LDO; 65 and 11 with the buck, at 3.3 V and 25 C) and TI's MSPM0G350x
// (Cortex-M0+ 80 MHz: run 7.6 mA, sleep 3.211 mA, 25 C).
constexpr double kSleepShareLdo = 23.0 / 137.0;
constexpr double kSleepShareSmps = 11.0 / 65.0;
constexpr double kSleepShareM0plus = 3211.0 / 7600.0;

// The FE310 has no on-chip flash: a line is a 32-byte instruction-cache refill over quad SPI.
// About 10 mA at 3.3 V for a quad-SPI NOR read, 64 data clocks plus 20 command, address and dummy
// clocks at 50 MHz (estimates, docs/ENERGY.md).
constexpr uint32_t kQspiLineBits = 256;
constexpr double kQspiLineReadPj = 10e-3 * 3.3 * (84.0 / 50e6) * 1e12;

HostMcu part(const char* name, const char* part_name, double clock_mhz, double run_ua_per_mhz,
             double sleep_share, double supply_v, Regulator regulator, uint32_t flash_line_bits) {
  HostMcu m;
  m.name = name;
  m.part = part_name;
  m.clock_mhz = clock_mhz;
  m.run_ua_per_mhz = run_ua_per_mhz;
  m.sleep_ua_per_mhz = run_ua_per_mhz * sleep_share;
  m.supply_v = supply_v;
  m.regulator = regulator;
  m.flash_line_bits = flash_line_bits;
  m.flash_line_read_pj = embeddedFlashLineReadPj(flash_line_bits, regulator, supply_v);
  return m;
}

HostMcu withQspiFlash(HostMcu m) {
  m.flash_line_bits = kQspiLineBits;
  m.flash_line_read_pj = kQspiLineReadPj;
  return m;
}

// Run currents: STM32L4R5 and STM32U575 from their datasheets' feature lists (100 and 19.5
// uA/MHz); nRF5340 from its product specification (application CPU running CoreMark at 64 MHz
// from flash, cache on: 2.7 mA at 3 V, DC/DC); STM32G0B1 from TI's MSPM0G350x (CoreMark from
// flash, 80 MHz, 96 uA/MHz); FE310, Cortex-M7 and Cortex-M55 parts are estimates. The RA6M4's
// run current is not in the sources found: its preset takes the cortex-m33 row's part (STM32U575)
// at the RA6M4's 200 MHz (docs/ENERGY.md).
const std::vector<HostMcu>& presets() {
  using R = Regulator;
  static const std::vector<HostMcu> kPresets = [] {
    const HostMcu l4r5 =
        part("stm32l4r5", "STM32L4R5 (Cortex-M4F)", 120, 100.0, kSleepShareLdo, 3.3, R::kLdo, 64);
    const HostMcu u575 =
        part("stm32u575", "STM32U575 (Cortex-M33)", 160, 19.5, kSleepShareSmps, 3.3, R::kSmps, 128);
    const HostMcu g0b1 =
        part("stm32g0b1", "STM32G0B1 (Cortex-M0+)", 64, 96.0, kSleepShareM0plus, 3.3, R::kLdo, 64);
    const HostMcu fe310 = withQspiFlash(
        part("fe310", "SiFive FE310-G002 (E31)", 320, 400.0, kSleepShareM0plus, 3.3, R::kLdo, 0));
    const HostMcu m7 =
        part("cortex-m7", "STM32H7-class Cortex-M7", 480, 250.0, kSleepShareLdo, 3.3, R::kLdo, 256);
    const HostMcu m55 = part("cortex-m55", "Cortex-M55 MCU (22 nm class)", 400, 60.0,
                             kSleepShareSmps, 3.3, R::kSmps, 128);
    auto as = [](HostMcu m, const char* name, double clock_mhz) {
      m.name = name;
      m.clock_mhz = clock_mhz;
      return m;
    };
    return std::vector<HostMcu>{
        as(g0b1, "cortex-m0plus", 48),
        as(l4r5, "cortex-m4f", 120),
        as(u575, "cortex-m33", 128),
        m7,
        m55,
        as(m55, "cortex-m55-helium", 400),
        as(fe310, "rv32im", 100),
        l4r5,
        part("nrf5340", "nRF5340 application core (Cortex-M33)", 128, 2700.0 / 64.0,
             kSleepShareSmps, 3.0, R::kSmps, 128),
        u575,
        g0b1,
        fe310,
        as(u575, "ra6m4", 200),
    };
  }();
  return kPresets;
}

}  // namespace

double embeddedFlashLineReadPj(uint32_t bits, Regulator regulator, double supply_v) {
  const double reads = bits / kFlashReadBits;
  const double per_read_at_core_pj = kFlashReadUaPerMhz * kFlashCoreV;
  if (regulator == Regulator::kLdo) return reads * kFlashReadUaPerMhz * supply_v;
  return reads * per_read_at_core_pj / kSmpsEfficiency;
}

const HostMcu& hostMcu(const std::string& name) {
  for (const HostMcu& m : presets())
    if (m.name == name) return m;
  std::string valid;
  for (const std::string& n : hostMcuNames()) valid += (valid.empty() ? "" : ", ") + n;
  throw ConfigError("unknown host MCU preset '" + name + "' (valid: " + valid + ")");
}

std::vector<std::string> hostMcuNames() {
  std::vector<std::string> names;
  for (const HostMcu& m : presets()) names.push_back(m.name);
  return names;
}

}  // namespace hilsim::energy
