#include "conv_model.h"

#include <cmath>
#include <random>

#include "op_model.h"

namespace hilsim::test {
namespace {

int32_t outSize(tflite::Padding padding, int32_t in, int32_t filter, int32_t stride,
                int32_t dilation) {
  const int32_t effective = (filter - 1) * dilation + 1;
  return padding == tflite::Padding::SAME ? (in + stride - 1) / stride
                                          : (in + stride - effective) / stride;
}

}  // namespace

int32_t ConvCase::outH() const {
  return outSize(padding, in_h, filter_h, stride_h, dilation_h);
}
int32_t ConvCase::outW() const {
  return outSize(padding, in_w, filter_w, stride_w, dilation_w);
}

std::vector<uint8_t> buildConvModel(const ConvCase& c) {
  std::mt19937_64 rng(c.seed);
  auto uniform = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  OpModel m;
  const float in_scale = 0.05f;
  const int32_t filter_depth = c.depthwise ? 1 : c.in_c / c.groups;
  const int32_t taps = c.filter_h * c.filter_w * filter_depth;
  // The output scale keeps typical sums inside int8 so the outputs are not all saturated.
  const float out_scale = in_scale * 0.02f * std::sqrt(static_cast<float>(taps)) * 8.0f;
  const int32_t in = m.addTensor(qtensor(
      tflite::TensorType::INT8, {c.batches, c.in_h, c.in_w, c.in_c}, in_scale, c.input_zero_point));
  std::vector<int32_t> filter_shape =
      c.depthwise ? std::vector<int32_t>{1, c.filter_h, c.filter_w, c.out_c}
                  : std::vector<int32_t>{c.out_c, c.filter_h, c.filter_w, filter_depth};
  std::vector<int8_t> weights(size_t(c.out_c) * c.filter_h * c.filter_w * filter_depth);
  for (int8_t& w : weights) w = static_cast<int8_t>(uniform(-127, 127));
  TensorSpec filter = withData(tensor(tflite::TensorType::INT8, filter_shape), bytesOf(weights));
  std::vector<float> w_scales;
  for (int32_t oc = 0; oc < (c.per_channel ? c.out_c : 1); ++oc)
    w_scales.push_back(0.02f * (0.5f + 0.01f * static_cast<float>(uniform(0, 100))));
  filter.scales = w_scales;
  filter.zero_points.assign(w_scales.size(), 0);
  filter.quantized_dimension = c.depthwise ? 3 : 0;
  const int32_t filter_index = m.addTensor(filter);
  int32_t bias_index = -1;
  if (c.bias) {
    std::vector<int32_t> bias(size_t(c.out_c));
    for (int32_t& b : bias) b = uniform(-2000, 2000);
    TensorSpec b = withData(tensor(tflite::TensorType::INT32, {c.out_c}), bytesOf(bias));
    for (float s : w_scales) b.scales.push_back(in_scale * s);
    b.zero_points.assign(b.scales.size(), 0);
    bias_index = m.addTensor(b);
  }
  const int32_t out =
      m.addTensor(qtensor(tflite::TensorType::INT8, {c.batches, c.outH(), c.outW(), c.out_c},
                          out_scale, c.output_zero_point));
  tflite::BuiltinOptionsUnion options;
  if (c.depthwise) {
    tflite::DepthwiseConv2DOptionsT o;
    o.padding = c.padding;
    o.stride_h = c.stride_h;
    o.stride_w = c.stride_w;
    o.dilation_h_factor = c.dilation_h;
    o.dilation_w_factor = c.dilation_w;
    o.depth_multiplier = c.depthMultiplier();
    o.fused_activation_function = c.activation;
    options.Set(o);
  } else {
    tflite::Conv2DOptionsT o;
    o.padding = c.padding;
    o.stride_h = c.stride_h;
    o.stride_w = c.stride_w;
    o.dilation_h_factor = c.dilation_h;
    o.dilation_w_factor = c.dilation_w;
    o.fused_activation_function = c.activation;
    options.Set(o);
  }
  std::vector<int32_t> inputs = {in, filter_index};
  if (c.bias) inputs.push_back(bias_index);
  m.addOp(
      c.depthwise ? tflite::BuiltinOperator::DEPTHWISE_CONV_2D : tflite::BuiltinOperator::CONV_2D,
      inputs, {out}, options);
  m.setInputs({in});
  m.setOutputs({out});
  return m.finish();
}

std::vector<uint8_t> convInput(const ConvCase& c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> bytes(c.inputBytes());
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
  return bytes;
}

}  // namespace hilsim::test
