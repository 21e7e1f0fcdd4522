#pragma once
// A tensor of the running model: metadata from the flatbuffer plus a pointer to its bytes, which
// live either in the model's buffer (constants) or in the interpreter's arena.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hilsim/schema/tflite_generated.h"

namespace hilsim::rt {

using tflite::TensorType;

struct QuantParams {
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int32_t quantized_dimension = 0;

  bool empty() const { return scale.empty(); }
  // Per-tensor scale and zero point (the first entry); 0 when not quantized.
  float scale0() const { return scale.empty() ? 0.0f : scale[0]; }
  int32_t zero_point0() const {
    return zero_point.empty() ? 0 : static_cast<int32_t>(zero_point[0]);
  }
};

using Shape = std::vector<int32_t>;

struct Tensor {
  int index = -1;
  std::string name;
  TensorType type = TensorType::FLOAT32;
  Shape shape;
  QuantParams quant;
  uint8_t* data = nullptr;  // constant data in the model, or arena memory after allocate()
  size_t bytes = 0;
  bool is_constant = false;  // data comes from a model buffer
  bool is_variable = false;  // persistent state (e.g. SVDF memory), zeroed at allocation

  int64_t elements() const;
  int rank() const { return static_cast<int>(shape.size()); }
  int32_t dim(int i) const { return shape.at(static_cast<size_t>(i)); }

  template <typename T>
  T* as() {
    return reinterpret_cast<T*>(data);
  }
  template <typename T>
  const T* as() const {
    return reinterpret_cast<const T*>(data);
  }
};

// Bytes of one element of the type, or 0 for types the runtime does not handle.
size_t typeSize(TensorType type);
const char* typeName(TensorType type);
std::string shapeString(const Shape& shape);
// Product of the dims; throws ModelError on negative dims or overflow.
int64_t elementCount(const Shape& shape);

}  // namespace hilsim::rt
