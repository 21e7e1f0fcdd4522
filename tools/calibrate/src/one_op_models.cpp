#include "hilsim/calibrate/one_op_models.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <utility>

#include "hilsim/base/rng.h"

namespace hilsim::calibrate {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

struct Quant {
  std::vector<float> scales;  // empty: not quantized
  std::vector<int64_t> zero_points;
  int32_t dimension = 0;
};

Quant perTensor(float scale, int64_t zero_point) {
  return {{scale}, {zero_point}, 0};
}

Quant perChannel(int32_t channels, float scale, int32_t dimension) {
  return {std::vector<float>(size_t(channels), scale), std::vector<int64_t>(size_t(channels), 0),
          dimension};
}

// Builds a model of one operator in the flatbuffer object API.
class Builder {
 public:
  Builder() : model_(std::make_unique<tflite::ModelT>()) {
    model_->version = 3;
    model_->buffers.push_back(std::make_unique<tflite::BufferT>());  // the empty sentinel
    model_->subgraphs.push_back(std::make_unique<tflite::SubGraphT>());
  }

  int32_t tensor(TensorType type, std::vector<int32_t> shape, const Quant& quant,
                 std::vector<uint8_t> data = {}, bool variable = false) {
    tflite::SubGraphT& sg = *model_->subgraphs[0];
    auto t = std::make_unique<tflite::TensorT>();
    t->name = "t" + std::to_string(sg.tensors.size());
    t->type = type;
    t->shape = std::move(shape);
    t->buffer = 0;
    t->is_variable = variable;
    if (!data.empty()) {
      auto buffer = std::make_unique<tflite::BufferT>();
      buffer->data = std::move(data);
      model_->buffers.push_back(std::move(buffer));
      t->buffer = static_cast<uint32_t>(model_->buffers.size() - 1);
    }
    if (!quant.scales.empty()) {
      t->quantization = std::make_unique<tflite::QuantizationParametersT>();
      t->quantization->scale = quant.scales;
      t->quantization->zero_point = quant.zero_points;
      t->quantization->quantized_dimension = quant.dimension;
    }
    sg.tensors.push_back(std::move(t));
    return static_cast<int32_t>(sg.tensors.size() - 1);
  }

  // A variable tensor (state that persists across invocations): not a model input.
  int32_t variable(TensorType type, std::vector<int32_t> shape, const Quant& quant) {
    const int32_t index = tensor(type, std::move(shape), quant);
    model_->subgraphs[0]->tensors[size_t(index)]->is_variable = true;
    return index;
  }

  // Constant int8 data of `count` deterministic pseudo-random values.
  std::vector<uint8_t> int8Data(uint64_t count) {
    std::vector<uint8_t> data(count);
    for (uint8_t& b : data) b = static_cast<uint8_t>(rng_.range(-127, 127));
    return data;
  }
  // Little-endian int16 values in [lo, hi].
  std::vector<uint8_t> int16Data(uint64_t count, int32_t lo, int32_t hi) {
    std::vector<uint8_t> data(count * 2);
    for (uint64_t i = 0; i < count; ++i) {
      const auto v = static_cast<uint16_t>(static_cast<int16_t>(rng_.range(lo, hi)));
      data[i * 2] = static_cast<uint8_t>(v);
      data[i * 2 + 1] = static_cast<uint8_t>(v >> 8);
    }
    return data;
  }
  // Float32 values uniform in [-1, 1).
  std::vector<uint8_t> floatData(uint64_t count) {
    std::vector<uint8_t> data(count * 4);
    for (uint64_t i = 0; i < count; ++i) {
      const float f = static_cast<float>(2.0 * rng_.unit() - 1.0);
      uint32_t v = 0;
      std::memcpy(&v, &f, sizeof v);
      for (int b = 0; b < 4; ++b) data[i * 4 + b] = static_cast<uint8_t>(v >> (8 * b));
    }
    return data;
  }
  std::vector<uint8_t> int32Data(uint64_t count) {
    std::vector<uint8_t> data(count * 4);
    for (uint64_t i = 0; i < count; ++i) {
      const auto v = static_cast<uint32_t>(static_cast<int32_t>(rng_.range(-1000, 1000)));
      for (int b = 0; b < 4; ++b) data[i * 4 + b] = static_cast<uint8_t>(v >> (8 * b));
    }
    return data;
  }

  // An operator of the same kind as the measured one, run before it to produce its input.
  void feeder(std::vector<int32_t> inputs, int32_t output, tflite::BuiltinOptionsUnion options) {
    auto o = std::make_unique<tflite::OperatorT>();
    o->opcode_index = 0;
    o->inputs = std::move(inputs);
    o->outputs = {output};
    o->builtin_options = std::move(options);
    model_->subgraphs[0]->operators.push_back(std::move(o));
  }

  // Adds the measured operator twice: the first instance runs its kernel's code cold, the
  // second warm, as a later layer of the same operator in a model. The second reads the same
  // inputs and has constant tensors of its own (the same values at other addresses, so its weights
  // are read from memory as a layer's own are), its own state and output.
  OneOpModel finish(BuiltinOperator op, std::string label, std::vector<int32_t> inputs,
                    int32_t output, tflite::BuiltinOptionsUnion options) {
    auto code = std::make_unique<tflite::OperatorCodeT>();
    code->builtin_code = op;
    code->deprecated_builtin_code =
        static_cast<int8_t>(static_cast<int32_t>(op) < 127 ? static_cast<int32_t>(op) : 127);
    code->version = 1;
    model_->operator_codes.push_back(std::move(code));
    tflite::SubGraphT& sg = *model_->subgraphs[0];
    const size_t feeders = sg.operators.size();
    std::vector<int32_t> warm_inputs;
    for (int32_t i : inputs) warm_inputs.push_back(i < 0 ? i : ownCopy(i));
    const int32_t warm_output = ownCopy(output, true);
    auto warm = std::make_unique<tflite::OperatorT>();
    warm->opcode_index = 0;
    warm->inputs = std::move(warm_inputs);
    warm->outputs = {warm_output};
    warm->builtin_options = options;
    auto cold = std::make_unique<tflite::OperatorT>();
    cold->opcode_index = 0;
    cold->inputs = std::move(inputs);
    cold->outputs = {output};
    cold->builtin_options = std::move(options);
    sg.operators.push_back(std::move(cold));
    sg.operators.push_back(std::move(warm));
    // Subgraph inputs: the tensors without data that are neither state nor a feeder's output.
    const auto produced = [&](int32_t t) {
      for (size_t f = 0; f < feeders; ++f)
        if (sg.operators[f]->outputs[0] == t) return true;
      return false;
    };
    for (const auto& op_t : sg.operators)
      for (int32_t i : op_t->inputs)
        if (i >= 0 && sg.tensors[size_t(i)]->buffer == 0 && !sg.tensors[size_t(i)]->is_variable &&
            !produced(i) && std::find(sg.inputs.begin(), sg.inputs.end(), i) == sg.inputs.end())
          sg.inputs.push_back(i);
    sg.outputs = {output, warm_output};
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(tflite::Model::Pack(fbb, model_.get()), tflite::ModelIdentifier());
    OneOpModel m;
    m.op = op;
    m.layer = feeders;
    m.warm_layer = feeders + 1;
    m.label = std::move(label);
    m.bytes.assign(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
    return m;
  }

  // The tensor the measured operator's second instance uses for `index`: the same one for an
  // input the model or a feeder provides (unless `always`); else a copy, with a buffer of its own
  // for constants.
  int32_t ownCopy(int32_t index, bool always = false) {
    tflite::SubGraphT& sg = *model_->subgraphs[0];
    const tflite::TensorT& t = *sg.tensors[size_t(index)];
    if (t.buffer == 0 && !t.is_variable && !always) return index;
    auto copy = std::make_unique<tflite::TensorT>(t);
    copy->name = "t" + std::to_string(sg.tensors.size());
    if (t.buffer != 0) {
      model_->buffers.push_back(std::make_unique<tflite::BufferT>(*model_->buffers[t.buffer]));
      copy->buffer = static_cast<uint32_t>(model_->buffers.size() - 1);
    }
    sg.tensors.push_back(std::move(copy));
    return static_cast<int32_t>(sg.tensors.size() - 1);
  }

 private:
  std::unique_ptr<tflite::ModelT> model_;
  Rng rng_{0x5eed};
};

constexpr float kInScale = 0.05f, kWeightScale = 0.02f, kOutScale = 0.1f;

int32_t sameOut(int32_t size, int32_t stride) {
  return (size + stride - 1) / stride;
}

std::string dims(std::initializer_list<int32_t> values) {
  std::string out;
  for (int32_t v : values) out += (out.empty() ? "" : "x") + std::to_string(v);
  return out;
}

}  // namespace

namespace {

// An int8 [rows, k] x [n, k]^T layer's weights, bias and output, reading `in`.
OneOpModel finishFullyConnected(Builder& b, int32_t in, int32_t rows, int32_t k, int32_t n,
                                std::string label) {
  const int32_t w = b.tensor(TensorType::INT8, {n, k}, perTensor(kWeightScale, 0),
                             b.int8Data(uint64_t(n) * uint64_t(k)));
  const int32_t bias = b.tensor(TensorType::INT32, {n}, perTensor(kInScale * kWeightScale, 0),
                                b.int32Data(uint64_t(n)));
  const int32_t out = b.tensor(TensorType::INT8, {rows, n}, perTensor(kOutScale, 0));
  tflite::BuiltinOptionsUnion options;
  options.Set(tflite::FullyConnectedOptionsT{});
  return b.finish(BuiltinOperator::FULLY_CONNECTED, std::move(label), {in, w, bias}, out,
                  std::move(options));
}

}  // namespace

OneOpModel fullyConnectedModel(int32_t rows, int32_t k, int32_t n) {
  Builder b;
  const int32_t in = b.tensor(TensorType::INT8, {rows, k}, perTensor(kInScale, 0));
  return finishFullyConnected(b, in, rows, k, n,
                              "FULLY_CONNECTED " + dims({rows, k}) + " -> " + std::to_string(n));
}

OneOpModel fullyConnectedAfterModel(int32_t rows, int32_t k, int32_t n_before, int32_t n) {
  Builder b;
  const int32_t in = b.tensor(TensorType::INT8, {rows, k}, perTensor(kInScale, 0));
  const int32_t w0 = b.tensor(TensorType::INT8, {n_before, k}, perTensor(kWeightScale, 0),
                              b.int8Data(uint64_t(n_before) * uint64_t(k)));
  const int32_t bias0 = b.tensor(TensorType::INT32, {n_before},
                                 perTensor(kInScale * kWeightScale, 0), b.int32Data(n_before));
  const int32_t hidden = b.tensor(TensorType::INT8, {rows, n_before}, perTensor(kInScale, 0));
  tflite::BuiltinOptionsUnion options;
  options.Set(tflite::FullyConnectedOptionsT{});
  b.feeder({in, w0, bias0}, hidden, std::move(options));
  OneOpModel m = finishFullyConnected(b, hidden, rows, n_before, n,
                                      "FULLY_CONNECTED " + dims({rows, n_before}) + " -> " +
                                          std::to_string(n) + " after " + dims({rows, k}) + " -> " +
                                          std::to_string(n_before));
  m.new_paths = true;
  return m;
}

OneOpModel fullyConnectedFloatModel(int32_t rows, int32_t k, int32_t n, bool relu_input) {
  Builder b;
  int32_t in = b.tensor(TensorType::FLOAT32, {rows, k}, Quant{});
  if (relu_input) {
    // A k -> k layer with RELU in front: about half of the measured layer's inputs are zero.
    const int32_t w0 =
        b.tensor(TensorType::FLOAT32, {k, k}, Quant{}, b.floatData(uint64_t(k) * uint64_t(k)));
    const int32_t bias0 = b.tensor(TensorType::FLOAT32, {k}, Quant{}, b.floatData(uint64_t(k)));
    const int32_t hidden = b.tensor(TensorType::FLOAT32, {rows, k}, Quant{});
    tflite::FullyConnectedOptionsT o;
    o.fused_activation_function = tflite::ActivationFunctionType::RELU;
    tflite::BuiltinOptionsUnion options;
    options.Set(o);
    b.feeder({in, w0, bias0}, hidden, std::move(options));
    in = hidden;
  }
  const int32_t w =
      b.tensor(TensorType::FLOAT32, {n, k}, Quant{}, b.floatData(uint64_t(n) * uint64_t(k)));
  const int32_t bias = b.tensor(TensorType::FLOAT32, {n}, Quant{}, b.floatData(uint64_t(n)));
  const int32_t out = b.tensor(TensorType::FLOAT32, {rows, n}, Quant{});
  tflite::BuiltinOptionsUnion options;
  options.Set(tflite::FullyConnectedOptionsT{});
  return b.finish(BuiltinOperator::FULLY_CONNECTED,
                  "FULLY_CONNECTED float32 " + dims({rows, k}) + (relu_input ? " (RELU)" : "") +
                      " -> " + std::to_string(n),
                  {in, w, bias}, out, std::move(options));
}

OneOpModel svdfModel(int32_t batches, int32_t input_size, int32_t units, int32_t rank,
                     int32_t memory, bool int16_state) {
  Builder b;
  const int32_t filters = units * rank;
  // Scales of the keyword models' layers: an int16 state and time weights near 2^-9, an int8
  // state near 0.3 with time weights near 0.01.
  const float state_scale = int16_state ? 0.002f : 0.3f;
  const float time_scale = int16_state ? 0.002f : 0.01f;
  const TensorType state_type = int16_state ? TensorType::INT16 : TensorType::INT8;
  const uint64_t time_count = uint64_t(filters) * uint64_t(memory);
  const int32_t in = b.tensor(TensorType::INT8, {batches, input_size}, perTensor(kInScale, -128));
  const int32_t wf = b.tensor(TensorType::INT8, {filters, input_size}, perTensor(0.01f, 0),
                              b.int8Data(uint64_t(filters) * uint64_t(input_size)));
  const int32_t wt =
      b.tensor(state_type, {filters, memory}, perTensor(time_scale, 0),
               int16_state ? b.int16Data(time_count, -2000, 2000) : b.int8Data(time_count));
  const int32_t bias = b.tensor(TensorType::INT32, {units}, perTensor(state_scale * time_scale, 0),
                                b.int32Data(uint64_t(units)));
  const int32_t state =
      b.tensor(state_type, {batches, filters * memory},
               perTensor(state_scale, int16_state ? 0 : -10), {}, /*variable=*/true);
  const int32_t out = b.tensor(TensorType::INT8, {batches, units}, perTensor(kOutScale, -128));
  tflite::SVDFOptionsT o;
  o.rank = rank;
  o.fused_activation_function = tflite::ActivationFunctionType::RELU;
  tflite::BuiltinOptionsUnion options;
  options.Set(o);
  return b.finish(BuiltinOperator::SVDF,
                  std::string("SVDF ") + (int16_state ? "int16" : "int8") + " state " +
                      dims({batches, input_size}) + " units " + std::to_string(units) + " rank " +
                      std::to_string(rank) + " memory " + std::to_string(memory),
                  {in, wf, wt, bias, state}, out, std::move(options));
}

OneOpModel convModel(int32_t h, int32_t w, int32_t in_c, int32_t out_c, int32_t kh, int32_t kw,
                     int32_t stride) {
  Builder b;
  const int32_t in = b.tensor(TensorType::INT8, {1, h, w, in_c}, perTensor(kInScale, 0));
  const int32_t filter =
      b.tensor(TensorType::INT8, {out_c, kh, kw, in_c}, perChannel(out_c, kWeightScale, 0),
               b.int8Data(uint64_t(out_c) * kh * kw * in_c));
  const int32_t bias =
      b.tensor(TensorType::INT32, {out_c}, perChannel(out_c, kInScale * kWeightScale, 0),
               b.int32Data(uint64_t(out_c)));
  const int32_t out = b.tensor(TensorType::INT8, {1, sameOut(h, stride), sameOut(w, stride), out_c},
                               perTensor(kOutScale, 0));
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding::SAME;
  o.stride_h = o.stride_w = stride;
  o.dilation_h_factor = o.dilation_w_factor = 1;
  tflite::BuiltinOptionsUnion options;
  options.Set(o);
  return b.finish(BuiltinOperator::CONV_2D,
                  "CONV_2D " + dims({1, h, w, in_c}) + " k" + dims({kh, kw}) + " s" +
                      std::to_string(stride) + " -> " + std::to_string(out_c),
                  {in, filter, bias}, out, std::move(options));
}

OneOpModel depthwiseModel(int32_t h, int32_t w, int32_t in_c, int32_t kh, int32_t kw,
                          int32_t stride, int32_t depth_multiplier) {
  Builder b;
  const int32_t out_c = in_c * depth_multiplier;
  const int32_t in = b.tensor(TensorType::INT8, {1, h, w, in_c}, perTensor(kInScale, 0));
  const int32_t filter =
      b.tensor(TensorType::INT8, {1, kh, kw, out_c}, perChannel(out_c, kWeightScale, 3),
               b.int8Data(uint64_t(kh) * uint64_t(kw) * uint64_t(out_c)));
  const int32_t bias =
      b.tensor(TensorType::INT32, {out_c}, perChannel(out_c, kInScale * kWeightScale, 0),
               b.int32Data(uint64_t(out_c)));
  const int32_t out = b.tensor(TensorType::INT8, {1, sameOut(h, stride), sameOut(w, stride), out_c},
                               perTensor(kOutScale, 0));
  tflite::DepthwiseConv2DOptionsT o;
  o.padding = tflite::Padding::SAME;
  o.stride_h = o.stride_w = stride;
  o.depth_multiplier = depth_multiplier;
  o.dilation_h_factor = o.dilation_w_factor = 1;
  tflite::BuiltinOptionsUnion options;
  options.Set(o);
  return b.finish(BuiltinOperator::DEPTHWISE_CONV_2D,
                  "DEPTHWISE_CONV_2D " + dims({1, h, w, in_c}) + " k" + dims({kh, kw}) + " s" +
                      std::to_string(stride) + " x" + std::to_string(depth_multiplier),
                  {in, filter, bias}, out, std::move(options));
}

OneOpModel poolModel(BuiltinOperator op, int32_t h, int32_t w, int32_t c, int32_t k,
                     int32_t stride) {
  Builder b;
  const int32_t in = b.tensor(TensorType::INT8, {1, h, w, c}, perTensor(kInScale, 0));
  const int32_t out = b.tensor(TensorType::INT8, {1, (h - k) / stride + 1, (w - k) / stride + 1, c},
                               perTensor(kInScale, 0));
  tflite::Pool2DOptionsT o;
  o.padding = tflite::Padding::VALID;
  o.stride_h = o.stride_w = stride;
  o.filter_height = o.filter_width = k;
  tflite::BuiltinOptionsUnion options;
  options.Set(o);
  return b.finish(op,
                  std::string(tflite::EnumNameBuiltinOperator(op)) + " " + dims({1, h, w, c}) +
                      " k" + std::to_string(k) + " s" + std::to_string(stride),
                  {in}, out, std::move(options));
}

OneOpModel softmaxModel(int32_t rows, int32_t n) {
  Builder b;
  const int32_t in = b.tensor(TensorType::INT8, {rows, n}, perTensor(kOutScale, 0));
  const int32_t out = b.tensor(TensorType::INT8, {rows, n}, perTensor(1.0f / 256, -128));
  tflite::SoftmaxOptionsT o;
  o.beta = 1.0f;
  tflite::BuiltinOptionsUnion options;
  options.Set(o);
  return b.finish(BuiltinOperator::SOFTMAX, "SOFTMAX " + dims({rows, n}), {in}, out,
                  std::move(options));
}

OneOpModel elementwiseModel(BuiltinOperator op, int32_t n) {
  Builder b;
  const int32_t x = b.tensor(TensorType::INT8, {1, n}, perTensor(kInScale, 3));
  const int32_t y = b.tensor(TensorType::INT8, {1, n}, perTensor(kOutScale, -2));
  const int32_t out = b.tensor(TensorType::INT8, {1, n}, perTensor(kOutScale * 2, 1));
  tflite::BuiltinOptionsUnion options;
  if (op == BuiltinOperator::MUL)
    options.Set(tflite::MulOptionsT{});
  else
    options.Set(tflite::AddOptionsT{});
  return b.finish(op, std::string(tflite::EnumNameBuiltinOperator(op)) + " " + dims({1, n}), {x, y},
                  out, std::move(options));
}

OneOpModel reshapeModel(int32_t n) {
  Builder b;
  const int32_t in = b.tensor(TensorType::INT8, {1, n}, perTensor(kInScale, 0));
  const int32_t out = b.tensor(TensorType::INT8, {n}, perTensor(kInScale, 0));
  tflite::ReshapeOptionsT o;
  o.new_shape = {n};
  tflite::BuiltinOptionsUnion options;
  options.Set(o);
  return b.finish(BuiltinOperator::RESHAPE, "RESHAPE " + dims({1, n}), {in}, out,
                  std::move(options));
}

OneOpModel quantizeModel(int32_t n, bool from_float) {
  Builder b;
  const int32_t in = from_float ? b.tensor(TensorType::FLOAT32, {1, n}, Quant{})
                                : b.tensor(TensorType::INT8, {1, n}, perTensor(kInScale, 3));
  const int32_t out = b.tensor(TensorType::INT8, {1, n}, perTensor(kOutScale, -5));
  tflite::BuiltinOptionsUnion options;
  options.Set(tflite::QuantizeOptionsT{});
  return b.finish(BuiltinOperator::QUANTIZE,
                  std::string("QUANTIZE ") + (from_float ? "float32" : "int8") + " " + dims({1, n}),
                  {in}, out, std::move(options));
}

OneOpModel dequantizeModel(int32_t n) {
  Builder b;
  const int32_t in = b.tensor(TensorType::INT8, {1, n}, perTensor(kInScale, 3));
  const int32_t out = b.tensor(TensorType::FLOAT32, {1, n}, Quant{});
  tflite::BuiltinOptionsUnion options;
  options.Set(tflite::DequantizeOptionsT{});
  return b.finish(BuiltinOperator::DEQUANTIZE, "DEQUANTIZE " + dims({1, n}), {in}, out,
                  std::move(options));
}

OneOpModel activationModel(BuiltinOperator op, int32_t n) {
  Builder b;
  // TFLite's int8 LOGISTIC output is fixed at scale 1/256, zero point -128; TANH's at 1/128, 0.
  const int32_t in = b.tensor(TensorType::INT8, {1, n}, perTensor(kOutScale, 0));
  const Quant out_quant =
      op == BuiltinOperator::LOGISTIC ? perTensor(1.0f / 256, -128) : perTensor(1.0f / 128, 0);
  const int32_t out = b.tensor(TensorType::INT8, {1, n}, out_quant);
  return b.finish(op, std::string(tflite::EnumNameBuiltinOperator(op)) + " " + dims({1, n}), {in},
                  out, tflite::BuiltinOptionsUnion{});
}

OneOpModel lstmModel(int32_t time_steps, int32_t batches, int32_t input_size, int32_t cells,
                     bool time_major) {
  // The layout of TensorFlow's int8 LSTM: int8 activations and per-tensor weights, int32 biases,
  // an int16 cell state in Q3.12 and the hidden state at 1/128.
  constexpr float kHiddenScale = 1.0f / 128, kCellScale = 1.0f / 4096;
  Builder b;
  const std::vector<int32_t> sequence = time_major ? std::vector<int32_t>{time_steps, batches}
                                                   : std::vector<int32_t>{batches, time_steps};
  const int32_t in =
      b.tensor(TensorType::INT8, {sequence[0], sequence[1], input_size}, perTensor(kInScale, -3));
  std::vector<int32_t> inputs(24, -1);
  inputs[0] = in;
  for (int32_t g = 0; g < 4; ++g) {
    inputs[size_t(1 + g)] =
        b.tensor(TensorType::INT8, {cells, input_size}, perTensor(kWeightScale, 0),
                 b.int8Data(uint64_t(cells) * uint64_t(input_size)));
    inputs[size_t(5 + g)] = b.tensor(TensorType::INT8, {cells, cells}, perTensor(kWeightScale, 0),
                                     b.int8Data(uint64_t(cells) * uint64_t(cells)));
    inputs[size_t(12 + g)] =
        b.tensor(TensorType::INT32, {cells}, perTensor(kInScale * kWeightScale, 0),
                 b.int32Data(uint64_t(cells)));
  }
  inputs[18] = b.variable(TensorType::INT8, {batches, cells}, perTensor(kHiddenScale, 0));
  inputs[19] = b.variable(TensorType::INT16, {batches, cells}, perTensor(kCellScale, 0));
  const int32_t out =
      b.tensor(TensorType::INT8, {sequence[0], sequence[1], cells}, perTensor(kHiddenScale, 0));
  tflite::UnidirectionalSequenceLSTMOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType::TANH;
  o.time_major = time_major;
  tflite::BuiltinOptionsUnion options;
  options.Set(o);
  return b.finish(BuiltinOperator::UNIDIRECTIONAL_SEQUENCE_LSTM,
                  "UNIDIRECTIONAL_SEQUENCE_LSTM " + std::to_string(time_steps) + " steps x " +
                      std::to_string(batches) + " batch" + (time_major ? " time-major" : "") +
                      ", " + std::to_string(input_size) + " -> " + std::to_string(cells) + " cells",
                  inputs, out, std::move(options));
}

std::vector<OneOpModel> calibrationShapes() {
  std::vector<OneOpModel> shapes;
  // FULLY_CONNECTED: K and N from 1 to 2000, one and several rows; the tiny layers (K or N of
  // 1, as in hello_world_int8's 1 -> 16 -> 16 -> 1) are mostly per-call and per-output work; N
  // not a multiple of 4 (of 2 for row pairs) leaves outputs to the optimized kernel's tail.
  for (const auto& [rows, k, n] : std::vector<std::array<int32_t, 3>>{{1, 1, 16},
                                                                      {1, 16, 16},
                                                                      {1, 16, 1},
                                                                      {1, 64, 1},
                                                                      {1, 8, 16},
                                                                      {1, 16, 128},
                                                                      {1, 64, 12},
                                                                      {1, 128, 8},
                                                                      {1, 128, 128},
                                                                      {1, 256, 64},
                                                                      {1, 640, 128},
                                                                      {1, 1024, 32},
                                                                      {1, 2000, 4},
                                                                      {1, 1000, 3},
                                                                      {1, 200, 6},
                                                                      {2, 128, 5},
                                                                      {4, 64, 64},
                                                                      {8, 32, 16},
                                                                      {2, 256, 256}})
    shapes.push_back(fullyConnectedModel(rows, k, n));
  // FULLY_CONNECTED behind one that ran the kernel's other code paths (optimized library: four
  // outputs at a time, the N mod 4 rest one at a time, row pairs and their odd output), as in
  // hello_world_int8's 16 -> 1 after 16 -> 16.
  for (const auto& [rows, k, n_before, n] : std::vector<std::array<int32_t, 4>>{{1, 16, 16, 1},
                                                                                {1, 16, 1, 16},
                                                                                {1, 64, 8, 3},
                                                                                {1, 32, 3, 8},
                                                                                {2, 32, 16, 1},
                                                                                {2, 32, 1, 16}})
    shapes.push_back(fullyConnectedAfterModel(rows, k, n_before, n));
  // FULLY_CONNECTED in float32: K and N from 1 to 256 (hello_world_float's 1 -> 16 -> 16 -> 1),
  // a first layer's inputs and, from K = 8, a hidden layer's (after a RELU, about half zero:
  // software floating point multiplies and adds a zero faster).
  for (const auto& [rows, k, n] : std::vector<std::array<int32_t, 3>>{{1, 1, 16},
                                                                      {1, 16, 16},
                                                                      {1, 16, 1},
                                                                      {1, 8, 128},
                                                                      {1, 64, 32},
                                                                      {1, 256, 8},
                                                                      {4, 32, 32},
                                                                      {2, 128, 64}}) {
    shapes.push_back(fullyConnectedFloatModel(rows, k, n, false));
    if (k >= 8) shapes.push_back(fullyConnectedFloatModel(rows, k, n, true));
  }
  // SVDF with int16 and int8 state: input 8-128, 8-128 units of rank 1-3, memory 4-64, one and
  // two batches (the keyword models: input 16-96, 32-64 units of rank 1, memory 8 and 32).
  for (const bool int16_state : {true, false})
    for (const auto& [batches, input_size, units, rank, memory] :
         std::vector<std::array<int32_t, 5>>{{1, 96, 64, 1, 8},
                                             {1, 16, 64, 1, 8},
                                             {1, 16, 32, 1, 32},
                                             {1, 32, 32, 1, 32},
                                             {1, 64, 16, 2, 16},
                                             {2, 40, 24, 1, 10},
                                             {1, 8, 128, 1, 4},
                                             {1, 128, 8, 3, 64}})
      shapes.push_back(svdfModel(batches, input_size, units, rank, memory, int16_state));
  // CONV_2D: pointwise over 8 to 256 channels, 3x3 and first-layer kernels over few channels,
  // filter sizes K of every residue mod 4 and odd filter counts.
  for (const auto& [h, w, in_c, out_c, kh, kw, s] :
       std::vector<std::array<int32_t, 7>>{{24, 24, 8, 16, 1, 1, 1},
                                           {12, 12, 32, 32, 1, 1, 1},
                                           {6, 6, 64, 128, 1, 1, 1},
                                           {3, 3, 256, 256, 1, 1, 1},
                                           {1, 1, 256, 2, 1, 1, 1},
                                           {16, 16, 16, 8, 1, 1, 1},
                                           {25, 5, 64, 64, 1, 1, 1},
                                           {16, 16, 3, 8, 3, 3, 2},
                                           {32, 32, 3, 16, 3, 3, 1},
                                           {16, 16, 16, 16, 3, 3, 1},
                                           {8, 8, 32, 32, 3, 3, 1},
                                           {8, 8, 64, 64, 3, 3, 2},
                                           {49, 10, 1, 16, 10, 4, 2},
                                           {20, 20, 1, 8, 5, 5, 1},
                                           {12, 12, 8, 8, 5, 5, 1},
                                           {12, 12, 5, 12, 3, 3, 1},
                                           {10, 10, 6, 7, 3, 3, 1},
                                           {14, 14, 3, 9, 5, 5, 2}})
    shapes.push_back(convModel(h, w, in_c, out_c, kh, kw, s));
  // DEPTHWISE_CONV_2D: 3x3 at stride 1 and 2 over 1 to 256 channels, larger and rectangular
  // kernels (tall ones over many channels, as in streaming keyword models), and depth multipliers
  // above 1 (one input channel fanned out, as in keyword models).
  for (const auto& [h, w, c, kh, kw, s, m] :
       std::vector<std::array<int32_t, 7>>{{48, 48, 8, 3, 3, 2, 1},
                                           {24, 24, 16, 3, 3, 1, 1},
                                           {24, 24, 32, 3, 3, 2, 1},
                                           {12, 12, 64, 3, 3, 1, 1},
                                           {6, 6, 128, 3, 3, 1, 1},
                                           {3, 3, 256, 3, 3, 1, 1},
                                           {25, 5, 64, 3, 3, 1, 1},
                                           {32, 32, 1, 3, 3, 1, 1},
                                           {49, 40, 1, 8, 8, 2, 1},
                                           {16, 16, 8, 5, 5, 1, 1},
                                           {10, 10, 32, 3, 3, 2, 1},
                                           {40, 32, 1, 8, 6, 2, 8},
                                           {32, 24, 1, 10, 8, 2, 8},
                                           {24, 24, 4, 3, 3, 1, 2},
                                           {16, 12, 2, 5, 4, 1, 4},
                                           {30, 1, 40, 3, 1, 1, 1},
                                           {24, 1, 128, 10, 1, 1, 1},
                                           {15, 1, 64, 15, 1, 1, 1},
                                           {8, 20, 16, 1, 7, 1, 1}})
    shapes.push_back(depthwiseModel(h, w, c, kh, kw, s, m));
  for (const auto& [h, w, c, k, s] : std::vector<std::array<int32_t, 5>>{{3, 3, 256, 3, 1},
                                                                         {25, 5, 64, 5, 5},
                                                                         {8, 8, 32, 2, 2},
                                                                         {16, 16, 16, 2, 2},
                                                                         {4, 4, 64, 4, 4},
                                                                         {12, 12, 8, 3, 3}}) {
    shapes.push_back(poolModel(BuiltinOperator::AVERAGE_POOL_2D, h, w, c, k, s));
    shapes.push_back(poolModel(BuiltinOperator::MAX_POOL_2D, h, w, c, k, s));
  }
  for (const auto& [rows, n] :
       std::vector<std::array<int32_t, 2>>{{1, 2}, {1, 4}, {1, 12}, {1, 100}, {4, 32}, {1, 1000}})
    shapes.push_back(softmaxModel(rows, n));
  for (int32_t n : {16, 256, 1024, 4096, 16384}) {
    shapes.push_back(elementwiseModel(BuiltinOperator::ADD, n));
    shapes.push_back(elementwiseModel(BuiltinOperator::MUL, n));
  }
  for (int32_t n : {2, 64, 1960}) shapes.push_back(reshapeModel(n));
  // QUANTIZE (int8 requantization and from float32), DEQUANTIZE, LOGISTIC and TANH.
  for (int32_t n : {2, 16, 96, 640, 4096}) shapes.push_back(quantizeModel(n, false));
  for (int32_t n : {2, 64, 640}) {
    shapes.push_back(quantizeModel(n, true));
    shapes.push_back(dequantizeModel(n));
  }
  for (int32_t n : {2, 32, 257, 1024}) {
    shapes.push_back(activationModel(BuiltinOperator::LOGISTIC, n));
    shapes.push_back(activationModel(BuiltinOperator::TANH, n));
  }
  // UNIDIRECTIONAL_SEQUENCE_LSTM: 1 to 64 time steps, 2 to 257 input features, 2 to 128 cells,
  // batches of 1 to 4 batch-major and time-major; input sizes and cell counts of every residue
  // mod 4 (the optimized gate products' unaligned rows and scalar tails).
  for (const auto& [t, batches, in, cells, time_major] :
       std::vector<std::array<int32_t, 5>>{{1, 1, 8, 8, 0},
                                           {1, 1, 257, 128, 0},
                                           {1, 1, 128, 128, 0},
                                           {2, 1, 257, 80, 0},
                                           {28, 1, 28, 20, 0},
                                           {64, 1, 2, 2, 0},
                                           {16, 1, 4, 32, 0},
                                           {8, 1, 64, 4, 0},
                                           {4, 1, 16, 64, 0},
                                           {12, 1, 40, 12, 0},
                                           {3, 2, 24, 12, 0},
                                           {3, 4, 24, 12, 1},
                                           {10, 3, 6, 6, 1},
                                           {6, 1, 33, 20, 0},
                                           {5, 2, 10, 10, 1},
                                           {20, 1, 13, 7, 0}})
    shapes.push_back(lstmModel(t, batches, in, cells, time_major != 0));
  return shapes;
}

}  // namespace hilsim::calibrate
