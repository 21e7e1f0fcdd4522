#pragma once
// Chunk planning for the accelerated FULLY_CONNECTED kernel, shared by `hilsim annotate` and the
// kernel itself: split the output features over the cores in balanced ranges that respect the
// array width, tile each range so its buffers fit the core's SRAM, and lay the buffers out.

#include <cstdint>
#include <string>
#include <vector>

#include "hilsim/rt/layer_record.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::rt::plan {

// The hardware a plan is made for (what a chunk plan records).
using Hardware = timing::AccelGeometry;

// One core's share of the layer. SRAM offsets are bytes from the start of the core's SRAM.
struct Chunk {
  uint32_t core = 0;
  uint32_t n_begin = 0;
  uint32_t n_count = 0;
  uint32_t tile_n = 0;
  uint32_t num_tiles = 0;
  uint64_t sram_input = 0;
  std::vector<uint64_t> sram_tile;  // weight + parameter buffers: one, or two when double buffered
  uint64_t sram_output = 0;
  uint64_t sram_used = 0;
};

struct Plan {
  Hardware hardware;
  GemmShape shape;
  std::vector<Chunk> chunks;
};

constexpr uint32_t kParamBytesPerFeature = 12;  // int32 bias, multiplier, shift
constexpr uint64_t kSramAlignment = 64;

// Plans `shape` on `hw`. Throws hilsim::ModelError (naming the reason) if it cannot fit.
Plan makePlan(const Hardware& hw, const GemmShape& shape);

// Checks that a plan (e.g. read from a model) is consistent with itself and with `shape`: chunks
// cover [0, n) exactly once, tiles and buffers fit SRAM without overlapping, core numbers are
// distinct and below the plan's core count. Returns an empty string if valid, else the problem.
std::string validatePlan(const Plan& plan, const GemmShape& shape);

// The granularity (in output features) in which a plan splits layers on `hw`.
uint32_t splitGranularity(const Hardware& hw);

}  // namespace hilsim::rt::plan
