// Reference TRANSPOSE kernel (hilsim/kernels/transpose.h): float32, int8, int16 and int32 tensors
// of 1 to 6 dimensions with a constant int32 permutation. TensorFlow Lite Micro's prepare stops
// at 5 dimensions and at float32/int8/int16; its reference arithmetic (a pure reordering) is the
// same for the 6-dimensional and int32 cases hilsim also accepts.

#include <cstdint>
#include <limits>
#include <string>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

class TransposeRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 2, 2);
    const Tensor& in = requiredInput(node, 0, "input");
    const Tensor& perm = requiredInput(node, 1, "permutation");
    const Tensor& out = *node.output(0);
    if (in.type != TensorType::FLOAT32 && in.type != TensorType::INT8 &&
        in.type != TensorType::INT16 && in.type != TensorType::INT32)
      throw ModelError("unsupported type: input " + describe(in) +
                       " (float32, int8, int16 and int32 are supported)");
    expectSameType(in, out);
    const int rank = in.rank();
    if (rank < 1 || rank > kernels::kTransposeMaxDims)
      throw ModelError("input " + describe(in) + " must have 1 to " +
                       std::to_string(kernels::kTransposeMaxDims) + " dimensions");
    // The strides are int32 (TFLite Micro's too).
    if (in.elements() > std::numeric_limits<int32_t>::max())
      throw ModelError("input " + describe(in) + " has more than 2^31 - 1 elements");
    expectConstant(perm, "permutation");
    if (perm.type != TensorType::INT32 || perm.rank() != 1 || perm.dim(0) != rank)
      throw ModelError("permutation must be an int32 vector of " + std::to_string(rank) +
                       " entries, is " + describe(perm));
    if (out.rank() != rank)
      throw ModelError("output " + describe(out) + " does not have the rank of input " +
                       describe(in));

    // A zero dimension leaves the element count small while the strides above it can still
    // overflow: each stride must fit in int32 too.
    int32_t input_strides[kernels::kTransposeMaxDims] = {};
    input_strides[rank - 1] = 1;
    for (int d = rank - 2; d >= 0; --d) {
      const int64_t stride = int64_t{input_strides[d + 1]} * in.dim(d + 1);
      if (stride > std::numeric_limits<int32_t>::max())
        throw ModelError("input " + describe(in) + " has a stride of more than 2^31 - 1 elements");
      input_strides[d] = int32_t(stride);
    }
    const int32_t* axes = perm.as<int32_t>();
    bool used[kernels::kTransposeMaxDims] = {};
    params_ = {};
    params_.rank = rank;
    for (int d = 0; d < rank; ++d) {
      const int32_t axis = axes[d];
      if (axis < 0 || axis >= rank || used[axis])
        throw ModelError("permutation " + shapeString(Shape(axes, axes + rank)) +
                         " is not a permutation of 0.." + std::to_string(rank - 1));
      used[axis] = true;
      if (out.dim(d) != in.dim(axis))
        throw ModelError("output " + describe(out) + " is not input " + describe(in) +
                         " permuted by " + shapeString(Shape(axes, axes + rank)));
      params_.output_dims[d] = out.dim(d);
      params_.input_strides[d] = input_strides[axis];
    }
    element_bytes_ = typeSize(in.type);

    OpWork work;
    work.elements = static_cast<uint64_t>(out.elements());
    return work;
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    const Tensor& in = *node.input(0);
    Tensor& out = *node.output(0);
    if (element_bytes_ == 1) {
      kernels::abi::Transpose8Call call{params_, in.as<uint8_t>(), out.as<uint8_t>()};
      runCall(ctx, call);
    } else if (element_bytes_ == 2) {
      kernels::abi::Transpose16Call call{params_, in.as<uint16_t>(), out.as<uint16_t>()};
      runCall(ctx, call);
    } else {
      kernels::abi::Transpose32Call call{params_, in.as<uint32_t>(), out.as<uint32_t>()};
      runCall(ctx, call);
    }
  }

 private:
  kernels::TransposeParams params_;
  size_t element_bytes_ = 1;
};

}  // namespace

std::unique_ptr<Kernel> makeTransposeRef() {
  return std::make_unique<TransposeRef>();
}

}  // namespace hilsim::rt
