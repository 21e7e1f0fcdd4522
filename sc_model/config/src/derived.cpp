#include "hilsim/config/derived.h"

#include <algorithm>

namespace hilsim::config {

timing::Dataflow timingDataflow(Dataflow dataflow) {
  switch (dataflow) {
    case Dataflow::kOutputStationary:
      return timing::Dataflow::kOutputStationary;
    case Dataflow::kInputStationary:
      return timing::Dataflow::kInputStationary;
    default:
      return timing::Dataflow::kWeightStationary;
  }
}

rt::plan::Hardware planHardware(const HardwareConfig& c) {
  rt::plan::Hardware hw;
  hw.num_cores = c.accel.num_cores;
  hw.array_rows = c.accel.core.array_rows;
  hw.array_cols = c.accel.core.array_cols;
  hw.dataflow = timingDataflow(c.accel.core.dataflow);
  hw.sram_bytes = c.accel.core.sram_bytes;
  hw.double_buffer = c.accel.core.double_buffer;
  return hw;
}

rt::plan::TimingParams planTiming(const HardwareConfig& c) {
  rt::plan::TimingParams t;
  t.cpu_mhz = c.cpu.clock_mhz;
  t.accel_mhz = c.accel.clock_mhz;
  t.bus_mhz = c.bus.clock_mhz;
  t.startup_cycles = c.accel.core.startup_cycles;
  t.dma_setup_cycles = c.accel.dma.setup_cycles;
  t.dma_channels = c.accel.dma.channels;
  t.reg_access_cycles = c.accel.reg_access_cycles;
  t.irq_latency_cycles = c.accel.irq_latency_cycles;
  t.bus.arbitration = c.bus.arbitration == Arbitration::kFixed ? timing::Arbitration::kFixed
                                                               : timing::Arbitration::kRoundRobin;
  t.bus.bytes_per_cycle = std::min(c.bus.width_bytes, c.memory.bytes_per_cycle);
  t.bus.burst_bytes = c.accel.dma.max_burst_bytes;
  t.bus.ports = c.accel.dma.channels + 1;
  t.bus_width_bytes = c.bus.width_bytes;
  t.bus_latency_cycles = c.bus.latency_cycles;
  t.memory_latency_cycles = c.memory.latency_cycles;
  t.driver_job_cycles = c.cpu.driver_job_cycles;
  t.driver_reg_cycles = c.cpu.driver_reg_cycles;
  t.irq_handler_cycles = c.cpu.irq_handler_cycles;
  t.dispatch_cycles = static_cast<uint64_t>(c.cpu.coefficients.op_per_call + 0.5);
  return t;
}

drv::DriverOptions driverOptions(const HardwareConfig& c) {
  drv::DriverOptions o;
  o.job_cycles = c.cpu.driver_job_cycles;
  o.irq_handler_cycles = c.cpu.irq_handler_cycles;
  // Half the watchdog period: a lost interrupt is detected, and recovered from, by the driver
  // before the watchdog would call the run hung.
  o.timeout_cycles = std::max<uint64_t>(1, c.sim.watchdog_cycles / 2);
  return o;
}

}  // namespace hilsim::config
