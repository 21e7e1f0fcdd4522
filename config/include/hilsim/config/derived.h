#pragma once
// Views of the resolved config for the layers that must not see it whole: the accelerator's
// geometry and the platform's timing (shared by the simulator and the planner), and the CPU cost
// model.

#include "hilsim/config/hardware_config.h"
#include "hilsim/timing/cpu_cost_model.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::config {

timing::AccelGeometry accelGeometry(const HardwareConfig& config);
timing::PlatformTiming platformTiming(const HardwareConfig& config);
inline timing::CpuCostModel costModel(const HardwareConfig& config) {
  return timing::CpuCostModel(config.cpu.coefficients);
}

}  // namespace hilsim::config
