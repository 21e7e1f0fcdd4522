#pragma once
// Chunk planning for the accelerated CONV_2D and DEPTHWISE_CONV_2D kernels (docs/CONVOLUTION.md).
//
// Over the cores: output channels in balanced ranges of whole array-width groups (any size for
// depthwise, whose channels are separate GEMMs) times output rows in balanced ranges; every split
// n_parts x m_parts with n_parts a power of two (or every core) and m_parts = cores / n_parts is
// tried and the one with the fewest predicted cycles (plan/predict.h) kept.
// Within a core: everything in one step when the input, weights and outputs fit the SRAM; else
// the weights stay (one tile) and the input is streamed in bands of output rows; else the input
// stays (one band) and the weights are streamed in tiles; else both, choosing the band height
// that moves the fewest bytes.

#include <cstdint>
#include <string>

#include "hilsim/planner/chunk_plan.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::planner {

// The GEMM view of a convolution: M = batches x out_h x out_w, K = filter_h x filter_w x in_c
// (depthwise: filter_h x filter_w), N = out_c.
GemmShape convGemm(const ConvGeometry& geo);
LayerShape convLayer(const ConvGeometry& geo);

// Plans the convolution `geo` on `hw`. Throws hilsim::ModelError (naming the reason) if no split
// fits the cores' SRAM or the layer exceeds the job descriptor's fields.
Plan makeConvPlan(const Hardware& hw, const ConvGeometry& geo, const timing::PlatformTiming& t);

// A chunk of a convolution plan as the schedule sees it.
timing::ConvCoreWork convCoreWork(const Chunk& chunk, bool double_buffer);

// Checks a convolution plan against the layer: its geometry, the chunks covering every output
// row and channel exactly once, bands and tiles, and its buffers inside the SRAM without
// overlapping. Returns an empty string if valid, else the problem.
std::string validateConvPlan(const Plan& plan, const LayerShape& layer);

// Bytes of input the cores load per invocation, over the input tensor's bytes: the im2col
// overhead of re-reading halo rows (between bands and between cores splitting the rows) and of
// cores that split the channels each reading the input.
double inputReadFactor(const Plan& plan);

}  // namespace hilsim::planner
