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
  tflite::Padding padding = tflite::Padding::SAME;
  int32_t stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1, multiplier = 0;
  if (depthwise) {
    const auto* o = node.op_fb->builtin_options_as_DepthwiseConv2DOptions();
    if (!o) throw ModelError("missing DepthwiseConv2DOptions");
    padding = o->padding();
    stride_h = o->stride_h();
    stride_w = o->stride_w();
    dilation_h = o->dilation_h_factor();
    dilation_w = o->dilation_w_factor();
    multiplier = o->depth_multiplier();
  } else {
    const auto* o = node.op_fb->builtin_options_as_Conv2DOptions();
    if (!o) throw ModelError("missing Conv2DOptions");
    padding = o->padding();
    stride_h = o->stride_h();
    stride_w = o->stride_w();
    dilation_h = o->dilation_h_factor();
    dilation_w = o->dilation_w_factor();
  }
  const WindowGeometry w = computeWindowGeometry(in, out, filter.dim(1), filter.dim(2), padding,
                                                 stride_h, stride_w, dilation_h, dilation_w);
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
  g.depth_multiplier = depthwise ? static_cast<uint32_t>(multiplier > 0 ? multiplier : 1) : 1;
  if (!depthwise && filter.dim(3) > 0) layer.groups = w.in_c / filter.dim(3);
  ConvShape& s = layer.shape;
  s.input = in.shape;
  s.filter = filter.shape;
  s.output = out.shape;
  s.stride_h = stride_h;
  s.stride_w = stride_w;
  s.dilation_h = dilation_h;
  s.dilation_w = dilation_w;
  s.padding = padding == tflite::Padding::SAME ? "SAME" : "VALID";
  s.pad_top = w.pad_h;
  s.pad_left = w.pad_w;
  s.depth_multiplier = depthwise ? multiplier : 0;
  const uint64_t depth = depthwise ? 1 : static_cast<uint64_t>(std::max(filter.dim(3), 0));
  const uint64_t k = uint64_t{g.filter_h} * g.filter_w * depth;
  s.gemm = {static_cast<uint32_t>(g.pixels()), static_cast<uint32_t>(k), g.out_c};
  return layer;
}

}  // namespace hilsim::rt
