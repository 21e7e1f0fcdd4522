// The host MCU presets against their datasheet figures and derivations (docs/ENERGY.md,
// "Host MCU").

#include "hilsim/energy/host_mcu.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "hilsim/errors.h"
#include "hilsim/timing/cpu_cost_model.h"

namespace hilsim::energy {
namespace {

TEST(HostMcu, EveryCpuPresetAndBoardHasFigures) {
  const std::vector<std::string> names = hostMcuNames();
  for (const std::string& preset : timing::cpuPresetNames())
    EXPECT_NE(std::find(names.begin(), names.end(), preset), names.end()) << preset;
  for (const char* board : {"stm32l4r5", "nrf5340", "stm32u575", "stm32g0b1", "fe310", "ra6m4"})
    EXPECT_NE(std::find(names.begin(), names.end(), board), names.end()) << board;
  for (const std::string& name : names) {
    const HostMcu& m = hostMcu(name);
    EXPECT_GT(m.run_ua_per_mhz, m.sleep_ua_per_mhz) << name;
    EXPECT_GT(m.supply_v, 0) << name;
    EXPECT_GT(m.flash_line_read_pj, 0) << name;
  }
}

TEST(HostMcu, DatasheetRunCurrents) {
  EXPECT_DOUBLE_EQ(hostMcu("stm32l4r5").run_ua_per_mhz, 100);
  EXPECT_DOUBLE_EQ(hostMcu("stm32u575").run_ua_per_mhz, 19.5);
  // 2.7 mA at 64 MHz.
  EXPECT_DOUBLE_EQ(hostMcu("nrf5340").run_ua_per_mhz, 42.1875);
  EXPECT_DOUBLE_EQ(hostMcu("nrf5340").supply_v, 3.0);
  // A CPU preset takes its typical part's figures at its own clock.
  EXPECT_DOUBLE_EQ(hostMcu("cortex-m4f").run_ua_per_mhz, 100);
  EXPECT_DOUBLE_EQ(hostMcu("cortex-m33").clock_mhz, 128);
  EXPECT_DOUBLE_EQ(hostMcu("stm32u575").clock_mhz, 160);
  // No RA6M4 run current in the sources: the cortex-m33 row's part at the RA6M4's clock.
  EXPECT_DOUBLE_EQ(hostMcu("ra6m4").run_ua_per_mhz, hostMcu("cortex-m33").run_ua_per_mhz);
  EXPECT_DOUBLE_EQ(hostMcu("ra6m4").clock_mhz, 200);
}

TEST(HostMcu, SleepCurrentsAreTheProxyShares) {
  EXPECT_NEAR(hostMcu("stm32l4r5").sleep_ua_per_mhz, 100 * 23.0 / 137.0, 1e-12);
  EXPECT_NEAR(hostMcu("stm32u575").sleep_ua_per_mhz, 19.5 * 11.0 / 65.0, 1e-12);
  EXPECT_NEAR(hostMcu("stm32g0b1").sleep_ua_per_mhz, 96 * 3211.0 / 7600.0, 1e-12);
}

TEST(HostMcu, FlashLineReads) {
  // Two 32-bit reads at 50 uA/MHz drawn from 3.3 V through the LDO: 330 pJ.
  EXPECT_NEAR(embeddedFlashLineReadPj(64, Regulator::kLdo, 3.3), 330, 1e-9);
  // Four reads of 50 uA/MHz x 1.2 V through an 85% SMPS: 282.35 pJ.
  EXPECT_NEAR(embeddedFlashLineReadPj(128, Regulator::kSmps, 3.3), 4 * 60 / 0.85, 1e-9);
  EXPECT_NEAR(hostMcu("stm32l4r5").flash_line_read_pj, 330, 1e-9);
  EXPECT_NEAR(hostMcu("stm32u575").flash_line_read_pj, 282.352941, 1e-6);
  // A 32-byte quad-SPI refill: 10 mA x 3.3 V x 84 clocks at 50 MHz.
  EXPECT_NEAR(hostMcu("fe310").flash_line_read_pj, 55440, 1e-6);
  EXPECT_EQ(hostMcu("fe310").flash_line_bits, 256u);
}

TEST(HostMcu, UnknownNameNamesTheValidOnes) {
  try {
    hostMcu("esp32");
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("stm32l4r5"), std::string::npos);
  }
}

}  // namespace
}  // namespace hilsim::energy
