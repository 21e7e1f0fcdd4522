#pragma once
// The planner's driver probe under cpu.model iss (planner/planner_timing.h): the driver's job
// path executed once on the instruction-set simulator of the configured host CPU against a
// register block that answers at once.

#include "hilsim/config/hardware_config.h"
#include "hilsim/planner/planner_timing.h"

namespace hilsim::firmware {

// Executes the job path on a fresh ISS of the configured host CPU (hostCpuOptions). Results are
// remembered per (preset, ISS options, cores). Throws ConfigError for a preset without an ISS.
// A planner::DriverProbe.
planner::DriverPathCycles measureDriverPath(const config::HardwareConfig& config);

}  // namespace hilsim::firmware
