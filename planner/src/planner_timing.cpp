#include "hilsim/planner/planner_timing.h"

#include "hilsim/config/derived.h"

namespace hilsim::planner {

timing::PlatformTiming plannerTiming(const config::HardwareConfig& config, DriverProbe probe) {
  timing::PlatformTiming t = config::platformTiming(config);
  if (config.cpu.model != config::CpuModel::kIss) return t;
  const DriverPathCycles d = probe(config);
  t.host.driver_job_cycles = d.submit_cycles;
  t.host.driver_reg_cycles = 0;
  t.host.irq_handler_cycles = d.completion_cycles;
  return t;
}

CpuAssumptions plannerCpu(const config::HardwareConfig& config,
                          const timing::PlatformTiming& planner_timing) {
  CpuAssumptions cpu;
  cpu.preset = config.cpu.preset;
  cpu.kernels = config::toString(config.cpu.kernels);
  cpu.model = config::toString(config.cpu.model);
  cpu.firmware_opt = config::toString(config.cpu.firmware_opt);
  cpu.clock_mhz = config.cpu.clock_mhz;
  cpu.driver_job_cycles = planner_timing.host.driver_job_cycles;
  cpu.driver_reg_cycles = planner_timing.host.driver_reg_cycles;
  cpu.irq_handler_cycles = planner_timing.host.irq_handler_cycles;
  return cpu;
}

}  // namespace hilsim::planner
