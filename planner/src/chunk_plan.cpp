#include "hilsim/planner/chunk_plan.h"

#include <algorithm>
#include <set>

#include "chunk_checks.h"
#include "hilsim/errors.h"
#include "hilsim/planner/conv_plan.h"

namespace hilsim::planner {
namespace {

uint64_t alignUp(uint64_t v, uint64_t a) {
  return (v + a - 1) / a * a;
}

std::string shapeText(const GemmShape& s) {
  return std::to_string(s.rows) + "x" + std::to_string(s.k) + "->" + std::to_string(s.n);
}

// Lays out one chunk's SRAM: input, output, then the tile buffers. Returns false if even a
// one-feature tile does not fit.
bool tileChunk(const Hardware& hw, const GemmShape& shape, uint32_t granularity, Chunk* c,
               std::string* why) {
  const uint64_t input = alignUp(uint64_t{shape.rows} * shape.k, kSramAlignment);
  const uint64_t output = alignUp(uint64_t{shape.rows} * c->n_count, kSramAlignment);
  const uint64_t per_feature = uint64_t{shape.k} + kParamBytesPerFeature;
  if (input + output >= hw.sram_bytes) {
    *why = "input and output (" + std::to_string(input + output) + " bytes) do not fit " +
           std::to_string(hw.sram_bytes) + " bytes of SRAM";
    return false;
  }
  const uint64_t room = hw.sram_bytes - input - output;
  c->sram_input = 0;
  c->sram_output = input;
  // One buffer holds the whole chunk: a single tile.
  if (alignUp(per_feature * c->n_count, kSramAlignment) <= room) {
    c->tile_n = c->n_count;
    c->num_tiles = 1;
    c->sram_tile = {input + output};
  } else {
    const uint32_t buffers = hw.double_buffer ? 2 : 1;
    const uint64_t buffer_room = room / buffers / kSramAlignment * kSramAlignment;
    uint64_t max_tile = buffer_room / per_feature;
    if (max_tile == 0) {
      *why = "one output feature needs " + std::to_string(per_feature * buffers) +
             " bytes of tile buffers, " + std::to_string(room) + " bytes are left";
      return false;
    }
    if (max_tile >= granularity) max_tile = max_tile / granularity * granularity;
    // Even out the tiles: the same count, each as small as it can be.
    const uint64_t tiles = (c->n_count + max_tile - 1) / max_tile;
    uint64_t tile_n = (c->n_count + tiles - 1) / tiles;
    if (tile_n >= granularity) tile_n = std::min<uint64_t>(alignUp(tile_n, granularity), max_tile);
    c->tile_n = static_cast<uint32_t>(tile_n);
    c->num_tiles = static_cast<uint32_t>((c->n_count + tile_n - 1) / tile_n);
    const uint64_t buffer = alignUp(per_feature * tile_n, kSramAlignment);
    c->sram_tile.clear();
    for (uint32_t b = 0; b < buffers; ++b) c->sram_tile.push_back(input + output + b * buffer);
  }
  const uint64_t buffer = alignUp(per_feature * c->tile_n, kSramAlignment);
  c->sram_used = c->sram_tile.back() + buffer;
  return true;
}

}  // namespace

const char* planKindName(PlanKind kind) {
  switch (kind) {
    case PlanKind::kFullyConnected:
      return "FULLY_CONNECTED";
    case PlanKind::kConv2D:
      return "CONV_2D";
    case PlanKind::kDepthwiseConv2D:
      return "DEPTHWISE_CONV_2D";
  }
  return "?";
}

std::string validatePlan(const Plan& plan, const LayerShape& layer) {
  if (plan.kind != layer.kind)
    return std::string("plan is for a ") + planKindName(plan.kind) + " layer, the operator is " +
           planKindName(layer.kind);
  if (layer.kind == PlanKind::kFullyConnected) return validatePlan(plan, layer.gemm);
  return validateConvPlan(plan, layer);
}

uint32_t splitGranularity(const Hardware& hw) {
  return timing::outputFeatureGranularity(hw.dataflow, {hw.array_rows, hw.array_cols});
}

Plan makePlan(const Hardware& hw, const GemmShape& shape) {
  if (shape.rows == 0 || shape.k == 0 || shape.n == 0)
    throw ModelError("cannot plan an empty layer " + shapeText(shape));
  Plan plan;
  plan.hardware = hw;
  plan.shape = shape;
  const uint32_t g = splitGranularity(hw);
  const uint64_t groups = (uint64_t{shape.n} + g - 1) / g;
  const uint32_t cores = static_cast<uint32_t>(std::min<uint64_t>(hw.num_cores, groups));
  const uint64_t base = groups / cores, extra = groups % cores;
  uint64_t next = 0;
  for (uint32_t c = 0; c < cores; ++c) {
    const uint64_t my_groups = base + (c < extra ? 1 : 0);
    Chunk chunk;
    chunk.core = c;
    chunk.n_begin = static_cast<uint32_t>(next);
    chunk.n_count = static_cast<uint32_t>(std::min<uint64_t>(my_groups * g, shape.n - next));
    next += chunk.n_count;
    std::string why;
    if (!tileChunk(hw, shape, g, &chunk, &why))
      throw ModelError("layer " + shapeText(shape) + " does not fit core SRAM: " + why);
    plan.chunks.push_back(std::move(chunk));
  }
  return plan;
}

std::string validatePlan(const Plan& plan, const GemmShape& shape) {
  const Hardware& hw = plan.hardware;
  if (plan.kind != PlanKind::kFullyConnected)
    return std::string("plan is for a ") + planKindName(plan.kind) +
           " layer, the operator is FULLY_CONNECTED";
  if (plan.shape.rows != shape.rows || plan.shape.k != shape.k || plan.shape.n != shape.n)
    return "plan is for a " + shapeText(plan.shape) + " layer, the operator is " + shapeText(shape);
  if (std::string problem = planHardwareProblem(plan); !problem.empty()) return problem;
  std::vector<const Chunk*> sorted;
  std::set<uint32_t> cores;
  for (const Chunk& c : plan.chunks) {
    if (std::string problem = chunkCoreProblem(c, hw.num_cores, &cores); !problem.empty())
      return problem;
    sorted.push_back(&c);
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const Chunk* a, const Chunk* b) { return a->n_begin < b->n_begin; });
  uint64_t expected = 0;
  const uint64_t per_feature = uint64_t{shape.k} + kParamBytesPerFeature;
  for (const Chunk* c : sorted) {
    const std::string who = "chunk of core " + std::to_string(c->core);
    if (c->n_begin != expected)
      return c->n_begin < expected ? who + " overlaps the previous chunk"
                                   : "output features " + std::to_string(expected) + ".." +
                                         std::to_string(c->n_begin - 1) + " are in no chunk";
    if (c->n_count == 0) return who + " is empty";
    expected += c->n_count;
    if (c->tile_n == 0 || c->num_tiles != (c->n_count + c->tile_n - 1) / c->tile_n)
      return who + ": " + std::to_string(c->num_tiles) + " tiles of " + std::to_string(c->tile_n) +
             " do not cover " + std::to_string(c->n_count) + " features";
    if (c->sram_tile.empty() || c->sram_tile.size() > 2)
      return who + " needs one or two tile buffers, has " + std::to_string(c->sram_tile.size());
    // Buffers: [offset, size) each; all inside SRAM and pairwise disjoint.
    std::vector<SramBuffer> buffers = {{c->sram_input, uint64_t{shape.rows} * shape.k},
                                       {c->sram_output, uint64_t{shape.rows} * c->n_count}};
    for (uint64_t t : c->sram_tile) buffers.push_back({t, per_feature * c->tile_n});
    if (std::string problem = sramBufferProblem(who, buffers, hw.sram_bytes, UINT64_MAX);
        !problem.empty())
      return problem;
  }
  if (expected != shape.n)
    return "output features " + std::to_string(expected) + ".." + std::to_string(shape.n - 1) +
           " are in no chunk";
  return "";
}

}  // namespace hilsim::planner
