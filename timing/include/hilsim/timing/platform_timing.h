#pragma once
// Every timing parameter of the platform, resolved once from the configuration
// (config::platformTiming) and shared by the simulator's modules and the planner's estimate, so
// both follow the same numbers. Cycle counts are in the clock of the component that owns them;
// clock periods are whole picoseconds, the simulator's resolution. The values' defaults live in
// the configuration (hilsim/config/hardware_config.h); a default-constructed struct holds zeros.

#include <cstdint>

#include "hilsim/timing/bus_scheduler.h"
#include "hilsim/timing/core_timing.h"

namespace hilsim::timing {

struct Clocks {
  double cpu_mhz = 0, accel_mhz = 0, bus_mhz = 0;
  uint64_t cpu_ps = 0, accel_ps = 0, bus_ps = 0;  // periods
};

// The accelerator as a chunk plan sees it: what a plan is made for.
struct AccelGeometry {
  uint32_t num_cores = 0;
  uint32_t array_rows = 0;
  uint32_t array_cols = 0;
  Dataflow dataflow = Dataflow::kWeightStationary;
  uint64_t sram_bytes = 0;
  bool double_buffer = false;

  ArrayShape array() const { return {array_rows, array_cols}; }
  bool operator==(const AccelGeometry& o) const {
    return num_cores == o.num_cores && array_rows == o.array_rows && array_cols == o.array_cols &&
           dataflow == o.dataflow && sram_bytes == o.sram_bytes && double_buffer == o.double_buffer;
  }
  bool operator!=(const AccelGeometry& o) const { return !(*this == o); }
};

// The shared bus and the memory behind it (bus clock).
struct BusTiming {
  BusParams arbitration;        // bytes_per_cycle = min(bus width, memory bytes per cycle)
  uint32_t width_bytes = 0;     // data phase of a single access: bytes per bus cycle
  uint32_t latency_cycles = 0;  // every transaction
  uint32_t memory_latency_cycles = 0;
};

// The accelerator's DMA engine, cores and register block (accelerator clock).
struct AccelTiming {
  uint32_t dma_setup_cycles = 0;
  uint32_t dma_channels = 0;
  uint32_t core_startup_cycles = 0;
  uint32_t reg_access_cycles = 0;
  uint32_t irq_latency_cycles = 0;
};

// Software on the host CPU (host clock).
struct HostTiming {
  uint64_t driver_job_cycles = 0;  // driver software per submitted job
  uint64_t driver_reg_cycles = 0;  // driver software per register access
  uint64_t irq_handler_cycles = 0;
  uint64_t dispatch_cycles = 0;  // interpreter dispatch of a kernel
};

struct PlatformTiming {
  Clocks clocks;
  AccelGeometry geometry;
  BusTiming bus;
  AccelTiming accel;
  HostTiming host;
};

}  // namespace hilsim::timing
