#include "hilsim/rt/plan/layer_image.h"

#include <cstring>

#include "hilsim/drv/regs.h"

namespace hilsim::rt::plan {

namespace regs = drv::regs;

LayerImage buildTiles(const Plan& plan, const LayerArithmetic& layer) {
  static_assert(kParamBytesPerFeature == regs::kParamBytes, "one parameter record format");
  LayerImage image;
  const uint64_t k = plan.shape.k;
  const uint64_t per_feature = k + kParamBytesPerFeature;
  uint64_t total = 0;
  for (const Chunk& c : plan.chunks) total += uint64_t{c.n_count} * per_feature;
  image.tiles.resize(total);
  uint64_t offset = 0;
  for (const Chunk& c : plan.chunks) {
    image.chunk_offset.push_back(offset);
    image.chunk_stride.push_back(uint64_t{c.tile_n} * per_feature);
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

std::vector<uint8_t> buildDescriptorTable(const Plan& plan, const LayerArithmetic& layer,
                                          const LayerImage& image, const DeviceAddresses& addr) {
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
    d.sram_tile[1] = static_cast<uint32_t>(c.sram_tile.size() > 1 ? c.sram_tile[1] : c.sram_tile[0]);
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

}  // namespace hilsim::rt::plan
