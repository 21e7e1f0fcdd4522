#pragma once
// What each module of the platform needs, built once by the platform from the resolved config
// (platform.cpp): modules take these, never the whole config. Cycle counts are in the clock of
// the module that owns them.

#include <cstdint>

#include "hilsim/timing/core_timing.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::model {

struct CoreParams {
  timing::Dataflow dataflow = timing::Dataflow::kWeightStationary;
  timing::ArrayShape array;
  bool double_buffer = true;
  uint32_t startup_cycles = 32;
};

struct DmaParams {
  uint32_t setup_cycles = 16;
  uint32_t channels = 4;
  uint64_t transaction_bytes = 0;  // 0: one TLM transaction per row (timing does not depend on it)
};

struct AccelParams {
  uint32_t num_cores = 4;
  uint64_t sram_bytes = 256 * 1024;
  uint32_t reg_access_cycles = 2;
  uint32_t irq_latency_cycles = 8;
  CoreParams core;
  DmaParams dma;
};

struct HostParams {
  double clock_mhz = 400.0;
  uint64_t driver_reg_cycles = 10;  // software per register access
  uint64_t transaction_bytes = 0;   // 0: one TLM transaction per copy
  uint64_t quantum_ns = 100000;
};

struct BusModelParams {
  timing::BusTiming timing;
  uint32_t ports = 5;  // the DMA channels, then the host
};

}  // namespace hilsim::model
