// Reference CONV_2D kernel, int8 with per-channel int8 filters and int32 bias, with TensorFlow
// Lite Micro's arithmetic (conv_common.cc, reference/integer_ops/conv.h): per output
// acc = sum over the taps inside the input of w * (x - input_zp), + bias, requantized per
// channel, + output_zp, clamped. Taps in the padding contribute nothing.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "hilsim/rt/kernels/conv_common.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

struct ConvParams {
  WindowGeometry geo;
  ConvQuantParams quant;
  int32_t filter_in_c = 0;        // input channels seen by one filter (in_c / groups)
  int32_t filters_per_group = 0;  // output channels per group
  const Tensor* input = nullptr;
  const Tensor* filter = nullptr;  // [out_c, filter_h, filter_w, filter_in_c]
  Tensor* output = nullptr;
};

// sum_i w[i] * (x[i] + offset) over n contiguous elements.
// Wraps modulo 2^32 like TFLite Micro's int32 accumulator.
inline uint32_t offsetDot(const int8_t* w, const int8_t* x, int32_t offset, int32_t n) {
  uint32_t acc = 0;
  for (int32_t i = 0; i < n; ++i)
    acc += static_cast<uint32_t>(int32_t{w[i]} * (int32_t{x[i]} + offset));
  return acc;
}

void convInt8(const ConvParams& p) {
  const WindowGeometry& g = p.geo;
  const int8_t* input = p.input->as<int8_t>();
  const int8_t* filter = p.filter->as<int8_t>();
  int8_t* output = p.output->as<int8_t>();
  const int32_t offset = p.quant.input_offset;
  const size_t filter_size = size_t(g.filter_h) * size_t(g.filter_w) * size_t(p.filter_in_c);
  // With one group and no horizontal dilation a filter row reads one contiguous input run.
  const bool rows_contiguous = p.filter_in_c == g.in_c && g.dilation_w == 1;

  for (int32_t b = 0; b < g.batches; ++b) {
    const int8_t* image = input + size_t(b) * size_t(g.in_h) * size_t(g.in_w) * size_t(g.in_c);
    for (int32_t out_y = 0; out_y < g.out_h; ++out_y) {
      const int32_t y0 = out_y * g.stride_h - g.pad_h;
      for (int32_t out_x = 0; out_x < g.out_w; ++out_x) {
        const int32_t x0 = out_x * g.stride_w - g.pad_w;
        const bool inside = g.windowInside(out_y, out_x);
        for (int32_t oc = 0; oc < g.out_c; ++oc) {
          const int32_t channel_base = (oc / p.filters_per_group) * p.filter_in_c;
          const int8_t* w = filter + size_t(oc) * filter_size;
          uint32_t sum = 0;
          for (int32_t fy = 0; fy < g.filter_h; ++fy) {
            const int32_t in_y = y0 + fy * g.dilation_h;
            if (!inside && (in_y < 0 || in_y >= g.in_h)) continue;
            const int8_t* in_row = image + size_t(in_y) * size_t(g.in_w) * size_t(g.in_c);
            const int8_t* w_row = w + size_t(fy) * size_t(g.filter_w) * size_t(p.filter_in_c);
            if (inside && rows_contiguous) {
              sum += offsetDot(w_row, in_row + size_t(x0) * size_t(g.in_c), offset,
                               g.filter_w * g.in_c);
              continue;
            }
            for (int32_t fx = 0; fx < g.filter_w; ++fx) {
              const int32_t in_x = x0 + fx * g.dilation_w;
              if (!inside && (in_x < 0 || in_x >= g.in_w)) continue;
              sum += offsetDot(w_row + size_t(fx) * size_t(p.filter_in_c),
                               in_row + size_t(in_x) * size_t(g.in_c) + size_t(channel_base),
                               offset, p.filter_in_c);
            }
          }
          *output++ = p.quant.output(wrapAdd(static_cast<int32_t>(sum), p.quant.bias[size_t(oc)]),
                                     size_t(oc));
        }
      }
    }
  }
}

class Conv2DRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 2, 3);
    const Tensor& in = requiredInput(node, 0, "input");
    const Tensor& filter = requiredInput(node, 1, "filter");
    const Tensor* bias = node.input(2);
    Tensor& out = *node.output(0);
    const auto* options = node.op_fb->builtin_options_as_Conv2DOptions();
    if (!options) throw ModelError("missing Conv2DOptions");
    expectRank(filter, 4, "filter");

    p_ = {};
    p_.geo = computeWindowGeometry(in, out, filter.dim(1), filter.dim(2), options->padding(),
                                   options->stride_h(), options->stride_w(),
                                   options->dilation_h_factor(), options->dilation_w_factor());
    const WindowGeometry& g = p_.geo;
    if (filter.dim(0) != g.out_c)
      throw ModelError("filter " + describe(filter) + " does not have the " +
                       std::to_string(g.out_c) + " output channels of output " + describe(out));
    p_.filter_in_c = filter.dim(3);
    if (p_.filter_in_c <= 0 || g.in_c % p_.filter_in_c != 0)
      throw ModelError("filter " + describe(filter) + " depth does not divide the " +
                       std::to_string(g.in_c) + " input channels");
    const int32_t groups = g.in_c / p_.filter_in_c;
    if (g.out_c % groups != 0)
      throw ModelError(std::to_string(g.out_c) + " output channels do not split into " +
                       std::to_string(groups) + " groups");
    p_.filters_per_group = g.out_c / groups;
    if (in.type == TensorType::FLOAT32)
      throw ModelError("float32 CONV_2D is not supported (hilsim supports int8)");
    p_.quant =
        prepareConvQuant(in, filter, bias, out, options->fused_activation_function(), g.out_c, 0);
    p_.input = &in;
    p_.filter = &filter;
    p_.output = &out;

    OpWork work;
    work.outputs = g.outputs();
    work.macs =
        work.outputs * uint64_t(g.filter_h) * uint64_t(g.filter_w) * uint64_t(p_.filter_in_c);
    work.pointwise = g.filter_h == 1 && g.filter_w == 1;
    return work;
  }

  void invoke(InvokeContext&, Node&) override { convInt8(p_); }

 private:
  ConvParams p_;
};

}  // namespace

std::unique_ptr<Kernel> makeConv2DRef() {
  return std::make_unique<Conv2DRef>();
}

}  // namespace hilsim::rt
