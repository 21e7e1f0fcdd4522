#pragma once
// The checks every kind of plan makes of its chunks (chunk_plan.cpp for FULLY_CONNECTED,
// conv_plan.cpp for convolutions): the hardware the plan records, each chunk's core, and each
// chunk's SRAM buffers. Each returns an empty string if the check passes, else the problem.

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "hilsim/planner/chunk_plan.h"

namespace hilsim::planner {

// The plan records hardware (cores, SRAM, an array) and has one to num_cores chunks.
std::string planHardwareProblem(const Plan& plan);

// The chunk's core is below the plan's core count and no chunk before it (`seen`, which this
// adds it to) has it.
std::string chunkCoreProblem(const Chunk& chunk, uint32_t num_cores, std::set<uint32_t>* seen);

// A buffer in a core's SRAM: bytes from `offset`.
struct SramBuffer {
  uint64_t offset = 0;
  uint64_t bytes = 0;
};

// The buffers of a chunk (`who` names it) lie inside `sram_bytes` of SRAM at offsets up to
// `max_offset` and do not overlap.
std::string sramBufferProblem(const std::string& who, const std::vector<SramBuffer>& buffers,
                              uint64_t sram_bytes, uint64_t max_offset);

}  // namespace hilsim::planner
