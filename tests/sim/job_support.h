#pragma once
// Runs FULLY_CONNECTED layers as accelerator jobs through the driver, from a SystemC test's host
// thread: plan, place the layer in device memory, run the job, read the output.

#include <cstdint>
#include <vector>

#include "hilsim/drv/driver.h"
#include "hilsim/model/platform.h"
#include "hilsim/planner/chunk_plan.h"
#include "hilsim/rt/kernels/fully_connected_common.h"

namespace hilsim::test {

struct JobResult {
  std::vector<int8_t> output;
  uint64_t delta_cycles = 0;  // SystemC delta cycles the job took (events processed)
  sc_core::sc_time duration;  // START to the driver's return
};

// Runs one layer (params from the runtime's FULLY_CONNECTED preparation) planned with `plan`.
JobResult runLayerJob(drv::Driver& driver, const rt::FullyConnectedParams& params,
                      const planner::Plan& plan, const int8_t* input);

}  // namespace hilsim::test
