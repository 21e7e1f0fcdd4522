// Reference RESHAPE kernel: a byte copy (copy_kernel.h). The output tensor's shape from the model
// is authoritative (as in TFLite Micro); the requested shape (constant shape input, else
// ReshapeOptions.new_shape) is checked against it.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "copy_kernel.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

// The shape the operator asks for, if the model states it in a way prepare can read.
std::optional<Shape> requestedShape(const Node& node) {
  if (const Tensor* shape = node.input(1)) {
    if (!shape->is_constant) return std::nullopt;  // computed at run time
    if (shape->type != TensorType::INT32 || shape->rank() > 1)
      throw ModelError("shape input must be a 1-D int32 tensor, is " + describe(*shape));
    const int32_t* dims = shape->as<int32_t>();
    return Shape(dims, dims + shape->elements());
  }
  const auto* options = node.op_fb->builtin_options_as_ReshapeOptions();
  if (!options || !options->new_shape()) return std::nullopt;
  Shape dims(options->new_shape()->begin(), options->new_shape()->end());
  // Legacy converters wrote [0] for a scalar.
  if (dims.size() == 1 && dims[0] == 0) dims.clear();
  return dims;
}

// Resolves a single -1 entry so that the shape holds `elements` elements.
Shape resolveStretch(Shape dims, int64_t elements) {
  int stretch = -1;
  int64_t known = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == -1) {
      if (stretch >= 0) throw ModelError("requested shape " + shapeString(dims) + " has two -1");
      stretch = static_cast<int>(i);
    } else if (dims[i] < 0) {
      throw ModelError("requested shape " + shapeString(dims) + " has a negative dimension");
    } else {
      if (dims[i] != 0 && known > std::numeric_limits<int64_t>::max() / dims[i])
        throw ModelError("requested shape " + shapeString(dims) + " has too many elements");
      known *= dims[i];
    }
  }
  if (stretch >= 0) {
    if (known == 0 || elements % known != 0 ||
        elements / known > std::numeric_limits<int32_t>::max())
      throw ModelError("requested shape " + shapeString(dims) + " cannot hold " +
                       std::to_string(elements) + " elements");
    dims[static_cast<size_t>(stretch)] = static_cast<int32_t>(elements / known);
  }
  return dims;
}

class ReshapeRef final : public ByteCopyKernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 1, 2);
    const Tensor& in = requiredInput(node, 0, "input");
    Tensor& out = *node.output(0);
    prepareCopy(in, out);
    const int64_t elements = in.elements();
    if (out.elements() != elements)
      throw ModelError("output " + describe(out) + " does not hold the " +
                       std::to_string(elements) + " elements of input " + describe(in));
    if (const std::optional<Shape> requested = requestedShape(node)) {
      const Shape resolved = resolveStretch(*requested, elements);
      if (resolved != out.shape)
        throw ModelError("requested shape " + shapeString(*requested) + " (resolved " +
                         shapeString(resolved) + ") does not match output " + describe(out));
    }
    OpWork work;
    work.elements = in.bytes;  // the cost model's RESHAPE term is per byte copied
    return work;
  }
};

}  // namespace

std::unique_ptr<Kernel> makeReshapeRef() {
  return std::make_unique<ReshapeRef>();
}

}  // namespace hilsim::rt
