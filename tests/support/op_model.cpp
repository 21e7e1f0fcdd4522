#include "op_model.h"

#include <stdexcept>

#include "hilsim/errors.h"
#include "hilsim/rt/interpreter.h"

namespace hilsim::test {

OpModel::OpModel() : model_(std::make_unique<tflite::ModelT>()) {
  model_->version = 3;
  model_->buffers.push_back(std::make_unique<tflite::BufferT>());  // the empty sentinel
  model_->subgraphs.push_back(std::make_unique<tflite::SubGraphT>());
}

int32_t OpModel::addTensor(TensorSpec spec) {
  tflite::SubGraphT& sg = *model_->subgraphs[0];
  auto t = std::make_unique<tflite::TensorT>();
  t->name = spec.name.empty() ? "t" + std::to_string(sg.tensors.size()) : spec.name;
  t->type = spec.type;
  t->shape = spec.shape;
  t->is_variable = spec.is_variable;
  t->buffer = 0;
  if (!spec.data.empty()) {
    auto buffer = std::make_unique<tflite::BufferT>();
    buffer->data = std::move(spec.data);
    model_->buffers.push_back(std::move(buffer));
    t->buffer = static_cast<uint32_t>(model_->buffers.size() - 1);
  }
  if (!spec.scales.empty() || !spec.zero_points.empty()) {
    t->quantization = std::make_unique<tflite::QuantizationParametersT>();
    t->quantization->scale = std::move(spec.scales);
    t->quantization->zero_point = std::move(spec.zero_points);
    t->quantization->quantized_dimension = spec.quantized_dimension;
  }
  sg.tensors.push_back(std::move(t));
  return static_cast<int32_t>(sg.tensors.size() - 1);
}

void OpModel::addOp(tflite::BuiltinOperator op, std::vector<int32_t> inputs,
                    std::vector<int32_t> outputs, tflite::BuiltinOptionsUnion options,
                    std::string custom_code) {
  const tflite::BuiltinOperator code = custom_code.empty() ? op : tflite::BuiltinOperator::CUSTOM;
  uint32_t code_index = 0;
  for (; code_index < model_->operator_codes.size(); ++code_index) {
    const tflite::OperatorCodeT& c = *model_->operator_codes[code_index];
    if (c.builtin_code == code && c.custom_code == custom_code) break;
  }
  if (code_index == model_->operator_codes.size()) {
    auto c = std::make_unique<tflite::OperatorCodeT>();
    c->builtin_code = code;
    c->deprecated_builtin_code =
        static_cast<int8_t>(static_cast<int32_t>(code) < 127 ? static_cast<int32_t>(code) : 127);
    c->custom_code = std::move(custom_code);
    c->version = 1;
    model_->operator_codes.push_back(std::move(c));
  }
  auto o = std::make_unique<tflite::OperatorT>();
  o->opcode_index = code_index;
  o->inputs = std::move(inputs);
  o->outputs = std::move(outputs);
  o->builtin_options = std::move(options);
  model_->subgraphs[0]->operators.push_back(std::move(o));
}

void OpModel::setInputs(std::vector<int32_t> inputs) {
  model_->subgraphs[0]->inputs = std::move(inputs);
}

void OpModel::setOutputs(std::vector<int32_t> outputs) {
  model_->subgraphs[0]->outputs = std::move(outputs);
}

std::vector<uint8_t> OpModel::finish() const {
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(tflite::Model::Pack(fbb, model_.get()), tflite::ModelIdentifier());
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

std::vector<uint8_t> runModel(const std::vector<uint8_t>& bytes,
                              const std::vector<std::vector<uint8_t>>& inputs, int invocations) {
  rt::Model model = rt::Model::fromBytes(bytes, "test model");
  const rt::OpResolver resolver = rt::referenceOpResolver();
  rt::Interpreter interp(model, resolver);
  interp.allocate();
  if (inputs.size() != interp.inputCount())
    throw std::invalid_argument("runModel: the model has " + std::to_string(interp.inputCount()) +
                                " inputs, " + std::to_string(inputs.size()) + " given");
  std::vector<uint8_t> out;
  for (int i = 0; i < invocations; ++i) {
    for (size_t k = 0; k < inputs.size(); ++k) {
      rt::Tensor& t = interp.input(k);
      if (inputs[k].size() != t.bytes)
        throw std::invalid_argument("runModel: input " + std::to_string(k) + " needs " +
                                    std::to_string(t.bytes) + " bytes, " +
                                    std::to_string(inputs[k].size()) + " given");
      if (t.bytes) std::memcpy(t.data, inputs[k].data(), t.bytes);
    }
    interp.invoke();
    const rt::Tensor& o = interp.output(0);
    out.insert(out.end(), o.data, o.data + o.bytes);
  }
  return out;
}

std::string prepareError(const std::vector<uint8_t>& bytes) {
  try {
    rt::Model model = rt::Model::fromBytes(bytes, "test model");
    const rt::OpResolver resolver = rt::referenceOpResolver();
    rt::Interpreter interp(model, resolver);
    interp.allocate();
    return "";
  } catch (const Error& e) {
    return e.what();
  }
}

}  // namespace hilsim::test
