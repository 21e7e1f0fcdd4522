// Reference AVERAGE_POOL_2D kernel, int8, with TensorFlow Lite Micro's arithmetic
// (pooling_common.cc, reference/integer_ops/pooling.h): the average of the raw int8 values of
// the taps inside the input (input and output share their quantization), rounded half away
// from zero, clamped to the fused activation range.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "hilsim/rt/kernels/conv_common.h"
#include "hilsim/rt/kernels/pooling.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

struct AveragePoolParams {
  WindowGeometry geo;  // filter = pooling window, out_c = in_c
  int32_t act_min = -128;
  int32_t act_max = 127;
  const Tensor* input = nullptr;
  Tensor* output = nullptr;
};

// `acc` holds one accumulator per channel (scratch owned by the kernel).
void averagePoolInt8(const AveragePoolParams& p, int32_t* acc) {
  const WindowGeometry& g = p.geo;
  const int8_t* input = p.input->as<int8_t>();
  int8_t* output = p.output->as<int8_t>();
  const size_t channels = size_t(g.in_c);
  for (int32_t b = 0; b < g.batches; ++b) {
    const int8_t* image = input + size_t(b) * size_t(g.in_h) * size_t(g.in_w) * channels;
    for (int32_t out_y = 0; out_y < g.out_h; ++out_y) {
      const int32_t y0 = out_y * g.stride_h - g.pad_h;
      const int32_t fy_begin = std::max(0, -y0);
      const int32_t fy_end = std::min(g.filter_h, g.in_h - y0);
      for (int32_t out_x = 0; out_x < g.out_w; ++out_x) {
        const int32_t x0 = out_x * g.stride_w - g.pad_w;
        const int32_t fx_begin = std::max(0, -x0);
        const int32_t fx_end = std::min(g.filter_w, g.in_w - x0);
        const int32_t count = std::max(0, fy_end - fy_begin) * std::max(0, fx_end - fx_begin);
        if (count == 0)
          throw ModelError("pooling window at output (" + std::to_string(out_y) + ", " +
                           std::to_string(out_x) + ") covers no input");
        std::fill(acc, acc + channels, 0);
        for (int32_t fy = fy_begin; fy < fy_end; ++fy) {
          for (int32_t fx = fx_begin; fx < fx_end; ++fx) {
            const int8_t* x =
                image + (size_t(y0 + fy) * size_t(g.in_w) + size_t(x0 + fx)) * channels;
            for (size_t c = 0; c < channels; ++c) acc[c] += x[c];
          }
        }
        for (size_t c = 0; c < channels; ++c) {
          const int32_t average = roundedAverage(acc[c], count);
          *output++ = static_cast<int8_t>(std::clamp(average, p.act_min, p.act_max));
        }
      }
    }
  }
}

class AveragePool2DRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 1, 1);
    const Tensor& in = requiredInput(node, 0, "input");
    Tensor& out = *node.output(0);
    const auto* options = node.op_fb->builtin_options_as_Pool2DOptions();
    if (!options) throw ModelError("missing Pool2DOptions");

    p_ = {};
    p_.geo =
        computeWindowGeometry(in, out, options->filter_height(), options->filter_width(),
                              options->padding(), options->stride_h(), options->stride_w(), 1, 1);
    const WindowGeometry& g = p_.geo;
    if (g.out_c != g.in_c)
      throw ModelError("output " + describe(out) + " does not have the channels of input " +
                       describe(in));
    if (in.type != TensorType::INT8 || out.type != TensorType::INT8)
      throw ModelError("unsupported types: input " + describe(in) + ", output " + describe(out) +
                       " (hilsim supports int8)");
    expectQuantized(in, "input");
    expectQuantized(out, "output");
    // TFLite Micro requires input and output to share their quantization.
    const double scale_diff =
        std::abs(static_cast<double>(in.quant.scale0()) - static_cast<double>(out.quant.scale0()));
    if (scale_diff > 1.0e-6 || in.quant.zero_point0() != out.quant.zero_point0())
      throw ModelError("input and output quantization differ (scales " +
                       std::to_string(in.quant.scale0()) + " and " +
                       std::to_string(out.quant.scale0()) + ", zero points " +
                       std::to_string(in.quant.zero_point0()) + " and " +
                       std::to_string(out.quant.zero_point0()) + ")");
    int8ActivationRange(options->fused_activation_function(), out.quant.scale0(),
                        out.quant.zero_point0(), &p_.act_min, &p_.act_max);
    p_.input = &in;
    p_.output = &out;
    acc_.assign(size_t(g.in_c), 0);

    OpWork work;
    work.outputs = g.outputs();
    work.window_elements = work.outputs * uint64_t(g.filter_h) * uint64_t(g.filter_w);
    return work;
  }

  void invoke(InvokeContext&, Node&) override { averagePoolInt8(p_, acc_.data()); }

 private:
  AveragePoolParams p_;
  std::vector<int32_t> acc_;
};

}  // namespace

std::unique_ptr<Kernel> makeAveragePool2DRef() {
  return std::make_unique<AveragePool2DRef>();
}

}  // namespace hilsim::rt
