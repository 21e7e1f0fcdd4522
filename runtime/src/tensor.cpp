#include "hilsim/rt/tensor.h"

#include <limits>
#include <sstream>

#include "hilsim/errors.h"
#include "hilsim/rt/layer_record.h"

namespace hilsim::rt {

size_t typeSize(TensorType type) {
  switch (type) {
    case TensorType::FLOAT32: return 4;
    case TensorType::INT32: return 4;
    case TensorType::UINT32: return 4;
    case TensorType::INT16: return 2;
    case TensorType::UINT16: return 2;
    case TensorType::INT8: return 1;
    case TensorType::UINT8: return 1;
    case TensorType::BOOL: return 1;
    case TensorType::INT64: return 8;
    case TensorType::UINT64: return 8;
    case TensorType::FLOAT64: return 8;
    case TensorType::FLOAT16: return 2;
    default: return 0;
  }
}

const char* typeName(TensorType type) { return tflite::EnumNameTensorType(type); }

std::string shapeString(const Shape& shape) {
  std::ostringstream out;
  out << '[';
  for (size_t i = 0; i < shape.size(); ++i) out << (i ? "," : "") << shape[i];
  out << ']';
  return out.str();
}

int64_t elementCount(const Shape& shape) {
  int64_t count = 1;
  for (int32_t d : shape) {
    if (d < 0) throw ModelError("negative dimension in shape " + shapeString(shape));
    if (d != 0 && count > std::numeric_limits<int64_t>::max() / 8 / d)
      throw ModelError("shape " + shapeString(shape) + " has too many elements");
    count *= d;
  }
  return count;
}

int64_t Tensor::elements() const { return elementCount(shape); }

const char* pathName(ExecPath path) { return path == ExecPath::kAccel ? "accel" : "ref"; }

}  // namespace hilsim::rt
