#include "hilsim/config/derived.h"

#include <algorithm>
#include <cmath>

#include "hilsim/base/clock.h"

namespace hilsim::config {

timing::AccelGeometry accelGeometry(const HardwareConfig& c) {
  timing::AccelGeometry g;
  g.num_cores = c.accel.num_cores;
  g.array_rows = c.accel.core.array_rows;
  g.array_cols = c.accel.core.array_cols;
  g.dataflow = c.accel.core.dataflow;
  g.sram_bytes = c.accel.core.sram_bytes;
  g.double_buffer = c.accel.core.double_buffer;
  return g;
}

timing::PlatformTiming platformTiming(const HardwareConfig& c) {
  timing::PlatformTiming t;
  t.clocks.cpu_mhz = c.cpu.clock_mhz;
  t.clocks.accel_mhz = c.accel.clock_mhz;
  t.clocks.bus_mhz = c.bus.clock_mhz;
  t.clocks.cpu_ps = periodPs(c.cpu.clock_mhz);
  t.clocks.accel_ps = periodPs(c.accel.clock_mhz);
  t.clocks.bus_ps = periodPs(c.bus.clock_mhz);
  t.geometry = accelGeometry(c);
  t.bus.arbitration.arbitration = c.bus.arbitration;
  t.bus.arbitration.bytes_per_cycle = std::min(c.bus.width_bytes, c.memory.bytes_per_cycle);
  t.bus.arbitration.burst_bytes = c.accel.dma.max_burst_bytes;
  t.bus.arbitration.ports = c.accel.dma.channels + 1;  // the DMA channels, then the host
  t.bus.width_bytes = c.bus.width_bytes;
  t.bus.latency_cycles = c.bus.latency_cycles;
  t.bus.memory_latency_cycles = c.memory.latency_cycles;
  t.accel.dma_setup_cycles = c.accel.dma.setup_cycles;
  t.accel.dma_channels = c.accel.dma.channels;
  t.accel.core_startup_cycles = c.accel.core.startup_cycles;
  t.accel.reg_access_cycles = c.accel.reg_access_cycles;
  t.accel.irq_latency_cycles = c.accel.irq_latency_cycles;
  t.host.driver_job_cycles = c.cpu.driver_job_cycles;
  t.host.driver_reg_cycles = c.cpu.driver_reg_cycles;
  t.host.irq_handler_cycles = c.cpu.irq_handler_cycles;
  t.host.dispatch_cycles = static_cast<uint64_t>(std::llround(c.cpu.coefficients.op_per_call));
  return t;
}

}  // namespace hilsim::config
