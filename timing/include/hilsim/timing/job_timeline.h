#pragma once
// The timeline of one accelerated invocation (a FULLY_CONNECTED or a convolution layer), computed
// without the simulator: the planner's estimate. It takes the simulator's steps one by one with the
// same timing functions (link_timing.h, core_timing.h, bus_scheduler.h): the kernel's dispatch, the
// input copy, the driver's register writes, each core's descriptor fetch, loads, tiles and stores
// through the DMA engine's FIFO and channels and the bus arbiter, the interrupt, the handler and
// the output copy. Contention between the cores is played out, not approximated. The weights are
// taken to be in place already (the invocations after the first).

#include <cstdint>
#include <vector>

#include "hilsim/timing/conv_schedule.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::timing {

// One core's share of the layer (a chunk of the plan).
struct CoreWork {
  uint32_t core = 0;
  uint32_t n_count = 0;  // output features
  uint32_t tile_n = 0;   // features per tile (the last tile may be narrower)
  uint32_t num_tiles = 0;
  bool double_buffer = false;  // the next tile loads while this one computes
};

struct JobWork {
  uint32_t rows = 0, k = 0, n = 0;
  std::vector<CoreWork> cores;  // in core order
  uint32_t descriptor_bytes = 128;
  uint32_t param_bytes_per_feature = 12;
  // A convolution job (conv_schedule.h): the layer's geometry and each core's share, in core
  // order; `cores` is then empty.
  bool convolution = false;
  ConvGeometry conv;
  std::vector<ConvCoreWork> conv_cores;
};

// Bytes the host copies to the device before the job (the layer's input) and back after it.
uint64_t hostInputBytes(const JobWork& work);
uint64_t hostOutputBytes(const JobWork& work);

// Register accesses the driver makes for one job.
struct DriverTraffic {
  uint32_t submit_writes = 4;  // the last one starts the job
  uint32_t completion_reads = 1;
  uint32_t completion_writes = 1;
};

// What a core's performance counters show after the job (accelerator cycles; stall: bus cycles).
struct CoreCounts {
  uint32_t core = 0;
  uint64_t busy_cycles = 0;
  uint64_t startup_cycles = 0;
  uint64_t compute_cycles = 0;
  uint64_t load_wait_cycles = 0;
  uint64_t store_wait_cycles = 0;
  uint64_t stall_cycles = 0;
};

// Host-clock cycles at the kernel's steps, counted from its start.
struct JobSteps {
  uint64_t dispatched = 0;
  uint64_t uploaded = 0;  // after the weights were placed (the first invocation only)
  uint64_t input_sent = 0;
  uint64_t job_started = 0;
  uint64_t job_done = 0;
  uint64_t end = 0;
};

struct JobTimeline {
  JobSteps steps;
  std::vector<CoreCounts> cores;  // as `work.cores`
  // Host cycles asleep waiting for the job's interrupt: from the last register write that starts
  // the job to the host's wake-up on the interrupt (as the host CPU's waitForIrq counts them).
  uint64_t sleep_cycles = 0;
};

JobTimeline jobTimeline(const PlatformTiming& t, const JobWork& work, const DriverTraffic& driver);

// Bytes the job moves over the bus: input, output, and per core its descriptor, input, weights
// with parameters, and outputs (a convolution: every band and tile load of its schedule, halo
// rows included, and its outputs).
uint64_t jobBytes(const JobWork& work);

}  // namespace hilsim::timing
