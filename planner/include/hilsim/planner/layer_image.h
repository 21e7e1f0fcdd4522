#pragma once
// What a planned layer looks like in device memory: each core's tile blocks (weights, then
// per-feature {bias, multiplier, shift}; chunks with the same channels share theirs) and the job
// descriptor table, in the format of drv/regs.h (GEMM or convolution descriptors).

#include <cstdint>
#include <vector>

#include "hilsim/planner/chunk_plan.h"

namespace hilsim::planner {

// The arithmetic of an int8 layer, per output feature (per-tensor layers repeat the values).
struct LayerArithmetic {
  const int8_t* weights = nullptr;   // n x k, row major (depthwise: each channel's taps)
  std::vector<int32_t> bias;         // n (zeros when the layer has none)
  std::vector<int32_t> multipliers;  // n
  std::vector<int32_t> shifts;       // n
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  int32_t act_min = -128;
  int32_t act_max = 127;
};

struct LayerImage {
  std::vector<uint8_t> tiles;          // every chunk's tile blocks, one after another
  std::vector<uint64_t> chunk_offset;  // per chunk: offset of its first block in `tiles`
  std::vector<uint64_t> chunk_stride;  // per chunk: bytes between its tile blocks
};

LayerImage buildTiles(const Plan& plan, const LayerArithmetic& layer);
// The size of buildTiles(plan, ...).tiles, without building it.
uint64_t tileImageBytes(const Plan& plan);
// What a layer's first invocation writes to device memory before its job: the tile image and the
// descriptor table.
uint64_t uploadBytes(const Plan& plan);

// Device addresses where the kernel placed the layer's buffers.
struct DeviceAddresses {
  uint64_t tiles = 0;   // LayerImage::tiles
  uint64_t input = 0;   // rows x k int8 (convolutions: the NHWC input)
  uint64_t output = 0;  // rows x n int8 (convolutions: the NHWC output)
};

// One descriptor per core of the plan's hardware (cores without a chunk get an empty slot).
std::vector<uint8_t> buildDescriptorTable(const Plan& plan, const LayerArithmetic& layer,
                                          const LayerImage& image, const DeviceAddresses& addr);

// The core mask of a plan (bit c set for every core with a chunk).
uint64_t coreMask(const Plan& plan);

}  // namespace hilsim::planner
