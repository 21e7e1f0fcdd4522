#pragma once
// Prepare-time steps shared by the pooling kernels (AVERAGE_POOL_2D, MAX_POOL_2D), as TensorFlow
// Lite Micro's PoolingPrepare takes them for both. Every check throws hilsim::ModelError.

#include <cmath>
#include <cstdint>
#include <string>

#include "hilsim/rt/kernels/conv_common.h"
#include "hilsim/timing/conv_schedule.h"

namespace hilsim::rt {

inline const tflite::Pool2DOptions& poolOptions(const Node& node) {
  const auto* options = node.op_fb->builtin_options_as_Pool2DOptions();
  if (!options) throw ModelError("missing Pool2DOptions");
  return *options;
}

// The pooling window over the input (no dilation); the output keeps the input's channels.
inline WindowGeometry poolWindow(const Tensor& in, const Tensor& out,
                                 const tflite::Pool2DOptions& options) {
  const WindowGeometry g =
      computeWindowGeometry(in, out, options.filter_height(), options.filter_width(),
                            options.padding(), options.stride_h(), options.stride_w(), 1, 1);
  if (g.out_c != g.in_c)
    throw ModelError("output " + describe(out) + " does not have the channels of input " +
                     describe(in));
  return g;
}

// TFLite Micro requires a quantized input and output to share their scale (within 1e-6) and
// zero point.
inline void expectSharedQuantization(const Tensor& in, const Tensor& out) {
  const double scale_diff =
      std::abs(static_cast<double>(in.quant.scale0()) - static_cast<double>(out.quant.scale0()));
  if (scale_diff > 1.0e-6 || in.quant.zero_point0() != out.quant.zero_point0())
    throw ModelError("input and output quantization differ (scales " +
                     std::to_string(in.quant.scale0()) + " and " +
                     std::to_string(out.quant.scale0()) + ", zero points " +
                     std::to_string(in.quant.zero_point0()) + " and " +
                     std::to_string(out.quant.zero_point0()) + ")");
}

// The cost model's work of a pooling layer: its outputs, the window elements they read and the
// window rows inside the input over the output pixels.
inline OpWork poolWork(const WindowGeometry& g) {
  OpWork work;
  work.outputs = g.outputs();
  work.window_elements = work.outputs * uint64_t(g.filter_h) * uint64_t(g.filter_w);
  work.window_rows = uint64_t(g.batches) * uint64_t(g.out_w) *
                     timing::tapsInside(uint32_t(g.out_h), uint32_t(g.stride_h), uint32_t(g.pad_h),
                                        uint32_t(g.filter_h), 1, uint32_t(g.in_h));
  return work;
}

}  // namespace hilsim::rt
