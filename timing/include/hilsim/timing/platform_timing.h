#pragma once
// Every timing parameter of the platform, resolved once from the configuration
// (config::platformTiming) and shared by the simulator's modules and the planner's estimate, so
// both follow the same numbers. Cycle counts are in the clock of the component that owns them;
// clock periods are whole picoseconds, the simulator's resolution.

#include <cstdint>

#include "hilsim/timing/bus_scheduler.h"
#include "hilsim/timing/core_timing.h"

namespace hilsim::timing {

struct Clocks {
  double cpu_mhz = 400, accel_mhz = 400, bus_mhz = 400;
  uint64_t cpu_ps = 2500, accel_ps = 2500, bus_ps = 2500;  // periods
};

// The accelerator as a chunk plan sees it: what a plan is made for.
struct AccelGeometry {
  uint32_t num_cores = 4;
  uint32_t array_rows = 16;
  uint32_t array_cols = 16;
  Dataflow dataflow = Dataflow::kWeightStationary;
  uint64_t sram_bytes = 256 * 1024;
  bool double_buffer = true;

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
  uint32_t width_bytes = 16;    // data phase of a single access: bytes per bus cycle
  uint32_t latency_cycles = 4;  // every transaction
  uint32_t memory_latency_cycles = 10;
};

// The accelerator's DMA engine, cores and register block (accelerator clock).
struct AccelTiming {
  uint32_t dma_setup_cycles = 16;
  uint32_t dma_channels = 4;
  uint32_t core_startup_cycles = 32;
  uint32_t reg_access_cycles = 2;
  uint32_t irq_latency_cycles = 8;
};

// Software on the host CPU (host clock).
struct HostTiming {
  uint64_t driver_job_cycles = 8000;  // driver software per submitted job
  uint64_t driver_reg_cycles = 10;    // driver software per register access
  uint64_t irq_handler_cycles = 400;
  uint64_t dispatch_cycles = 900;  // interpreter dispatch of a kernel
};

struct PlatformTiming {
  Clocks clocks;
  AccelGeometry geometry;
  BusTiming bus;
  AccelTiming accel;
  HostTiming host;
};

}  // namespace hilsim::timing
