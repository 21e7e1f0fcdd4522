#include "hilsim/planner/conv_plan.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <set>

#include "chunk_checks.h"
#include "hilsim/drv/regs.h"
#include "hilsim/errors.h"
#include "hilsim/planner/predict.h"

namespace hilsim::planner {
namespace {

constexpr uint64_t kField16 = std::numeric_limits<uint16_t>::max();  // the descriptor's fields
constexpr uint64_t kField32 = std::numeric_limits<uint32_t>::max();

uint64_t alignUp(uint64_t v, uint64_t a) {
  return (v + a - 1) / a * a;
}
uint64_t ceilDiv(uint64_t a, uint64_t b) {
  return b ? (a + b - 1) / b : 0;
}

std::string geometryText(const ConvGeometry& g) {
  auto dims = [](std::initializer_list<uint64_t> v) {
    std::string out;
    for (uint64_t x : v) out += (out.empty() ? "" : "x") + std::to_string(x);
    return out;
  };
  return dims({g.batches, g.in_h, g.in_w, g.in_c}) + (g.depthwise ? " depthwise " : " ") +
         dims({g.filter_h, g.filter_w}) + " stride " + dims({g.stride_h, g.stride_w}) +
         " dilation " + dims({g.dilation_h, g.dilation_w}) + " pad " + dims({g.pad_h, g.pad_w}) +
         " -> " + dims({g.batches, g.out_h, g.out_w, g.out_c});
}

// Why the geometry cannot be a job (empty, beyond the descriptor's fields, windows that miss
// the input), or "".
std::string geometryProblem(const ConvGeometry& g) {
  const uint64_t fields[] = {
      g.batches,  g.in_h,       g.in_w,       g.in_c,  g.filter_h, g.filter_w,        g.stride_h,
      g.stride_w, g.dilation_h, g.dilation_w, g.out_h, g.out_w,    g.depth_multiplier};
  for (uint64_t f : fields)
    if (f == 0) return "convolution " + geometryText(g) + " has an empty dimension";
  if (g.out_c == 0) return "convolution " + geometryText(g) + " has no output channels";
  for (uint64_t f : fields)
    if (f > kField16)
      return "convolution " + geometryText(g) + " exceeds the job descriptor's 16-bit sizes";
  if (g.pad_h > kField16 || g.pad_w > kField16 || g.out_c > kField32 / 2)
    return "convolution " + geometryText(g) + " exceeds the job descriptor's sizes";
  const uint64_t window_w = (uint64_t{g.filter_w} - 1) * g.dilation_w + 1;
  if (g.pad_h >= g.windowRows() || g.pad_w >= window_w ||
      (uint64_t{g.out_h} - 1) * g.stride_h >= uint64_t{g.in_h} + g.pad_h ||
      (uint64_t{g.out_w} - 1) * g.stride_w >= uint64_t{g.in_w} + g.pad_w)
    return "convolution " + geometryText(g) + " has windows entirely outside the input";
  if (g.depthwise && uint64_t{g.in_c} * g.depth_multiplier != g.out_c)
    return "depthwise convolution " + geometryText(g) + " does not have in_c x " +
           std::to_string(g.depth_multiplier) + " output channels";
  if (g.pixels() > kField32 || g.k() > kField32 / 2)
    return "convolution " + geometryText(g) + " has a GEMM beyond 32-bit sizes";
  return "";
}

// Buffer bytes as the SRAM lays them out (aligned).
struct BufferSizes {
  const ConvGeometry& g;
  uint64_t input(uint32_t band_rows) const {
    return alignUp(uint64_t{g.batches} * maxBandInputRows(g, band_rows) * g.inputRowBytes(),
                   kSramAlignment);
  }
  uint64_t tile(uint64_t features) const {
    return alignUp(features * (g.k() + kParamBytesPerFeature), kSramAlignment);
  }
  uint64_t output(uint32_t band_rows, uint64_t features) const {
    return alignUp(uint64_t{g.batches} * band_rows * g.out_w * features, kSramAlignment);
  }
};

// The largest tile (at most n) with fixed + tiles x tile(n) + outputs x output(rows, n) <= room.
uint64_t largestTile(const BufferSizes& size, uint64_t n, uint32_t rows, uint64_t fixed,
                     uint32_t tiles, uint32_t outputs, uint64_t room) {
  auto fits = [&](uint64_t t) {
    return fixed + tiles * size.tile(t) + outputs * size.output(rows, t) <= room;
  };
  if (!fits(1)) return 0;
  uint64_t lo = 1, hi = n;  // fits(lo)
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

// Tiles of at most `max_tile` channels, evened out and in whole array-width groups.
uint32_t evenTile(uint64_t n, uint64_t max_tile, uint32_t granularity) {
  if (max_tile >= granularity) max_tile = max_tile / granularity * granularity;
  const uint64_t tiles = ceilDiv(n, max_tile);
  uint64_t tile = ceilDiv(n, tiles);
  if (tile >= granularity) tile = std::min<uint64_t>(alignUp(tile, granularity), max_tile);
  return static_cast<uint32_t>(tile);
}

uint32_t evenBand(uint32_t rows, uint32_t max_band) {
  return static_cast<uint32_t>(ceilDiv(rows, ceilDiv(rows, max_band)));
}

// Chooses the chunk's bands and tiles (the cases of conv_plan.h) and lays out its SRAM. Returns
// false, saying why, if even one output row and one channel do not fit.
bool tileConvChunk(const Hardware& hw, const ConvGeometry& g, uint32_t granularity, Chunk* c,
                   std::string* why) {
  const BufferSizes size{g};
  const uint64_t sram = hw.sram_bytes;
  const uint32_t m = c->m_count;
  const uint64_t n = c->n_count;
  const uint32_t two = hw.double_buffer ? 2 : 1;
  uint32_t band_rows = 0, tile_n = 0;
  if (size.input(m) + size.tile(n) + size.output(m, n) <= sram) {
    band_rows = m;  // one step
    tile_n = static_cast<uint32_t>(n);
  } else if (size.tile(n) < sram) {
    // The weights stay; the largest band that fits with them.
    uint32_t lo = 0, hi = m - 1;
    auto fits = [&](uint32_t r) {
      return size.tile(n) + two * (size.input(r) + size.output(r, n)) <= sram;
    };
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo + 1) / 2;
      if (fits(mid))
        lo = mid;
      else
        hi = mid - 1;
    }
    if (lo > 0 && fits(lo)) {
      band_rows = evenBand(m, lo);
      tile_n = static_cast<uint32_t>(n);
    }
  }
  if (band_rows == 0 && size.input(m) < sram) {
    // The input stays; the weights are streamed in tiles.
    const uint64_t max_tile = largestTile(size, n, m, size.input(m), two, two, sram);
    if (max_tile > 0) {
      band_rows = m;
      tile_n = evenTile(n, max_tile, granularity);
    }
  }
  if (band_rows == 0) {
    // Both streamed: the band height that moves the fewest bytes (the weights once per band).
    const uint64_t weights = n * (g.k() + kParamBytesPerFeature);
    std::optional<uint64_t> best_bytes;
    uint32_t last = 0;
    for (uint64_t bands = 2; bands <= m; ++bands) {
      const uint32_t r = static_cast<uint32_t>(ceilDiv(m, bands));
      if (r == last) continue;
      last = r;
      const uint64_t max_tile = largestTile(size, n, r, two * size.input(r), two, two, sram);
      if (max_tile == 0) continue;
      const uint64_t actual_bands = ceilDiv(m, r);
      const uint64_t bytes = actual_bands * (weights + size.input(r));
      if (!best_bytes || bytes < *best_bytes) {
        best_bytes = bytes;
        band_rows = r;
        tile_n = evenTile(n, max_tile, granularity);
      }
    }
  }
  if (band_rows == 0) {
    *why = "one output row (" + std::to_string(size.input(1)) + " bytes of input rows) and one " +
           "channel (" + std::to_string(size.tile(1)) + " bytes of weights) do not fit " +
           std::to_string(sram) + " bytes of SRAM";
    return false;
  }
  c->band_rows = band_rows;
  c->num_bands = static_cast<uint32_t>(ceilDiv(m, band_rows));
  c->tile_n = tile_n;
  c->num_tiles = static_cast<uint32_t>(ceilDiv(n, tile_n));
  if (uint64_t{tile_n} * (g.k() + kParamBytesPerFeature) > kField32) {
    *why = "a weight tile exceeds the job descriptor's 32-bit tile stride";
    return false;
  }
  const timing::ConvBuffers buffers = timing::convBuffers(convCoreWork(*c, hw.double_buffer));
  uint64_t offset = 0;
  auto lay = [&](uint32_t count, uint64_t bytes, std::vector<uint64_t>* out) {
    out->clear();
    for (uint32_t i = 0; i < count; ++i, offset += bytes) out->push_back(offset);
  };
  lay(buffers.input, size.input(band_rows), &c->sram_inputs);
  lay(buffers.tile, size.tile(tile_n), &c->sram_tile);
  lay(buffers.output, size.output(band_rows, tile_n), &c->sram_outputs);
  c->sram_input = c->sram_inputs[0];
  c->sram_output = c->sram_outputs[0];
  c->sram_used = offset;
  return true;
}

// Output channels in n_parts balanced ranges of whole groups, times output rows in m_parts
// balanced ranges; core ni x m_parts + mi takes channel range ni and row range mi.
Plan splitAndTile(const Hardware& hw, const ConvGeometry& g, uint32_t granularity, uint32_t n_parts,
                  uint32_t m_parts) {
  Plan plan;
  plan.hardware = hw;
  plan.kind = g.depthwise ? PlanKind::kDepthwiseConv2D : PlanKind::kConv2D;
  plan.shape = convGemm(g);
  plan.conv = g;
  const uint64_t groups = ceilDiv(g.out_c, granularity);
  uint64_t n_next = 0;
  for (uint32_t ni = 0; ni < n_parts; ++ni) {
    const uint64_t my_groups = groups / n_parts + (ni < groups % n_parts ? 1 : 0);
    const uint64_t n_count = std::min<uint64_t>(my_groups * granularity, g.out_c - n_next);
    uint32_t m_next = 0;
    for (uint32_t mi = 0; mi < m_parts; ++mi) {
      Chunk c;
      c.core = ni * m_parts + mi;
      c.n_begin = static_cast<uint32_t>(n_next);
      c.n_count = static_cast<uint32_t>(n_count);
      c.m_begin = m_next;
      c.m_count = g.out_h / m_parts + (mi < g.out_h % m_parts ? 1 : 0);
      m_next += c.m_count;
      std::string why;
      if (!tileConvChunk(hw, g, granularity, &c, &why))
        throw ModelError("convolution " + geometryText(g) + " does not fit core SRAM: " + why);
      plan.chunks.push_back(std::move(c));
    }
    n_next += n_count;
  }
  return plan;
}

}  // namespace

GemmShape convGemm(const ConvGeometry& g) {
  return {static_cast<uint32_t>(g.pixels()), static_cast<uint32_t>(g.k()), g.out_c};
}

LayerShape convLayer(const ConvGeometry& g) {
  return {g.depthwise ? PlanKind::kDepthwiseConv2D : PlanKind::kConv2D, convGemm(g), g};
}

timing::ConvCoreWork convCoreWork(const Chunk& c, bool double_buffer) {
  timing::ConvCoreWork w;
  w.core = c.core;
  w.oy_begin = c.m_begin;
  w.oy_count = c.m_count;
  w.band_rows = c.band_rows;
  w.num_bands = c.num_bands;
  w.n_count = c.n_count;
  w.tile_n = c.tile_n;
  w.num_tiles = c.num_tiles;
  w.double_buffer = double_buffer;
  return w;
}

Plan makeConvPlan(const Hardware& hw, const ConvGeometry& g, const timing::PlatformTiming& t) {
  const std::string problem = geometryProblem(g);
  if (!problem.empty()) throw ModelError(problem);
  if (hw.num_cores == 0) throw ModelError("the accelerator has no cores");
  const uint32_t granularity = g.depthwise ? 1 : splitGranularity(hw);
  const uint64_t groups = ceilDiv(g.out_c, granularity);
  const uint32_t max_n = static_cast<uint32_t>(std::min<uint64_t>(hw.num_cores, groups));
  std::vector<uint32_t> n_parts;
  for (uint32_t p = 1; p <= max_n; p *= 2) n_parts.push_back(p);
  if (n_parts.back() != max_n) n_parts.push_back(max_n);
  std::optional<Plan> best;
  uint64_t best_cycles = 0;
  std::string why;
  for (uint32_t np : n_parts) {
    const uint32_t mp = std::min<uint32_t>(g.out_h, hw.num_cores / np);
    if (mp == 0) continue;
    try {
      Plan candidate = splitAndTile(hw, g, granularity, np, mp);
      const uint64_t cycles = predictAccelerated(candidate, t).cycles;
      if (!best || cycles < best_cycles) {
        best = std::move(candidate);
        best_cycles = cycles;
      }
    } catch (const ModelError& e) {
      why = e.what();
    }
  }
  if (!best) throw ModelError(why);
  return *best;
}

std::string validateConvPlan(const Plan& plan, const LayerShape& layer) {
  const ConvGeometry& g = plan.conv;
  if (g != layer.conv)
    return "plan is for a " + geometryText(g) + " convolution, the operator is " +
           geometryText(layer.conv);
  const std::string problem = geometryProblem(g);
  if (!problem.empty()) return problem;
  const GemmShape gemm = convGemm(g);
  if (plan.shape.rows != gemm.rows || plan.shape.k != gemm.k || plan.shape.n != gemm.n)
    return "plan's GEMM shape does not match its convolution";
  const Hardware& hw = plan.hardware;
  if (std::string problem = planHardwareProblem(plan); !problem.empty()) return problem;
  std::set<uint32_t> cores;
  uint64_t covered = 0;
  for (const Chunk& c : plan.chunks) {
    const std::string who = "chunk of core " + std::to_string(c.core);
    if (std::string problem = chunkCoreProblem(c, hw.num_cores, &cores); !problem.empty())
      return problem;
    if (c.n_count == 0 || c.m_count == 0) return who + " is empty";
    if (uint64_t{c.n_begin} + c.n_count > g.out_c)
      return who + " has output channels beyond " + std::to_string(g.out_c);
    if (uint64_t{c.m_begin} + c.m_count > g.out_h)
      return who + " has output rows beyond " + std::to_string(g.out_h);
    if (c.band_rows == 0 || c.band_rows > c.m_count ||
        c.num_bands != ceilDiv(c.m_count, c.band_rows))
      return who + ": " + std::to_string(c.num_bands) + " bands of " + std::to_string(c.band_rows) +
             " rows do not cover " + std::to_string(c.m_count) + " rows";
    if (c.tile_n == 0 || c.tile_n > c.n_count || c.num_tiles != ceilDiv(c.n_count, c.tile_n))
      return who + ": " + std::to_string(c.num_tiles) + " tiles of " + std::to_string(c.tile_n) +
             " do not cover " + std::to_string(c.n_count) + " channels";
    if (uint64_t{c.tile_n} * (g.k() + kParamBytesPerFeature) > kField32)
      return who + ": a weight tile exceeds the job descriptor's 32-bit tile stride";
    const timing::ConvCoreWork w = convCoreWork(c, hw.double_buffer);
    const timing::ConvBuffers b = timing::convBuffers(w);
    if (c.sram_inputs.size() != b.input || c.sram_tile.size() != b.tile ||
        c.sram_outputs.size() != b.output)
      return who + " needs " + std::to_string(b.input) + " input, " + std::to_string(b.tile) +
             " weight and " + std::to_string(b.output) + " output buffers, has " +
             std::to_string(c.sram_inputs.size()) + ", " + std::to_string(c.sram_tile.size()) +
             " and " + std::to_string(c.sram_outputs.size());
    if (c.sram_input != c.sram_inputs[0] || c.sram_output != c.sram_outputs[0])
      return who + ": its first input and output buffers disagree with its offsets";
    std::vector<SramBuffer> buffers;
    for (uint64_t o : c.sram_inputs) buffers.push_back({o, timing::inputBufferBytes(g, w)});
    for (uint64_t o : c.sram_tile)
      buffers.push_back({o, timing::tileBufferBytes(g, w, kParamBytesPerFeature)});
    for (uint64_t o : c.sram_outputs) buffers.push_back({o, timing::outputBufferBytes(g, w)});
    if (std::string problem = sramBufferProblem(who, buffers, hw.sram_bytes, kField32);
        !problem.empty())
      return problem;
    covered += uint64_t{c.n_count} * c.m_count;
  }
  for (size_t i = 0; i < plan.chunks.size(); ++i)
    for (size_t j = i + 1; j < plan.chunks.size(); ++j) {
      const Chunk& a = plan.chunks[i];
      const Chunk& o = plan.chunks[j];
      if (a.n_begin < o.n_begin + o.n_count && o.n_begin < a.n_begin + a.n_count &&
          a.m_begin < o.m_begin + o.m_count && o.m_begin < a.m_begin + a.m_count)
        return "chunks of cores " + std::to_string(a.core) + " and " + std::to_string(o.core) +
               " overlap";
    }
  if (covered != uint64_t{g.out_c} * g.out_h)
    return "some output rows and channels are in no chunk";
  return "";
}

double inputReadFactor(const Plan& plan) {
  const ConvGeometry& g = plan.conv;
  if (g.inputBytes() == 0) return 0.0;
  uint64_t bytes = 0;
  for (const Chunk& c : plan.chunks) {
    const timing::ConvCoreWork w = convCoreWork(c, plan.hardware.double_buffer);
    for (uint32_t b = 0; b < w.num_bands; ++b) bytes += timing::bandLoadBytes(g, w, b);
  }
  return static_cast<double>(bytes) / static_cast<double>(g.inputBytes());
}

}  // namespace hilsim::planner
