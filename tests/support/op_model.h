#pragma once
// Small .tflite models built in memory for kernel tests: tensors with explicit types, shapes,
// quantization and data, operators with builtin options, then run through the runtime's
// interpreter with the reference kernels.

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "hilsim/schema/tflite_generated.h"

namespace hilsim::test {

struct TensorSpec {
  tflite::TensorType type = tflite::TensorType::INT8;
  std::vector<int32_t> shape;
  std::vector<float> scales;  // empty: not quantized
  std::vector<int64_t> zero_points;
  int32_t quantized_dimension = 0;
  std::vector<uint8_t> data;  // non-empty: a constant tensor
  bool is_variable = false;
  std::string name;
};

// A plain tensor, a per-tensor quantized one, and the same made constant or variable.
inline TensorSpec tensor(tflite::TensorType type, std::vector<int32_t> shape) {
  TensorSpec spec;
  spec.type = type;
  spec.shape = std::move(shape);
  return spec;
}
inline TensorSpec qtensor(tflite::TensorType type, std::vector<int32_t> shape, float scale,
                          int64_t zero_point) {
  TensorSpec spec = tensor(type, std::move(shape));
  spec.scales = {scale};
  spec.zero_points = {zero_point};
  return spec;
}
inline TensorSpec withData(TensorSpec spec, std::vector<uint8_t> data) {
  spec.data = std::move(data);
  return spec;
}
inline TensorSpec asVariable(TensorSpec spec) {
  spec.is_variable = true;
  return spec;
}

template <typename T>
std::vector<uint8_t> bytesOf(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <typename T>
std::vector<T> valuesOf(const std::vector<uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

class OpModel {
 public:
  OpModel();
  // Returns the tensor's index.
  int32_t addTensor(TensorSpec spec);
  // Adds an operator; an input index of -1 is an omitted optional input. A non-empty
  // `custom_code` makes it a CUSTOM operator with that code.
  void addOp(tflite::BuiltinOperator op, std::vector<int32_t> inputs, std::vector<int32_t> outputs,
             tflite::BuiltinOptionsUnion options = {}, std::string custom_code = {});
  void setInputs(std::vector<int32_t> inputs);
  void setOutputs(std::vector<int32_t> outputs);
  // The model's flatbuffer bytes.
  std::vector<uint8_t> finish() const;
  // Direct access for tests that build unusual models.
  tflite::ModelT& model() { return *model_; }

 private:
  std::unique_ptr<tflite::ModelT> model_;
};

// Loads `model`, allocates, writes `inputs` into the subgraph's inputs (sizes must match) and
// invokes `invocations` times, returning output 0 of each invocation concatenated. Throws the
// runtime's hilsim errors (the message names the operator).
std::vector<uint8_t> runModel(const std::vector<uint8_t>& model,
                              const std::vector<std::vector<uint8_t>>& inputs, int invocations = 1);

// The message of the hilsim::Error that loading and preparing `model` throws, or "" if none.
std::string prepareError(const std::vector<uint8_t>& model);

}  // namespace hilsim::test
