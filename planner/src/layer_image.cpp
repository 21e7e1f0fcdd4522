#include "hilsim/planner/layer_image.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "hilsim/drv/regs.h"

namespace hilsim::planner {

namespace regs = drv::regs;

namespace {

// Chunks with the same channels and tiling (a convolution split by rows) share their blocks:
// the earlier chunk whose blocks chunk `i` uses.
std::optional<size_t> sameTiles(const Plan& plan, size_t i) {
  const Chunk& c = plan.chunks[i];
  for (size_t j = 0; j < i; ++j) {
    const Chunk& o = plan.chunks[j];
    if (o.n_begin == c.n_begin && o.n_count == c.n_count && o.tile_n == c.tile_n) return j;
  }
  return std::nullopt;
}

}  // namespace

uint64_t tileImageBytes(const Plan& plan) {
  const uint64_t per_feature = uint64_t{plan.shape.k} + kParamBytesPerFeature;
  uint64_t total = 0;
  for (size_t i = 0; i < plan.chunks.size(); ++i)
    if (!sameTiles(plan, i)) total += uint64_t{plan.chunks[i].n_count} * per_feature;
  return total;
}

uint64_t uploadBytes(const Plan& plan) {
  return tileImageBytes(plan) + uint64_t{plan.hardware.num_cores} * regs::kDescriptorBytes;
}

LayerImage buildTiles(const Plan& plan, const LayerArithmetic& layer) {
  static_assert(kParamBytesPerFeature == regs::kParamBytes, "one parameter record format");
  LayerImage image;
  const uint64_t k = plan.shape.k;
  const uint64_t per_feature = k + kParamBytesPerFeature;
  const uint64_t total = tileImageBytes(plan);
  image.tiles.resize(total);
  uint64_t offset = 0;
  for (size_t i = 0; i < plan.chunks.size(); ++i) {
    const Chunk& c = plan.chunks[i];
    image.chunk_stride.push_back(uint64_t{c.tile_n} * per_feature);
    if (const std::optional<size_t> j = sameTiles(plan, i)) {
      image.chunk_offset.push_back(image.chunk_offset[*j]);
      continue;
    }
    image.chunk_offset.push_back(offset);
    for (uint32_t t = 0; t < c.num_tiles; ++t) {
      const uint32_t first = c.n_begin + t * c.tile_n;
      const uint32_t count = std::min(c.tile_n, c.n_begin + c.n_count - first);
      uint8_t* block = image.tiles.data() + offset;
      std::memcpy(block, layer.weights + uint64_t{first} * k, uint64_t{count} * k);
      uint8_t* params = block + uint64_t{count} * k;
      for (uint32_t f = 0; f < count; ++f) {
        const int32_t record[3] = {layer.bias[first + f], layer.multipliers[first + f],
                                   layer.shifts[first + f]};
        std::memcpy(params + uint64_t{f} * kParamBytesPerFeature, record, sizeof record);
      }
      offset += uint64_t{count} * per_feature;
    }
  }
  return image;
}

namespace {

std::vector<uint8_t> convDescriptorTable(const Plan& plan, const LayerArithmetic& layer,
                                         const LayerImage& image, const DeviceAddresses& addr) {
  std::vector<uint8_t> table(uint64_t{plan.hardware.num_cores} * regs::kDescriptorBytes, 0);
  const ConvGeometry& g = plan.conv;
  auto u16 = [](uint32_t v) { return static_cast<uint16_t>(v); };
  auto i16 = [](int32_t v) { return static_cast<int16_t>(v); };
  auto u32 = [](uint64_t v) { return static_cast<uint32_t>(v); };
  for (size_t i = 0; i < plan.chunks.size(); ++i) {
    const Chunk& c = plan.chunks[i];
    regs::ConvJobDescriptor d;
    d.flags =
        static_cast<uint16_t>((plan.hardware.double_buffer ? regs::DESC_FLAG_DOUBLE_BUFFER : 0) |
                              (g.depthwise ? regs::DESC_FLAG_DEPTHWISE : 0));
    d.depth_multiplier = u16(g.depth_multiplier);
    d.batches = u16(g.batches);
    d.in_h = u16(g.in_h);
    d.in_w = u16(g.in_w);
    d.in_c = u16(g.in_c);
    d.filter_h = u16(g.filter_h);
    d.filter_w = u16(g.filter_w);
    d.stride_h = u16(g.stride_h);
    d.stride_w = u16(g.stride_w);
    d.dilation_h = u16(g.dilation_h);
    d.dilation_w = u16(g.dilation_w);
    d.pad_h = u16(g.pad_h);
    d.pad_w = u16(g.pad_w);
    d.out_h = u16(g.out_h);
    d.out_w = u16(g.out_w);
    d.out_c = g.out_c;
    d.oy_begin = u16(c.m_begin);
    d.oy_count = u16(c.m_count);
    d.band_rows = u16(c.band_rows);
    d.num_bands = u16(c.num_bands);
    d.n_begin = c.n_begin;
    d.n_count = c.n_count;
    d.tile_n = c.tile_n;
    d.num_tiles = c.num_tiles;
    d.input_addr = addr.input;
    d.tiles_addr = addr.tiles + image.chunk_offset[i];
    d.tile_stride = u32(image.chunk_stride[i]);
    d.output_addr = addr.output + c.n_begin;
    d.input_zero_point = i16(layer.input_zero_point);
    d.output_zero_point = i16(layer.output_zero_point);
    d.act_min = i16(layer.act_min);
    d.act_max = i16(layer.act_max);
    for (size_t b = 0; b < 2; ++b) {
      d.sram_input[b] = u32(c.sram_inputs[std::min(b, c.sram_inputs.size() - 1)]);
      d.sram_tile[b] = u32(c.sram_tile[std::min(b, c.sram_tile.size() - 1)]);
      d.sram_output[b] = u32(c.sram_outputs[std::min(b, c.sram_outputs.size() - 1)]);
    }
    regs::encodeConvDescriptor(d, table.data() + uint64_t{c.core} * regs::kDescriptorBytes);
  }
  return table;
}

}  // namespace

std::vector<uint8_t> buildDescriptorTable(const Plan& plan, const LayerArithmetic& layer,
                                          const LayerImage& image, const DeviceAddresses& addr) {
  if (plan.kind != PlanKind::kFullyConnected) return convDescriptorTable(plan, layer, image, addr);
  std::vector<uint8_t> table(uint64_t{plan.hardware.num_cores} * regs::kDescriptorBytes, 0);
  for (size_t i = 0; i < plan.chunks.size(); ++i) {
    const Chunk& c = plan.chunks[i];
    regs::JobDescriptor d;
    d.rows = plan.shape.rows;
    d.k = plan.shape.k;
    d.n_count = c.n_count;
    d.tile_n = c.tile_n;
    d.num_tiles = c.num_tiles;
    d.flags = c.sram_tile.size() > 1 ? regs::DESC_FLAG_DOUBLE_BUFFER : 0;
    d.input_addr = addr.input;
    d.tiles_addr = addr.tiles + image.chunk_offset[i];
    d.tile_stride = image.chunk_stride[i];
    d.output_addr = addr.output + c.n_begin;
    d.output_row_stride = plan.shape.n;
    d.input_zero_point = layer.input_zero_point;
    d.output_zero_point = layer.output_zero_point;
    d.act_min = layer.act_min;
    d.act_max = layer.act_max;
    d.sram_input = static_cast<uint32_t>(c.sram_input);
    d.sram_tile[0] = static_cast<uint32_t>(c.sram_tile[0]);
    d.sram_tile[1] =
        static_cast<uint32_t>(c.sram_tile.size() > 1 ? c.sram_tile[1] : c.sram_tile[0]);
    d.sram_output = static_cast<uint32_t>(c.sram_output);
    regs::encodeDescriptor(d, table.data() + uint64_t{c.core} * regs::kDescriptorBytes);
  }
  return table;
}

uint64_t coreMask(const Plan& plan) {
  uint64_t mask = 0;
  for (const Chunk& c : plan.chunks) mask |= uint64_t{1} << c.core;
  return mask;
}

}  // namespace hilsim::planner
