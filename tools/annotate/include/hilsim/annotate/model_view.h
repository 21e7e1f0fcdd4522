#pragma once
// What `hilsim inspect` shows of a model, gathered once and printed as text or JSON.

#include <cstdint>
#include <string>
#include <vector>

#include "hilsim/rt/model.h"

namespace hilsim::annotate {

struct TensorView {
  int index = 0;
  std::string name;
  std::string type;
  std::vector<int32_t> shape;
  std::vector<float> scales;
  std::vector<int64_t> zero_points;
  int32_t quantized_dimension = 0;
  uint32_t buffer = 0;
  uint64_t data_bytes = 0;  // constant data, 0 for activations
  bool is_variable = false;
};

struct OperatorView {
  int index = 0;
  std::string op;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::string options;  // short summary, e.g. "activation RELU"
  uint64_t custom_options_bytes = 0;
  std::string annotation;  // summary of a hilsim plan, or empty
  bool supported = true;   // hilsim has a kernel for it
  uint64_t macs = 0;       // per invocation, when the model is runnable
};

struct ModelView {
  std::string path;
  uint64_t bytes = 0;
  uint32_t version = 0;
  std::string description;
  size_t subgraphs = 0;
  std::vector<TensorView> tensors;
  std::vector<OperatorView> operators;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::vector<std::pair<std::string, uint64_t>> metadata;  // name, bytes
  uint64_t annotated = 0;                                  // operators carrying a hilsim plan
  uint64_t invalid_annotations = 0;
  std::vector<std::string> unsupported;  // "operator 3 (CUSTOM 'SignalWindow')", in order
  bool runnable = false;
  std::string run_status;  // "arena N bytes" or the error
  uint64_t arena_bytes = 0;
  uint64_t macs = 0;
};

ModelView describeModel(rt::Model& model);
std::string modelViewText(const ModelView& view);
std::string modelViewJson(const ModelView& view);

}  // namespace hilsim::annotate
