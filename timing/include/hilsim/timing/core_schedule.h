#pragma once
// The steps a matmul core takes for one job, walked alike by the simulated core
// (sc_model/src/matmul_core.cpp) and the planner's timeline (timing/src/core_run.cpp), so the two
// run every job the same way. A step computes one input band against one weight tile and stores
// its outputs. The operands it does not hold yet are loaded first: into a buffer the step before
// does not use, while that step computes (double buffering), or after it when there is one
// buffer. A FULLY_CONNECTED job has one band, its whole input (fcSchedule below); a convolution
// has bands of output rows (convSchedule, conv_schedule.h).

#include <cstdint>
#include <vector>

namespace hilsim::timing {

// One step: band `band` x weight tile `tile`. A load marked early is issued when the previous
// step starts computing, else when it has computed (the first step's loads: at the start).
struct CoreStep {
  uint32_t band = 0, tile = 0;
  uint32_t input_buffer = 0, tile_buffer = 0, output_buffer = 0;
  bool load_band = false, band_early = false;
  bool load_tile = false, tile_early = false;
  // The step whose store must have finished before this one writes its output buffer, or -1.
  int64_t wait_store = -1;
};

// A FULLY_CONNECTED job of `num_tiles` weight tiles: the input and tile 0 are loaded at the
// start; with double buffering (and more than one tile) tile t + 1 goes into buffer (t + 1) % 2
// while tile t computes, else into buffer 0 after it. The core keeps all its outputs in SRAM
// (output buffer 0), so no step waits for a store.
std::vector<CoreStep> fcSchedule(uint32_t num_tiles, bool double_buffer);

}  // namespace hilsim::timing
