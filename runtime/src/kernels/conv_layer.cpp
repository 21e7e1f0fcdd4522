#include "hilsim/rt/kernels/conv_layer.h"

#include "hilsim/rt/kernels/conv_common.h"

namespace hilsim::rt {

std::optional<ConvLayer> describeConvLayer(const Node& node) {
  const bool depthwise = node.op == tflite::BuiltinOperator::DEPTHWISE_CONV_2D;
  if (!depthwise && node.op != tflite::BuiltinOperator::CONV_2D) return std::nullopt;
  const Tensor& in = requiredInput(node, 0, "input");
  const Tensor& filter = requiredInput(node, 1, "filter");
  if (node.outputs.empty() || !node.output(0)) throw ModelError("missing output");
  const Tensor& out = *node.output(0);
  expectRank(filter, 4, "filter");
  const ConvOptions o = convOptions(node);
  const WindowGeometry w = convWindow(in, out, filter, o);
  ConvLayer layer;
  timing::ConvGeometry& g = layer.geometry;
  g.batches = static_cast<uint32_t>(w.batches);
  g.in_h = static_cast<uint32_t>(w.in_h);
  g.in_w = static_cast<uint32_t>(w.in_w);
  g.in_c = static_cast<uint32_t>(w.in_c);
  g.filter_h = static_cast<uint32_t>(w.filter_h);
  g.filter_w = static_cast<uint32_t>(w.filter_w);
  g.stride_h = static_cast<uint32_t>(w.stride_h);
  g.stride_w = static_cast<uint32_t>(w.stride_w);
  g.dilation_h = static_cast<uint32_t>(w.dilation_h);
  g.dilation_w = static_cast<uint32_t>(w.dilation_w);
  g.pad_h = static_cast<uint32_t>(w.pad_h);
  g.pad_w = static_cast<uint32_t>(w.pad_w);
  g.out_h = static_cast<uint32_t>(w.out_h);
  g.out_w = static_cast<uint32_t>(w.out_w);
  g.out_c = static_cast<uint32_t>(w.out_c);
  g.depthwise = depthwise;
  g.depth_multiplier =
      depthwise ? static_cast<uint32_t>(o.depth_multiplier > 0 ? o.depth_multiplier : 1) : 1;
  if (!depthwise && filter.dim(3) > 0) layer.groups = w.in_c / filter.dim(3);
  ConvShape& s = layer.shape;
  s.input = in.shape;
  s.filter = filter.shape;
  s.output = out.shape;
  s.stride_h = o.stride_h;
  s.stride_w = o.stride_w;
  s.dilation_h = o.dilation_h;
  s.dilation_w = o.dilation_w;
  s.padding = o.padding == tflite::Padding::SAME ? "SAME" : "VALID";
  s.pad_top = w.pad_h;
  s.pad_left = w.pad_w;
  s.depth_multiplier = depthwise ? o.depth_multiplier : 0;
  const uint64_t depth = depthwise ? 1 : static_cast<uint64_t>(std::max(filter.dim(3), 0));
  const uint64_t k = uint64_t{g.filter_h} * g.filter_w * depth;
  s.gemm = {static_cast<uint32_t>(g.pixels()), static_cast<uint32_t>(k), g.out_c};
  return layer;
}

}  // namespace hilsim::rt
