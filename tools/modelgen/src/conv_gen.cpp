#include "hilsim/modelgen/conv_gen.h"

#include <cmath>
#include <cstring>
#include <memory>

#include "hilsim/base/rng.h"
#include "hilsim/errors.h"
#include "hilsim/schema/tflite_generated.h"

namespace hilsim::modelgen {
namespace {

template <typename T>
std::vector<uint8_t> asBytes(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

int32_t outSize(const ConvSpec& s, uint32_t in, uint32_t filter) {
  return static_cast<int32_t>(s.same_padding ? (in + s.stride - 1) / s.stride
                                             : (in >= filter ? (in - filter) / s.stride + 1 : 0));
}

// Adds a tensor with its own buffer; returns its index.
int32_t addTensor(tflite::ModelT& m, const std::string& name, tflite::TensorType type,
                  std::vector<int32_t> shape, std::vector<uint8_t> data, std::vector<float> scales,
                  int32_t quantized_dimension = 0, int64_t zero_point = 0) {
  auto buffer = std::make_unique<tflite::BufferT>();
  buffer->data = std::move(data);
  m.buffers.push_back(std::move(buffer));
  auto t = std::make_unique<tflite::TensorT>();
  t->name = name;
  t->type = type;
  t->shape = std::move(shape);
  t->buffer = static_cast<uint32_t>(m.buffers.size() - 1);
  t->quantization = std::make_unique<tflite::QuantizationParametersT>();
  t->quantization->zero_point.assign(scales.size(), zero_point);
  t->quantization->scale = std::move(scales);
  t->quantization->quantized_dimension = quantized_dimension;
  tflite::SubGraphT& sg = *m.subgraphs[0];
  sg.tensors.push_back(std::move(t));
  return static_cast<int32_t>(sg.tensors.size() - 1);
}

}  // namespace

std::string describe(const ConvSpec& s) {
  return std::string(s.depthwise ? "depthwise conv " : "conv ") + std::to_string(s.batch) + "x" +
         std::to_string(s.in_h) + "x" + std::to_string(s.in_w) + "x" + std::to_string(s.in_c) +
         " " + std::to_string(s.filter_h) + "x" + std::to_string(s.filter_w) + " stride " +
         std::to_string(s.stride) + (s.same_padding ? " SAME" : " VALID") + " -> " +
         std::to_string(s.out_c) + " seed " + std::to_string(s.seed);
}

std::vector<uint8_t> generateConv(const ConvSpec& s) {
  const int32_t out_h = outSize(s, s.in_h, s.filter_h), out_w = outSize(s, s.in_w, s.filter_w);
  if (!s.batch || !s.in_h || !s.in_w || !s.in_c || !s.out_c || !s.filter_h || !s.filter_w ||
      !s.stride || out_h <= 0 || out_w <= 0 || (s.depthwise && s.out_c % s.in_c != 0))
    throw UsageError("gen-model: no convolution " + describe(s));
  Rng rng(s.seed);
  tflite::ModelT m;
  m.version = 3;
  m.description = "hilsim gen-model: " + describe(s);
  const tflite::BuiltinOperator op_code =
      s.depthwise ? tflite::BuiltinOperator::DEPTHWISE_CONV_2D : tflite::BuiltinOperator::CONV_2D;
  auto code = std::make_unique<tflite::OperatorCodeT>();
  code->deprecated_builtin_code = static_cast<int8_t>(op_code);
  code->builtin_code = op_code;
  code->version = 3;
  m.operator_codes.push_back(std::move(code));
  m.subgraphs.push_back(std::make_unique<tflite::SubGraphT>());
  m.buffers.push_back(std::make_unique<tflite::BufferT>());  // the empty sentinel
  m.subgraphs[0]->name = "main";

  const uint32_t depth = s.depthwise ? 1 : s.in_c;
  const uint64_t taps = uint64_t{s.filter_h} * s.filter_w * depth;
  const float in_scale = 0.0625f;
  const int64_t in_zp = rng.range(-8, 8);
  const int32_t b = static_cast<int32_t>(s.batch);
  const int32_t x = addTensor(
      m, "input", tflite::TensorType::INT8,
      {b, static_cast<int32_t>(s.in_h), static_cast<int32_t>(s.in_w), static_cast<int32_t>(s.in_c)},
      {}, {in_scale}, 0, in_zp);
  std::vector<int8_t> wv(static_cast<size_t>(taps * s.out_c));
  for (int8_t& v : wv) v = static_cast<int8_t>(rng.range(-127, 127));
  const double base_w = 1.0 / (127.0 * std::sqrt(static_cast<double>(taps)));
  std::vector<float> w_scales(s.out_c);
  for (float& v : w_scales) v = static_cast<float>(base_w * (0.5 + 1.5 * rng.unit()));
  std::vector<int32_t> shape =
      s.depthwise
          ? std::vector<int32_t>{1, static_cast<int32_t>(s.filter_h),
                                 static_cast<int32_t>(s.filter_w), static_cast<int32_t>(s.out_c)}
          : std::vector<int32_t>{static_cast<int32_t>(s.out_c), static_cast<int32_t>(s.filter_h),
                                 static_cast<int32_t>(s.filter_w), static_cast<int32_t>(s.in_c)};
  const int32_t w = addTensor(m, "weights", tflite::TensorType::INT8, shape, asBytes(wv), w_scales,
                              s.depthwise ? 3 : 0);
  std::vector<int32_t> bv(s.out_c);
  for (int32_t& v : bv) v = static_cast<int32_t>(rng.range(-4096, 4096));
  std::vector<float> b_scales;
  for (float v : w_scales) b_scales.push_back(in_scale * v);
  const int32_t bias = addTensor(m, "bias", tflite::TensorType::INT32,
                                 {static_cast<int32_t>(s.out_c)}, asBytes(bv), b_scales);
  const double acc_std = 73.0 * 73.0 * std::sqrt(static_cast<double>(taps));
  const float out_scale = static_cast<float>(3.0 * acc_std * in_scale * base_w / 127.0);
  const int32_t y = addTensor(m, "output", tflite::TensorType::INT8,
                              {b, out_h, out_w, static_cast<int32_t>(s.out_c)}, {}, {out_scale}, 0,
                              rng.range(-8, 8));
  auto op = std::make_unique<tflite::OperatorT>();
  op->opcode_index = 0;
  op->inputs = {x, w, bias};
  op->outputs = {y};
  const tflite::Padding padding = s.same_padding ? tflite::Padding::SAME : tflite::Padding::VALID;
  const int32_t stride = static_cast<int32_t>(s.stride);
  if (s.depthwise) {
    tflite::DepthwiseConv2DOptionsT o;
    o.padding = padding;
    o.stride_h = o.stride_w = stride;
    o.depth_multiplier = static_cast<int32_t>(s.out_c / s.in_c);
    op->builtin_options.Set(o);
  } else {
    tflite::Conv2DOptionsT o;
    o.padding = padding;
    o.stride_h = o.stride_w = stride;
    op->builtin_options.Set(o);
  }
  m.subgraphs[0]->operators.push_back(std::move(op));
  m.subgraphs[0]->inputs = {x};
  m.subgraphs[0]->outputs = {y};
  flatbuffers::FlatBufferBuilder fbb(1024 + wv.size());
  tflite::FinishModelBuffer(fbb, tflite::Model::Pack(fbb, &m));
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

}  // namespace hilsim::modelgen
