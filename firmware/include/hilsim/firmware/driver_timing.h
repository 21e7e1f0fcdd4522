#pragma once
// The driver's software cost as the planner sees it. Under cpu.model cost it is the configured
// cpu.driver_job_cycles, cpu.driver_reg_cycles and cpu.irq_handler_cycles. Under cpu.model iss the
// driver's job path runs as firmware, so the planner's figures come from executing that path once
// on the ISS against a register block that answers at once: the same instructions, counted by the
// same timing table, without the bus trips, which the planner's timeline adds itself.

#include <cstdint>

#include "hilsim/config/hardware_config.h"
#include "hilsim/rt/plan/plan_codec.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::firmware {

struct DriverPathCycles {
  // hs_driver_submit from its call to its return, the register writes' instructions included.
  uint64_t submit_cycles = 0;
  // After the interrupt: exception entry, hs_irq_handler, exception return and the rest of
  // hs_driver_wait up to its return.
  uint64_t completion_cycles = 0;
};

// Executes the job path on a fresh ISS of the configured host CPU (hostCpuOptions). Results are
// remembered per (preset, ISS options, cores). Throws ConfigError for a preset without an ISS.
DriverPathCycles measureDriverPath(const config::HardwareConfig& config);

// config::platformTiming, with the host's driver costs taken from measureDriverPath under
// cpu.model iss (driver_job_cycles = submit, driver_reg_cycles = 0, irq_handler_cycles =
// completion).
timing::PlatformTiming plannerTiming(const config::HardwareConfig& config);

// The host CPU the planner plans for, as a plan records it: the configured preset, kernels,
// cpu.model and clock, and the driver figures of `planner_timing` (plannerTiming(config)).
rt::plan::CpuAssumptions plannerCpu(const config::HardwareConfig& config,
                                    const timing::PlatformTiming& planner_timing);

}  // namespace hilsim::firmware
