#pragma once
// Prepare-time helpers shared by the windowed int8 kernels (CONV_2D, DEPTHWISE_CONV_2D,
// AVERAGE_POOL_2D): NHWC geometry with TensorFlow Lite's padding, a convolution's options, and
// the per-channel requantization of PopulateConvolutionQuantizationParams
// (tensorflow/lite/kernels/kernel_util.cc).

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "hilsim/kernels/conv_quant.h"
#include "hilsim/kernels/conv_window.h"
#include "hilsim/rt/kernels/fully_connected_common.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/padding.h"
#include "hilsim/rt/quant.h"

namespace hilsim::rt {

// Sizes of an NHWC window operation; all positive after computeWindowGeometry.
using kernels::WindowGeometry;

// Validates a 4-D NHWC input and output against a filter_h x filter_w window and fills the
// geometry (output channels are the output's last dimension). Throws ModelError.
inline WindowGeometry computeWindowGeometry(const Tensor& in, const Tensor& out, int32_t filter_h,
                                            int32_t filter_w, tflite::Padding padding,
                                            int32_t stride_h, int32_t stride_w, int32_t dilation_h,
                                            int32_t dilation_w) {
  expectRank(in, 4, "input");
  expectRank(out, 4, "output");
  if (stride_h <= 0 || stride_w <= 0 || dilation_h <= 0 || dilation_w <= 0)
    throw ModelError("strides (" + std::to_string(stride_h) + "," + std::to_string(stride_w) +
                     ") and dilations (" + std::to_string(dilation_h) + "," +
                     std::to_string(dilation_w) + ") must be positive");
  if (filter_h <= 0 || filter_w <= 0)
    throw ModelError("window " + std::to_string(filter_h) + "x" + std::to_string(filter_w) +
                     " is empty");
  if (padding != tflite::Padding::SAME && padding != tflite::Padding::VALID)
    throw ModelError("unsupported padding " + std::to_string(static_cast<int>(padding)));
  WindowGeometry g;
  g.batches = in.dim(0);
  g.in_h = in.dim(1);
  g.in_w = in.dim(2);
  g.in_c = in.dim(3);
  g.filter_h = filter_h;
  g.filter_w = filter_w;
  g.stride_h = stride_h;
  g.stride_w = stride_w;
  g.dilation_h = dilation_h;
  g.dilation_w = dilation_w;
  const WindowDim rows = computeWindowDim(padding, g.in_h, filter_h, stride_h, dilation_h);
  const WindowDim cols = computeWindowDim(padding, g.in_w, filter_w, stride_w, dilation_w);
  if (rows.out_size <= 0 || cols.out_size <= 0)
    throw ModelError("window " + std::to_string(filter_h) + "x" + std::to_string(filter_w) +
                     " does not fit input " + describe(in) + " with VALID padding");
  // The kernels index the input with int32 arithmetic: out * stride - pad + tap * dilation.
  const auto fitsInt32 = [](int64_t out, int32_t stride, int32_t filter, int32_t dilation) {
    return out * stride + dilatedFilterSize(filter, dilation) <=
           std::numeric_limits<int32_t>::max();
  };
  if (!fitsInt32(rows.out_size, stride_h, filter_h, dilation_h) ||
      !fitsInt32(cols.out_size, stride_w, filter_w, dilation_w))
    throw ModelError("strides (" + std::to_string(stride_h) + "," + std::to_string(stride_w) +
                     ") and dilations (" + std::to_string(dilation_h) + "," +
                     std::to_string(dilation_w) + ") are too large for input " + describe(in));
  g.out_h = rows.out_size;
  g.out_w = cols.out_size;
  g.pad_h = rows.pad_before;
  g.pad_w = cols.pad_before;
  g.out_c = out.dim(3);
  if (out.dim(0) != g.batches || out.dim(1) != g.out_h || out.dim(2) != g.out_w)
    throw ModelError("output " + describe(out) + " does not match the " + std::to_string(g.out_h) +
                     "x" + std::to_string(g.out_w) + " output the window gives on input " +
                     describe(in));
  if (g.batches <= 0 || g.in_c <= 0 || g.out_c <= 0)
    throw ModelError("input " + describe(in) + " or output " + describe(out) + " is empty");
  return g;
}

// The window options of a CONV_2D or DEPTHWISE_CONV_2D node (its Conv2DOptions or
// DepthwiseConv2DOptions). Throws ModelError if they are missing.
struct ConvOptions {
  tflite::Padding padding = tflite::Padding::SAME;
  int32_t stride_h = 1, stride_w = 1;
  int32_t dilation_h = 1, dilation_w = 1;
  tflite::ActivationFunctionType activation = tflite::ActivationFunctionType::NONE;
  int32_t depth_multiplier = 0;  // DEPTHWISE_CONV_2D only
};

inline ConvOptions convOptions(const Node& node) {
  ConvOptions c;
  const auto read = [&c](const auto& o) {
    c.padding = o.padding();
    c.stride_h = o.stride_h();
    c.stride_w = o.stride_w();
    c.dilation_h = o.dilation_h_factor();
    c.dilation_w = o.dilation_w_factor();
    c.activation = o.fused_activation_function();
  };
  if (node.op == tflite::BuiltinOperator::DEPTHWISE_CONV_2D) {
    const auto* o = node.op_fb->builtin_options_as_DepthwiseConv2DOptions();
    if (!o) throw ModelError("missing DepthwiseConv2DOptions");
    read(*o);
    c.depth_multiplier = o->depth_multiplier();
  } else {
    const auto* o = node.op_fb->builtin_options_as_Conv2DOptions();
    if (!o) throw ModelError("missing Conv2DOptions");
    read(*o);
  }
  return c;
}

// computeWindowGeometry for a [*, filter_h, filter_w, *] filter with the node's options.
inline WindowGeometry convWindow(const Tensor& in, const Tensor& out, const Tensor& filter,
                                 const ConvOptions& o) {
  return computeWindowGeometry(in, out, filter.dim(1), filter.dim(2), o.padding, o.stride_h,
                               o.stride_w, o.dilation_h, o.dilation_w);
}

// Validates the int8 tensors of a convolution (input, int8 filter quantized along
// `channel_dim` or per tensor, optional int32 bias of `channels` elements, output), copies the
// bias (zeros without one) and computes the per-channel multipliers as TFLite does:
// double(in_scale) * double(w_scale[c]) / double(out_scale), for one scale as well as many. The
// three arrays are in persistent memory. Throws ModelError.
inline kernels::ChannelRequant prepareConvQuant(PrepareContext& ctx, const Tensor& in,
                                                const Tensor& filter, const Tensor* bias,
                                                const Tensor& out,
                                                tflite::ActivationFunctionType activation,
                                                int32_t channels, int32_t channel_dim) {
  if (in.type != TensorType::INT8 || filter.type != TensorType::INT8 ||
      out.type != TensorType::INT8)
    throw ModelError("unsupported types: input " + describe(in) + ", filter " + describe(filter) +
                     ", output " + describe(out) + " (hilsim supports int8 with int8 filters)");
  expectConstant(filter, "filter");
  if (bias) {
    if (bias->type != TensorType::INT32)
      throw ModelError("int8 layer needs an int32 bias, has " + describe(*bias));
    if (bias->elements() != channels)
      throw ModelError("bias " + describe(*bias) + " does not have " + std::to_string(channels) +
                       " elements");
    expectConstant(*bias, "bias");
  }
  expectQuantized(in, "input");
  expectQuantized(out, "output");
  if (filter.quant.empty()) throw ModelError("filter " + describe(filter) + " is not quantized");
  for (int64_t zp : filter.quant.zero_point)
    if (zp != 0) throw ModelError("filter zero point must be 0, is " + std::to_string(zp));
  const size_t num_scales = filter.quant.scale.size();
  if (num_scales > 1 && (num_scales != static_cast<size_t>(channels) ||
                         filter.quant.quantized_dimension != channel_dim))
    throw ModelError("per-channel filter needs " + std::to_string(channels) +
                     " scales along dimension " + std::to_string(channel_dim) + ", has " +
                     std::to_string(num_scales) + " along dimension " +
                     std::to_string(filter.quant.quantized_dimension));

  kernels::ChannelRequant q;
  q.input_offset = -in.quant.zero_point0();
  q.output_zero_point = out.quant.zero_point0();
  const double in_scale = in.quant.scale0();
  const double out_scale = out.quant.scale0();
  const auto count = static_cast<size_t>(channels);
  int32_t* bias_values = allocatePersistentArray<int32_t>(ctx, count);
  int32_t* multipliers = allocatePersistentArray<int32_t>(ctx, count);
  int32_t* shifts = allocatePersistentArray<int32_t>(ctx, count);
  if (bias) std::copy(bias->as<int32_t>(), bias->as<int32_t>() + channels, bias_values);
  for (size_t c = 0; c < count; ++c) {
    const double w_scale = filter.quant.scale[num_scales > 1 ? c : 0];
    const QuantizedMultiplier qm = quantizeMultiplier(in_scale * w_scale / out_scale);
    multipliers[c] = qm.multiplier;
    shifts[c] = qm.shift;
  }
  q.bias = bias_values;
  q.multipliers = multipliers;
  q.shifts = shifts;
  int8ActivationRange(activation, out.quant.scale0(), q.output_zero_point, &q.act_min, &q.act_max);
  return q;
}

}  // namespace hilsim::rt
