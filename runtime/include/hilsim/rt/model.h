#pragma once
// A verified .tflite model. Loading runs flatbuffers::Verifier and then checks every index and
// size the runtime relies on, so later code can use the flatbuffer without bounds checks.

#include <cstdint>
#include <string>
#include <vector>

#include "hilsim/schema/tflite_generated.h"

namespace hilsim::rt {

// The schema version hilsim reads (TFLite's current one).
constexpr uint32_t kSupportedSchemaVersion = 3;

struct ConstBytes {
  const uint8_t* data = nullptr;
  size_t size = 0;
};

class Model {
 public:
  // Reads and validates a file. Throws ModelError (or InputError if unreadable).
  static Model fromFile(const std::string& path);
  // Validates bytes already in memory; `label` names them in errors.
  static Model fromBytes(std::vector<uint8_t> bytes, std::string label);

  Model(Model&&) noexcept = default;
  Model& operator=(Model&&) noexcept = default;

  const tflite::Model& fb() const { return *model_; }
  const std::string& label() const { return label_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

  // The first subgraph, which the interpreter runs.
  const tflite::SubGraph& mainSubgraph() const { return *model_->subgraphs()->Get(0); }
  // The builtin code of an operator (the larger of the deprecated and current fields).
  tflite::BuiltinOperator opCode(const tflite::Operator& op) const;
  // The operator's name for messages: its builtin name ("FULLY_CONNECTED"), or for a custom
  // operator its custom code ("CUSTOM 'SignalWindow'").
  std::string operatorLabel(const tflite::Operator& op) const;
  // Data of a buffer (empty if it holds none). Index validated at load.
  ConstBytes bufferData(uint32_t buffer_index) const;
  // Mutable view of a constant buffer, for tensors whose data the runtime points at.
  uint8_t* mutableBufferData(uint32_t buffer_index);

 private:
  Model(std::vector<uint8_t> bytes, std::string label);
  struct TensorIndexCheck;

  // Checks run at load; each throws ModelError naming what is wrong (without the model label).
  void validate() const;
  void validateBuffers() const;
  void validateSubgraph(size_t index) const;
  void validateTensor(const tflite::Tensor& t, const std::string& label) const;
  // `label` names the operator ("operator N", prefixed for subgraphs other than the first).
  void validateOperator(const tflite::Operator& op, std::string label,
                        const TensorIndexCheck& check) const;
  void validateMetadata() const;
  size_t numBuffers() const;

  std::vector<uint8_t> bytes_;
  std::string label_;
  const tflite::Model* model_ = nullptr;
};

// Name of a builtin operator, e.g. "FULLY_CONNECTED".
const char* opName(tflite::BuiltinOperator op);
// The builtin code of an operator code entry (max of deprecated and current field).
tflite::BuiltinOperator builtinCode(const tflite::OperatorCode& code);

}  // namespace hilsim::rt
