// Reference DEPTHWISE_CONV_2D kernel, int8 with per-channel int8 filters and int32 bias, with
// TensorFlow Lite Micro's arithmetic (depthwise_conv_common.cc,
// reference/integer_ops/depthwise_conv.h): output channel c = ic * depth_multiplier + m sums
// w[fy][fx][c] * (x[ic] - input_zp) over the taps inside the input, adds bias[c], requantizes
// per channel, adds the output zero point and clamps.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "hilsim/rt/kernels/conv_common.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

struct DepthwiseParams {
  WindowGeometry geo;
  ConvQuantParams quant;
  int32_t depth_multiplier = 1;
  const Tensor* input = nullptr;
  const Tensor* filter = nullptr;  // [1, filter_h, filter_w, out_c]
  Tensor* output = nullptr;
};

// Adds one tap's contribution to the accumulators of every output channel.
// The accumulators wrap modulo 2^32 like TFLite Micro's int32 ones.
inline void accumulateTap(const int8_t* w, const int8_t* x, int32_t offset, int32_t in_c,
                          int32_t depth_multiplier, uint32_t* acc) {
  if (depth_multiplier == 1) {
    for (int32_t c = 0; c < in_c; ++c)
      acc[c] += static_cast<uint32_t>(int32_t{w[c]} * (int32_t{x[c]} + offset));
    return;
  }
  for (int32_t ic = 0; ic < in_c; ++ic) {
    const int32_t value = int32_t{x[ic]} + offset;
    const int8_t* w_ic = w + size_t(ic) * size_t(depth_multiplier);
    uint32_t* acc_ic = acc + size_t(ic) * size_t(depth_multiplier);
    for (int32_t m = 0; m < depth_multiplier; ++m)
      acc_ic[m] += static_cast<uint32_t>(int32_t{w_ic[m]} * value);
  }
}

// `acc` holds out_c accumulators (scratch owned by the kernel).
void depthwiseConvInt8(const DepthwiseParams& p, uint32_t* acc) {
  const WindowGeometry& g = p.geo;
  const int8_t* input = p.input->as<int8_t>();
  const int8_t* filter = p.filter->as<int8_t>();
  int8_t* output = p.output->as<int8_t>();
  const size_t out_c = size_t(g.out_c);

  for (int32_t b = 0; b < g.batches; ++b) {
    const int8_t* image = input + size_t(b) * size_t(g.in_h) * size_t(g.in_w) * size_t(g.in_c);
    for (int32_t out_y = 0; out_y < g.out_h; ++out_y) {
      const int32_t y0 = out_y * g.stride_h - g.pad_h;
      for (int32_t out_x = 0; out_x < g.out_w; ++out_x) {
        const int32_t x0 = out_x * g.stride_w - g.pad_w;
        for (size_t c = 0; c < out_c; ++c) acc[c] = static_cast<uint32_t>(p.quant.bias[c]);
        for (int32_t fy = 0; fy < g.filter_h; ++fy) {
          const int32_t in_y = y0 + fy * g.dilation_h;
          if (in_y < 0 || in_y >= g.in_h) continue;
          for (int32_t fx = 0; fx < g.filter_w; ++fx) {
            const int32_t in_x = x0 + fx * g.dilation_w;
            if (in_x < 0 || in_x >= g.in_w) continue;
            accumulateTap(filter + (size_t(fy) * size_t(g.filter_w) + size_t(fx)) * out_c,
                          image + (size_t(in_y) * size_t(g.in_w) + size_t(in_x)) * size_t(g.in_c),
                          p.quant.input_offset, g.in_c, p.depth_multiplier, acc);
          }
        }
        for (size_t c = 0; c < out_c; ++c)
          *output++ = p.quant.output(static_cast<int32_t>(acc[c]), c);
      }
    }
  }
}

class DepthwiseConv2DRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 2, 3);
    const Tensor& in = requiredInput(node, 0, "input");
    const Tensor& filter = requiredInput(node, 1, "filter");
    const Tensor* bias = node.input(2);
    Tensor& out = *node.output(0);
    const auto* options = node.op_fb->builtin_options_as_DepthwiseConv2DOptions();
    if (!options) throw ModelError("missing DepthwiseConv2DOptions");
    expectRank(filter, 4, "filter");
    if (filter.dim(0) != 1)
      throw ModelError("filter must be [1, h, w, channels], is " + describe(filter));

    p_ = {};
    p_.geo = computeWindowGeometry(in, out, filter.dim(1), filter.dim(2), options->padding(),
                                   options->stride_h(), options->stride_w(),
                                   options->dilation_h_factor(), options->dilation_w_factor());
    const WindowGeometry& g = p_.geo;
    p_.depth_multiplier = options->depth_multiplier();
    if (p_.depth_multiplier <= 0 || int64_t{g.in_c} * p_.depth_multiplier != g.out_c)
      throw ModelError("output channels " + std::to_string(g.out_c) + " must be input channels " +
                       std::to_string(g.in_c) + " x depth multiplier " +
                       std::to_string(p_.depth_multiplier));
    if (filter.dim(3) != g.out_c)
      throw ModelError("filter " + describe(filter) + " does not have the " +
                       std::to_string(g.out_c) + " output channels of output " + describe(out));
    if (in.type == TensorType::FLOAT32)
      throw ModelError("float32 DEPTHWISE_CONV_2D is not supported (hilsim supports int8)");
    p_.quant =
        prepareConvQuant(in, filter, bias, out, options->fused_activation_function(), g.out_c, 3);
    p_.input = &in;
    p_.filter = &filter;
    p_.output = &out;
    acc_.assign(size_t(g.out_c), 0);

    OpWork work;
    work.outputs = g.outputs();
    work.macs = work.outputs * uint64_t(g.filter_h) * uint64_t(g.filter_w);
    return work;
  }

  void invoke(InvokeContext&, Node&) override { depthwiseConvInt8(p_, acc_.data()); }

 private:
  DepthwiseParams p_;
  std::vector<uint32_t> acc_;
};

}  // namespace

std::unique_ptr<Kernel> makeDepthwiseConv2DRef() {
  return std::make_unique<DepthwiseConv2DRef>();
}

}  // namespace hilsim::rt
