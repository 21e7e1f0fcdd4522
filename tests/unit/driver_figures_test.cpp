// The cost model's driver figures of every CPU preset are the driver's job path as the firmware
// executes it: on a preset with an instruction-set simulator they equal the planner's probe of
// that path at the preset's default wait states, so `cpu.model: cost` and `cpu.model: iss` price
// the driver alike.

#include <gtest/gtest.h>

#include <string>

#include "hilsim/config/loader.h"
#include "hilsim/firmware/driver_timing.h"
#include "hilsim/iss/core_model.h"
#include "hilsim/timing/cpu_cost_model.h"

namespace hilsim::test {
namespace {

TEST(DriverFigures, PresetTableHoldsTheExecutedDriverPath) {
  int with_iss = 0;
  for (const std::string& preset : timing::cpuPresetNames()) {
    if (!iss::coreForPreset(preset)) continue;
    SCOPED_TRACE(preset);
    ++with_iss;
    const config::HardwareConfig hw = config::loadConfig("", {{"cpu.preset=" + preset}});
    const planner::DriverPathCycles measured = firmware::measureDriverPath(hw);
    const timing::CpuDriverCycles table = timing::cpuPresetDriver(preset);
    EXPECT_EQ(table.job_cycles, measured.submit_cycles);
    EXPECT_EQ(table.reg_cycles, 0u);  // the register writes' instructions are in the job path
    EXPECT_EQ(table.irq_handler_cycles, measured.completion_cycles);
  }
  EXPECT_EQ(with_iss, 10);  // four cores and six boards
}

// The resolved configuration of every preset takes the table's figures unless they are set.
TEST(DriverFigures, ConfigDefaultsToThePresetsFigures) {
  for (const std::string& preset : timing::cpuPresetNames()) {
    SCOPED_TRACE(preset);
    const config::HardwareConfig hw = config::loadConfig("", {{"cpu.preset=" + preset}});
    const timing::CpuDriverCycles table = timing::cpuPresetDriver(preset);
    EXPECT_EQ(hw.cpu.driver_job_cycles, table.job_cycles);
    EXPECT_EQ(hw.cpu.driver_reg_cycles, table.reg_cycles);
    EXPECT_EQ(hw.cpu.irq_handler_cycles, table.irq_handler_cycles);
  }
  const config::HardwareConfig set =
      config::loadConfig("", {{"cpu.preset=cortex-m7"}, {"cpu.driver_job_cycles=8000"}});
  EXPECT_EQ(set.cpu.driver_job_cycles, 8000u);
}

}  // namespace
}  // namespace hilsim::test
