#include "hilsim/rt/model.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "hilsim/base/io.h"
#include "hilsim/errors.h"
#include "hilsim/rt/tensor.h"
#include "hilsim/schema/flatbuffer_vectors.h"

namespace hilsim::rt {
namespace {

std::string tensorLabel(const tflite::Tensor& t, size_t index) {
  std::string label = "tensor " + std::to_string(index);
  if (t.name() && t.name()->size()) label += " ('" + t.name()->str() + "')";
  return label;
}

Shape readShape(const tflite::Tensor& t) {
  Shape shape;
  if (t.shape()) shape.assign(t.shape()->begin(), t.shape()->end());
  return shape;
}

// Scales must be positive and finite, and zero points representable in the tensor's type: the
// kernels' arithmetic is only defined for such values.
void checkQuantRanges(const std::string& label, tflite::TensorType type,
                      const tflite::QuantizationParameters& q) {
  for (const float scale : schema::copyScalars(q.scale()))
    if (!(scale > 0.0f) || !std::isfinite(scale))
      throw ModelError(label + ": quantization scale " + std::to_string(scale) +
                       " is not a positive finite number");
  int64_t lo = 0, hi = 0;
  switch (type) {
    case tflite::TensorType::INT8:
      lo = -128, hi = 127;
      break;
    case tflite::TensorType::UINT8:
      lo = 0, hi = 255;
      break;
    case tflite::TensorType::INT16:
      lo = -32768, hi = 32767;
      break;
    default:
      return;
  }
  for (const int64_t zp : schema::copyScalars(q.zero_point()))
    if (zp < lo || zp > hi)
      throw ModelError(label + ": zero point " + std::to_string(zp) + " is outside the " +
                       typeName(type) + " range " + std::to_string(lo) + ".." + std::to_string(hi));
}

// Scale and zero-point counts, and per-channel scales along a dimension of the shape.
void checkQuantization(const std::string& label, tflite::TensorType type, const Shape& shape,
                       const tflite::QuantizationParameters& q) {
  const size_t scales = q.scale() ? q.scale()->size() : 0;
  const size_t zps = q.zero_point() ? q.zero_point()->size() : 0;
  if (scales && zps && scales != zps)
    throw ModelError(label + ": " + std::to_string(scales) + " scales but " + std::to_string(zps) +
                     " zero points");
  // Converters copy the filter's quantized dimension onto rank-1 bias tensors, so a
  // vector with one scale per element is accepted whatever dimension it names.
  const int32_t qd = q.quantized_dimension();
  const bool along_qd = qd >= 0 && qd < static_cast<int32_t>(shape.size()) &&
                        static_cast<size_t>(shape[static_cast<size_t>(qd)]) == scales;
  const bool per_element_vector = shape.size() == 1 && static_cast<size_t>(shape[0]) == scales;
  if (scales > 1 && !along_qd && !per_element_vector)
    throw ModelError(label + ": " + std::to_string(scales) +
                     " per-channel scales do not match quantized dimension " +
                     std::to_string(q.quantized_dimension()) + " of shape " + shapeString(shape));
  checkQuantRanges(label, type, q);
}

}  // namespace

tflite::BuiltinOperator builtinCode(const tflite::OperatorCode& code) {
  const int32_t deprecated = code.deprecated_builtin_code();
  const int32_t current = static_cast<int32_t>(code.builtin_code());
  return static_cast<tflite::BuiltinOperator>(std::max(deprecated, current));
}

const char* opName(tflite::BuiltinOperator op) {
  const char* name = "";
  if (op >= tflite::BuiltinOperator::MIN && op <= tflite::BuiltinOperator::MAX)
    name = tflite::EnumNameBuiltinOperator(op);
  return (name && *name) ? name : "UNKNOWN_OPERATOR";
}

Model Model::fromFile(const std::string& path) {
  return fromBytes(readFile(path, "model"), path);
}

Model Model::fromBytes(std::vector<uint8_t> bytes, std::string label) {
  return Model(std::move(bytes), std::move(label));
}

Model::Model(std::vector<uint8_t> bytes, std::string label)
    : bytes_(std::move(bytes)), label_(std::move(label)) {
  const std::string where = "model '" + label_ + "': ";
  if (bytes_.size() < 8)
    throw ModelError(where + "not a TFLite model (" + std::to_string(bytes_.size()) +
                     " bytes is too short)");
  if (bytes_.size() >= (size_t{1} << 31))
    throw ModelError(where + "larger than 2 GiB, which flatbuffers cannot address");
  if (!tflite::ModelBufferHasIdentifier(bytes_.data())) {
    std::string id(reinterpret_cast<const char*>(bytes_.data()) + 4, 4);
    for (char& c : id)
      if (c < 32 || c > 126) c = '?';
    throw ModelError(where + "not a TFLite model (file identifier '" + id + "', expected 'TFL3')");
  }
  flatbuffers::Verifier verifier(bytes_.data(), bytes_.size(), /*max_depth=*/64,
                                 /*max_tables=*/10'000'000);
  if (!tflite::VerifyModelBuffer(verifier))
    throw ModelError(where + "corrupt or truncated TFLite flatbuffer (verification failed)");
  model_ = tflite::GetModel(bytes_.data());
  try {
    validate();
  } catch (const ModelError& e) {
    throw ModelError(where + e.what());
  }
}

// Checks tensor indices against one subgraph's tensor count.
struct Model::TensorIndexCheck {
  std::string sg_label;  // "" for the main subgraph, else "subgraph N: "
  size_t num_tensors;

  // `what` names the indices' owner in messages; -1 (an omitted optional tensor) passes only
  // with `allow_omitted`.
  void all(const flatbuffers::Vector<int32_t>* indices, bool allow_omitted,
           const std::string& what) const {
    if (!indices) return;
    for (int32_t index : *indices) {
      if ((allow_omitted && index == -1) ||
          (index >= 0 && static_cast<size_t>(index) < num_tensors))
        continue;
      throw ModelError(sg_label + what + ": tensor index " + std::to_string(index) +
                       " out of range (subgraph has " + std::to_string(num_tensors) + " tensors)");
    }
  }
};

void Model::validate() const {
  const auto& m = *model_;
  if (m.version() != kSupportedSchemaVersion)
    throw ModelError("unsupported schema version " + std::to_string(m.version()) +
                     " (hilsim reads version " + std::to_string(kSupportedSchemaVersion) + ")");
  if (!m.subgraphs() || m.subgraphs()->size() == 0) throw ModelError("model has no subgraph");
  validateBuffers();
  for (size_t s = 0; s < m.subgraphs()->size(); ++s) validateSubgraph(s);
  validateMetadata();
}

void Model::validateBuffers() const {
  for (size_t b = 0; b < numBuffers(); ++b) {
    const tflite::Buffer* buffer = model_->buffers()->Get(static_cast<flatbuffers::uoffset_t>(b));
    if (buffer->offset() > 1) {
      const uint64_t end = buffer->offset() + buffer->size();
      if (end < buffer->offset() || end > bytes_.size())
        throw ModelError("buffer " + std::to_string(b) + " points past the end of the file (" +
                         std::to_string(end) + " > " + std::to_string(bytes_.size()) + " bytes)");
    }
  }
}

void Model::validateSubgraph(size_t index) const {
  const tflite::SubGraph& sg =
      *model_->subgraphs()->Get(static_cast<flatbuffers::uoffset_t>(index));
  const std::string sg_label = index == 0 ? "" : "subgraph " + std::to_string(index) + ": ";
  const size_t num_tensors = sg.tensors() ? sg.tensors()->size() : 0;
  for (size_t i = 0; i < num_tensors; ++i) {
    const tflite::Tensor& t = *sg.tensors()->Get(static_cast<flatbuffers::uoffset_t>(i));
    validateTensor(t, sg_label + tensorLabel(t, i));
  }
  const TensorIndexCheck check{sg_label, num_tensors};
  check.all(sg.inputs(), false, "subgraph input");
  check.all(sg.outputs(), false, "subgraph output");
  const size_t num_ops = sg.operators() ? sg.operators()->size() : 0;
  for (size_t o = 0; o < num_ops; ++o)
    validateOperator(*sg.operators()->Get(static_cast<flatbuffers::uoffset_t>(o)),
                     sg_label + "operator " + std::to_string(o), check);
}

void Model::validateTensor(const tflite::Tensor& t, const std::string& label) const {
  if (t.buffer() >= numBuffers())
    throw ModelError(label + ": buffer index " + std::to_string(t.buffer()) +
                     " out of range (model has " + std::to_string(numBuffers()) + " buffers)");
  const Shape shape = readShape(t);
  int64_t elements = 0;
  try {
    elements = elementCount(shape);
  } catch (const ModelError& e) {
    throw ModelError(label + ": " + e.what());
  }
  if (const tflite::QuantizationParameters* q = t.quantization())
    checkQuantization(label, t.type(), shape, *q);
  const ConstBytes data = bufferData(t.buffer());
  const size_t elem = typeSize(t.type());
  // Kernels read constants as arrays of their type: the data must be aligned to it.
  const size_t offset = static_cast<size_t>(data.data - bytes_.data());
  if (data.size > 0 && elem > 1 && offset % elem != 0)
    throw ModelError(label + ": the data of buffer " + std::to_string(t.buffer()) +
                     " starts at byte " + std::to_string(offset) +
                     " of the file, which is not aligned to its " + std::to_string(elem) +
                     "-byte " + typeName(t.type()) + " elements");
  if (data.size > 0 && elem > 0 && data.size < static_cast<uint64_t>(elements) * elem)
    throw ModelError(label + ": buffer " + std::to_string(t.buffer()) + " holds " +
                     std::to_string(data.size) + " bytes but a " + typeName(t.type()) + " " +
                     shapeString(shape) + " tensor needs " +
                     std::to_string(static_cast<uint64_t>(elements) * elem));
}

void Model::validateOperator(const tflite::Operator& op, std::string label,
                             const TensorIndexCheck& check) const {
  const size_t num_codes = model_->operator_codes() ? model_->operator_codes()->size() : 0;
  if (op.opcode_index() >= num_codes)
    throw ModelError(label + ": operator code index " + std::to_string(op.opcode_index()) +
                     " out of range (model has " + std::to_string(num_codes) + " codes)");
  // The check names the subgraph itself.
  label = label.substr(check.sg_label.size()) + " (" + operatorLabel(op) + ")";
  check.all(op.inputs(), true, label + " input");
  check.all(op.outputs(), false, label + " output");
  check.all(op.intermediates(), true, label + " intermediate");
}

void Model::validateMetadata() const {
  if (!model_->metadata()) return;
  for (const tflite::Metadata* md : *model_->metadata())
    if (md->buffer() >= numBuffers())
      throw ModelError("metadata '" + (md->name() ? md->name()->str() : std::string()) +
                       "': buffer index " + std::to_string(md->buffer()) + " out of range");
}

size_t Model::numBuffers() const {
  return model_->buffers() ? model_->buffers()->size() : 0;
}

tflite::BuiltinOperator Model::opCode(const tflite::Operator& op) const {
  return builtinCode(*model_->operator_codes()->Get(op.opcode_index()));
}

std::string Model::operatorLabel(const tflite::Operator& op) const {
  const tflite::BuiltinOperator code = opCode(op);
  if (code != tflite::BuiltinOperator::CUSTOM) return opName(code);
  const tflite::OperatorCode& entry = *model_->operator_codes()->Get(op.opcode_index());
  std::string custom = entry.custom_code() ? entry.custom_code()->str() : std::string();
  for (char& c : custom)  // keep messages on one printable line
    if (c < 0x20 || c == 0x7f) c = '?';
  return custom.empty() ? std::string("CUSTOM (no custom code)") : "CUSTOM '" + custom + "'";
}

ConstBytes Model::bufferData(uint32_t buffer_index) const {
  const tflite::Buffer* buffer = model_->buffers()->Get(buffer_index);
  if (buffer->offset() > 1) return {bytes_.data() + buffer->offset(), buffer->size()};
  if (buffer->data()) return {buffer->data()->data(), buffer->data()->size()};
  return {};
}

uint8_t* Model::mutableBufferData(uint32_t buffer_index) {
  const ConstBytes data = bufferData(buffer_index);
  if (data.size == 0) return nullptr;
  return bytes_.data() + (data.data - bytes_.data());
}

}  // namespace hilsim::rt
