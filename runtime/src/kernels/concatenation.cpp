// Reference CONCATENATION kernel (hilsim/kernels/concatenation.h): float32, int8, int16, int32,
// int64 and bool, any axis of a tensor of up to 6 dimensions. Like TensorFlow Lite Micro, int8
// inputs are copied as they are even when their quantization differs from the output's.

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

constexpr int kMaxRank = 6;  // TFLite Micro's RuntimeShape limit

bool supportedType(TensorType type) {
  switch (type) {
    case TensorType::FLOAT32:
    case TensorType::INT8:
    case TensorType::INT16:
    case TensorType::INT32:
    case TensorType::INT64:
    case TensorType::BOOL:
      return true;
    default:
      return false;
  }
}

class ConcatenationRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 1, kernels::kMaxConcatenationInputs);
    const auto* options = node.op_fb->builtin_options_as_ConcatenationOptions();
    if (!options) throw ModelError("missing ConcatenationOptions");
    if (options->fused_activation_function() != tflite::ActivationFunctionType::NONE)
      throw ModelError(
          std::string("fused activation ") +
          tflite::EnumNameActivationFunctionType(options->fused_activation_function()) +
          " is not supported (TFLite Micro requires NONE)");
    const Tensor& out = *node.output(0);
    if (!supportedType(out.type))
      throw ModelError("unsupported type: output " + describe(out) +
                       " (float32, int8, int16, int32, int64 and bool are supported)");
    const int rank = out.rank();
    if (rank < 1 || rank > kMaxRank)
      throw ModelError("output " + describe(out) + " must have 1 to " + std::to_string(kMaxRank) +
                       " dimensions");
    const int32_t axis_option = options->axis();
    if (axis_option < -rank || axis_option >= rank)
      throw ModelError("axis " + std::to_string(axis_option) + " is out of range for output " +
                       describe(out));
    const int axis = axis_option < 0 ? axis_option + rank : axis_option;

    params_ = {};
    // The kernel's sizes are 32-bit; every one is at most the output's byte count.
    if (out.bytes > std::numeric_limits<uint32_t>::max())
      throw ModelError("output " + describe(out) + " has more than 2^32 - 1 bytes");
    params_.inputs = static_cast<int32_t>(node.inputs.size());
    size_t inner = typeSize(out.type);
    for (int d = axis + 1; d < rank; ++d) inner *= static_cast<size_t>(out.dim(d));
    size_t outer = 1;
    for (int d = 0; d < axis; ++d) outer *= static_cast<size_t>(out.dim(d));
    params_.outer_count = static_cast<uint32_t>(outer);
    int64_t axis_total = 0;
    inputs_.clear();
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      const std::string role = "input " + std::to_string(i);
      const Tensor& in = requiredInput(node, i, role.c_str());
      expectSameType(in, out, role);
      if (in.rank() != rank)
        throw ModelError(role + " " + describe(in) + " does not have the rank of output " +
                         describe(out));
      for (int d = 0; d < rank; ++d)
        if (d != axis && in.dim(d) != out.dim(d))
          throw ModelError(role + " " + describe(in) + " differs from output " + describe(out) +
                           " in dimension " + std::to_string(d) + " (the axis is " +
                           std::to_string(axis) + ")");
      axis_total += in.dim(axis);
      params_.slab_bytes[i] = static_cast<uint32_t>(static_cast<size_t>(in.dim(axis)) * inner);
      inputs_.push_back(&in);
    }
    if (axis_total != out.dim(axis))
      throw ModelError("the inputs' dimension " + std::to_string(axis) + " adds up to " +
                       std::to_string(axis_total) + ", output " + describe(out) + " has " +
                       std::to_string(out.dim(axis)));

    OpWork work;
    work.elements = static_cast<uint64_t>(out.elements());
    return work;
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    kernels::abi::ConcatenationCall call;
    call.params = params_;
    for (size_t i = 0; i < inputs_.size(); ++i) call.inputs[i] = inputs_[i]->data;
    call.output = node.output(0)->data;
    runCall(ctx, call);
  }

 private:
  kernels::ConcatenationParams params_;
  std::vector<const Tensor*> inputs_;
};

}  // namespace

std::unique_ptr<Kernel> makeConcatenationRef() {
  return std::make_unique<ConcatenationRef>();
}

}  // namespace hilsim::rt
