#include "hilsim/modelgen/model_gen.h"

#include <algorithm>
#include <cmath>
#include <cstring>

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

class MlpBuilder {
 public:
  explicit MlpBuilder(tflite::ModelT& model) : model_(model) {
    model_.buffers.push_back(std::make_unique<tflite::BufferT>());  // the empty sentinel
  }

  // Adds a tensor with its own buffer (holding `data` if constant). Returns the tensor index.
  int32_t addTensor(const std::string& name, tflite::TensorType type, std::vector<int32_t> shape,
                    std::vector<uint8_t> data, std::vector<float> scales = {},
                    std::vector<int64_t> zero_points = {}) {
    auto buffer = std::make_unique<tflite::BufferT>();
    buffer->data = std::move(data);
    model_.buffers.push_back(std::move(buffer));
    auto t = std::make_unique<tflite::TensorT>();
    t->name = name;
    t->type = type;
    t->shape = std::move(shape);
    t->buffer = static_cast<uint32_t>(model_.buffers.size() - 1);
    if (!scales.empty()) {
      t->quantization = std::make_unique<tflite::QuantizationParametersT>();
      t->quantization->scale = std::move(scales);
      t->quantization->zero_point = std::move(zero_points);
    }
    sg().tensors.push_back(std::move(t));
    return static_cast<int32_t>(sg().tensors.size() - 1);
  }

  tflite::SubGraphT& sg() { return *model_.subgraphs[0]; }

 private:
  tflite::ModelT& model_;
};

tflite::ActivationFunctionType activationOf(const std::string& name) {
  if (name == "relu") return tflite::ActivationFunctionType::RELU;
  if (name == "relu6") return tflite::ActivationFunctionType::RELU6;
  return tflite::ActivationFunctionType::NONE;
}

}  // namespace

std::vector<uint32_t> parseLayerList(const std::string& option, const std::string& text) {
  std::vector<uint32_t> layers;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos ||
        item.size() > 9 || std::stoul(item) == 0)
      throw UsageError(option + ": '" + text + "' is not a list of positive sizes like 784,256,10");
    layers.push_back(static_cast<uint32_t>(std::stoul(item)));
    start = comma + 1;
  }
  if (layers.size() < 2)
    throw UsageError(option + ": '" + text + "' needs the input size and at least one layer");
  return layers;
}

std::string describe(const MlpSpec& spec) {
  std::string layers;
  for (uint32_t l : spec.layers) layers += (layers.empty() ? "" : "-") + std::to_string(l);
  std::string text =
      "mlp " + layers + (spec.batch > 1 ? " batch " + std::to_string(spec.batch) : "");
  text += spec.float32 ? " float32" : (spec.per_channel ? " int8 per-channel" : " int8 per-tensor");
  return text + " " + spec.activation + " seed " + std::to_string(spec.seed);
}

std::vector<uint8_t> generateMlp(const MlpSpec& spec) {
  if (spec.layers.size() < 2) throw UsageError("gen-model: needs at least one layer");
  if (spec.batch == 0) throw UsageError("gen-model: --batch must be positive");
  for (size_t i = 0; i + 1 < spec.layers.size(); ++i)
    if (uint64_t{spec.layers[i]} * spec.layers[i + 1] > (uint64_t{1} << 30))
      throw UsageError("gen-model: layer " + std::to_string(i) + " (" +
                       std::to_string(spec.layers[i]) + "x" + std::to_string(spec.layers[i + 1]) +
                       ") has more than 2^30 weights");
  Rng rng(spec.seed);
  tflite::ModelT model;
  model.version = 3;
  model.description = "hilsim gen-model: " + describe(spec);
  auto code = std::make_unique<tflite::OperatorCodeT>();
  code->deprecated_builtin_code = static_cast<int8_t>(tflite::BuiltinOperator::FULLY_CONNECTED);
  code->builtin_code = tflite::BuiltinOperator::FULLY_CONNECTED;
  code->version = spec.float32 ? 1 : (spec.per_channel ? 5 : 4);
  model.operator_codes.push_back(std::move(code));
  model.subgraphs.push_back(std::make_unique<tflite::SubGraphT>());
  MlpBuilder b(model);
  b.sg().name = "main";

  const auto act = activationOf(spec.activation);
  const int32_t batch = static_cast<int32_t>(spec.batch);
  const tflite::TensorType act_type =
      spec.float32 ? tflite::TensorType::FLOAT32 : tflite::TensorType::INT8;

  // Input activation: scale 1/16 with a small non-zero zero point exercises the zp arithmetic.
  float in_scale = 0.0625f;
  int64_t in_zp = spec.float32 ? 0 : rng.range(-8, 8);
  int32_t x =
      spec.float32
          ? b.addTensor("input", act_type, {batch, static_cast<int32_t>(spec.layers[0])}, {})
          : b.addTensor("input", act_type, {batch, static_cast<int32_t>(spec.layers[0])}, {},
                        {in_scale}, {in_zp});
  b.sg().inputs.push_back(x);

  for (size_t l = 0; l + 1 < spec.layers.size(); ++l) {
    const int32_t k = static_cast<int32_t>(spec.layers[l]);
    const int32_t n = static_cast<int32_t>(spec.layers[l + 1]);
    const std::string prefix = "fc" + std::to_string(l);
    const bool last = l + 2 == spec.layers.size();
    const std::string out_name = last ? std::string("output") : prefix + "/out";
    const size_t weights_count = static_cast<size_t>(k) * static_cast<size_t>(n);
    int32_t w, bias, y;
    if (spec.float32) {
      const double bound = 1.0 / std::sqrt(static_cast<double>(k));
      std::vector<float> wv(weights_count), bv(static_cast<size_t>(n));
      for (float& v : wv) v = static_cast<float>((2.0 * rng.unit() - 1.0) * bound);
      for (float& v : bv) v = static_cast<float>((2.0 * rng.unit() - 1.0) * 0.1);
      w = b.addTensor(prefix + "/weights", act_type, {n, k}, asBytes(wv));
      bias = b.addTensor(prefix + "/bias", act_type, {n}, asBytes(bv));
      y = b.addTensor(out_name, act_type, {batch, n}, {});
    } else {
      std::vector<int8_t> wv(weights_count);
      for (int8_t& v : wv) v = static_cast<int8_t>(rng.range(-127, 127));
      // Weight scales: one, or one per output feature spread over a factor of four.
      const double base_w = 1.0 / (127.0 * std::sqrt(static_cast<double>(k)));
      std::vector<float> w_scales(spec.per_channel ? static_cast<size_t>(n) : 1);
      for (float& s : w_scales) s = static_cast<float>(base_w * (0.5 + 1.5 * rng.unit()));
      std::vector<int64_t> w_zps(w_scales.size(), 0);
      std::vector<float> b_scales;
      for (float s : w_scales) b_scales.push_back(in_scale * s);
      std::vector<int32_t> bv(static_cast<size_t>(n));
      const int64_t bias_bound = 64 * 64 * static_cast<int64_t>(std::sqrt(static_cast<double>(k)));
      for (int32_t& v : bv) v = static_cast<int32_t>(rng.range(-bias_bound, bias_bound));
      // Output scale: about three standard deviations of the accumulator over the int8 range.
      const double acc_std = 73.0 * 73.0 * std::sqrt(static_cast<double>(k));
      const float out_scale = static_cast<float>(3.0 * acc_std * in_scale * base_w / 127.0);
      const int64_t out_zp = act == tflite::ActivationFunctionType::NONE ? rng.range(-8, 8) : -128;
      w = b.addTensor(prefix + "/weights", tflite::TensorType::INT8, {n, k}, asBytes(wv), w_scales,
                      w_zps);
      if (spec.per_channel)
        b.sg().tensors[static_cast<size_t>(w)]->quantization->quantized_dimension = 0;
      bias = b.addTensor(prefix + "/bias", tflite::TensorType::INT32, {n}, asBytes(bv), b_scales,
                         std::vector<int64_t>(b_scales.size(), 0));
      y = b.addTensor(out_name, act_type, {batch, n}, {}, {out_scale}, {out_zp});
      in_scale = out_scale;
    }
    auto op = std::make_unique<tflite::OperatorT>();
    op->opcode_index = 0;
    op->inputs = {x, w, bias};
    op->outputs = {y};
    tflite::FullyConnectedOptionsT options;
    options.fused_activation_function = act;
    op->builtin_options.Set(options);
    b.sg().operators.push_back(std::move(op));
    x = y;
  }
  b.sg().outputs.push_back(x);

  // The converter records the minimum runtime version as metadata.
  std::vector<uint8_t> version(16, 0);
  const char* min_version = "1.14.0";
  std::memcpy(version.data(), min_version, std::strlen(min_version));
  auto version_buffer = std::make_unique<tflite::BufferT>();
  version_buffer->data = version;
  model.buffers.push_back(std::move(version_buffer));
  auto md = std::make_unique<tflite::MetadataT>();
  md->name = "min_runtime_version";
  md->buffer = static_cast<uint32_t>(model.buffers.size() - 1);
  model.metadata.push_back(std::move(md));

  flatbuffers::FlatBufferBuilder fbb(1024 + 2 * spec.layers.size() * 64);
  tflite::FinishModelBuffer(fbb, tflite::Model::Pack(fbb, &model));
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

}  // namespace hilsim::modelgen
