#pragma once
// Chunk planning for the accelerated kernels, shared by `hilsim annotate` and the kernels
// themselves. FULLY_CONNECTED: split the output features over the cores in balanced ranges that
// respect the array width, tile each range so its buffers fit the core's SRAM, and lay the
// buffers out. Convolutions (conv_plan.h): output channels and output rows over the cores, bands
// and weight tiles within a core (docs/CONVOLUTION.md).

#include <cstdint>
#include <string>
#include <vector>

#include "hilsim/planner/types.h"
#include "hilsim/timing/conv_schedule.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::planner {

// The hardware a plan is made for (what a chunk plan records).
using Hardware = timing::AccelGeometry;

// The kind of layer a plan is for.
enum class PlanKind : uint8_t { kFullyConnected, kConv2D, kDepthwiseConv2D };
// The builtin operator's name: "FULLY_CONNECTED", "CONV_2D", "DEPTHWISE_CONV_2D".
const char* planKindName(PlanKind kind);

using timing::ConvGeometry;

// The layer a plan is made for: its kind, its GEMM view and, for convolutions, its geometry.
struct LayerShape {
  PlanKind kind = PlanKind::kFullyConnected;
  GemmShape gemm;
  ConvGeometry conv;  // convolutions only
};

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
  // Convolutions: output rows [m_begin, m_begin + m_count) of every image, in num_bands bands of
  // band_rows rows; input and output buffers (one, or two when double buffered; the first is
  // sram_input / sram_output).
  uint32_t m_begin = 0;
  uint32_t m_count = 0;
  uint32_t band_rows = 0;
  uint32_t num_bands = 0;
  std::vector<uint64_t> sram_inputs;
  std::vector<uint64_t> sram_outputs;
};

struct Plan {
  Hardware hardware;
  PlanKind kind = PlanKind::kFullyConnected;
  GemmShape shape;    // convolutions: M pixels, K, N output channels
  ConvGeometry conv;  // convolutions only
  std::vector<Chunk> chunks;

  LayerShape layer() const { return {kind, shape, conv}; }
};

constexpr uint32_t kParamBytesPerFeature = 12;  // int32 bias, multiplier, shift
constexpr uint64_t kSramAlignment = 64;

// Plans `shape` on `hw`. Throws hilsim::ModelError (naming the reason) if it cannot fit.
Plan makePlan(const Hardware& hw, const GemmShape& shape);

// Checks that a plan (e.g. read from a model) is consistent with itself and with `shape`: chunks
// cover [0, n) exactly once, tiles and buffers fit SRAM without overlapping, core numbers are
// distinct and below the plan's core count. Returns an empty string if valid, else the problem.
std::string validatePlan(const Plan& plan, const GemmShape& shape);
// The same for a layer of any kind (convolutions: conv_plan.h's checks).
std::string validatePlan(const Plan& plan, const LayerShape& layer);

// The granularity (in output features) in which a plan splits layers on `hw`.
uint32_t splitGranularity(const Hardware& hw);

}  // namespace hilsim::planner
