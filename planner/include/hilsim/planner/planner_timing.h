#pragma once
// The platform's timing and the host CPU as the planner plans for them. Under cpu.model cost the
// driver's software cost is the configured cpu.driver_job_cycles, cpu.driver_reg_cycles and
// cpu.irq_handler_cycles. Under cpu.model iss the driver's job path runs as firmware, so the
// planner's figures come from executing that path once on the instruction-set simulator (a
// DriverProbe, firmware/driver_timing.h) against a register block that answers at once: the same
// instructions, counted by the same timing table, without the bus trips, which the planner's
// timeline adds itself.

#include <cstdint>

#include "hilsim/config/hardware_config.h"
#include "hilsim/planner/plan_codec.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::planner {

struct DriverPathCycles {
  // hs_driver_submit from its call to its return, the register writes' instructions included.
  uint64_t submit_cycles = 0;
  // After the interrupt: exception entry, hs_irq_handler, exception return and the rest of
  // hs_driver_wait up to its return.
  uint64_t completion_cycles = 0;
};

// Measures the driver's job path of the configured host CPU (firmware::measureDriverPath).
using DriverProbe = DriverPathCycles (*)(const config::HardwareConfig& config);

// config::platformTiming, with the host's driver costs taken from `probe` under cpu.model iss
// (driver_job_cycles = submit, driver_reg_cycles = 0, irq_handler_cycles = completion); `probe`
// is called only then.
timing::PlatformTiming plannerTiming(const config::HardwareConfig& config, DriverProbe probe);

// The host CPU the planner plans for, as a plan records it: the configured preset, kernels,
// cpu.model and clock, and the driver figures of `planner_timing` (plannerTiming(config, ...)).
CpuAssumptions plannerCpu(const config::HardwareConfig& config,
                          const timing::PlatformTiming& planner_timing);

}  // namespace hilsim::planner
