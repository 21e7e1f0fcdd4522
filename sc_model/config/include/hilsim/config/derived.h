#pragma once
// Views of the resolved config for the layers that must not see it whole: the planner's hardware
// and timing parameters, the driver's options, the CPU cost model.

#include "hilsim/config/hardware_config.h"
#include "hilsim/drv/driver.h"
#include "hilsim/rt/cpu_cost_model.h"
#include "hilsim/rt/plan/chunk_plan.h"
#include "hilsim/rt/plan/predict.h"

namespace hilsim::config {

rt::plan::Hardware planHardware(const HardwareConfig& config);
rt::plan::TimingParams planTiming(const HardwareConfig& config);
drv::DriverOptions driverOptions(const HardwareConfig& config);
inline rt::CpuCostModel costModel(const HardwareConfig& config) {
  return rt::CpuCostModel(config.cpu.coefficients);
}
timing::Dataflow timingDataflow(Dataflow dataflow);

}  // namespace hilsim::config
