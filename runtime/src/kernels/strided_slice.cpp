// Reference STRIDED_SLICE kernel (hilsim/kernels/strided_slice.h): float32, int8, int16, int32 and
// bool tensors of 1 to 4 dimensions with constant int32 begin, end and strides, begin/end masks,
// negative indices and strides, and shrink_axis_mask. The ellipsis and new-axis masks and the
// offset option are ignored, as TensorFlow Lite Micro ignores them (it builds its slice with both
// masks 0): such a model runs when its output has the shape of the slice without them.

#include <algorithm>
#include <cstdint>
#include <string>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

constexpr int kMaxRank = 4;  // TFLite Micro's limit

const int32_t* indexVector(const Tensor& t, const char* role, int rank) {
  expectConstant(t, role);
  if (t.type != TensorType::INT32 || t.rank() != 1 || t.dim(0) != rank)
    throw ModelError(std::string(role) + " must be an int32 vector of " + std::to_string(rank) +
                     " entries, is " + describe(t));
  return t.as<int32_t>();
}

// Visits of `start`, `start + stride`, ... before `stop`.
int64_t visits(int32_t start, int32_t stop, int32_t stride) {
  const int64_t span = int64_t{stop} - start;
  if (stride > 0) return span > 0 ? (span + stride - 1) / stride : 0;
  return span < 0 ? (-span + (-int64_t{stride}) - 1) / -int64_t{stride} : 0;
}

class StridedSliceRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 4, 4);
    const Tensor& in = requiredInput(node, 0, "input");
    const Tensor& out = *node.output(0);
    const auto* options = node.op_fb->builtin_options_as_StridedSliceOptions();
    if (!options) throw ModelError("missing StridedSliceOptions");
    if (in.type != TensorType::FLOAT32 && in.type != TensorType::INT8 &&
        in.type != TensorType::INT16 && in.type != TensorType::INT32 && in.type != TensorType::BOOL)
      throw ModelError("unsupported type: input " + describe(in) +
                       " (float32, int8, int16, int32 and bool are supported)");
    expectSameType(in, out);
    const int rank = in.rank();
    if (rank < 1 || rank > kMaxRank)
      throw ModelError("input " + describe(in) + " must have 1 to " + std::to_string(kMaxRank) +
                       " dimensions");
    const int32_t* begin = indexVector(requiredInput(node, 1, "begin"), "begin", rank);
    const int32_t* end = indexVector(requiredInput(node, 2, "end"), "end", rank);
    const int32_t* strides = indexVector(requiredInput(node, 3, "strides"), "strides", rank);
    const auto masked = [](int32_t mask, int axis) { return (mask >> axis) & 1; };

    params_ = {};
    const int lead = kernels::kStridedSliceDims - rank;
    Shape expected;
    int64_t elements = 1;
    for (int d = 0; d < rank; ++d) {
      const int32_t size = in.dim(d);
      const int32_t stride = strides[d];
      if (stride == 0) throw ModelError("stride of dimension " + std::to_string(d) + " is 0");
      const auto clampIndex = [size, stride](int32_t index) {
        if (index < 0) index += size;
        return stride > 0 ? std::clamp(index, 0, size) : std::clamp(index, -1, size - 1);
      };
      int32_t start = clampIndex(begin[d]);
      if (masked(options->begin_mask(), d)) start = stride > 0 ? 0 : size - 1;
      int32_t stop = 0;
      if (masked(options->shrink_axis_mask(), d)) {
        if (!masked(options->begin_mask(), d) && (begin[d] < -size || begin[d] >= size))
          throw ModelError("shrunk dimension " + std::to_string(d) + " index " +
                           std::to_string(begin[d]) + " is outside input " + describe(in));
        if (stride < 0)
          throw ModelError("shrunk dimension " + std::to_string(d) +
                           " has a negative stride (TFLite Micro would write no output)");
        stop = start + 1;
      } else {
        stop = clampIndex(end[d]);
        if (masked(options->end_mask(), d)) stop = stride > 0 ? size : -1;
        expected.push_back(static_cast<int32_t>(visits(start, stop, stride)));
      }
      elements *= visits(start, stop, stride);
      params_.input_dims[lead + d] = size;
      params_.start[lead + d] = start;
      params_.stop[lead + d] = stop;
      params_.stride[lead + d] = stride;
    }
    if (out.shape != expected)
      throw ModelError("output " + describe(out) + " does not have the sliced shape " +
                       shapeString(expected));
    if (out.elements() != elements)
      throw ModelError("output " + describe(out) + " does not hold the " +
                       std::to_string(elements) + " sliced elements");
    element_bytes_ = typeSize(in.type);

    OpWork work;
    work.elements = static_cast<uint64_t>(elements);
    return work;
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    const Tensor& in = *node.input(0);
    Tensor& out = *node.output(0);
    if (element_bytes_ == 1) {
      kernels::abi::StridedSlice8Call call{params_, in.as<uint8_t>(), out.as<uint8_t>()};
      runCall(ctx, call);
    } else if (element_bytes_ == 2) {
      kernels::abi::StridedSlice16Call call{params_, in.as<uint16_t>(), out.as<uint16_t>()};
      runCall(ctx, call);
    } else {
      kernels::abi::StridedSlice32Call call{params_, in.as<uint32_t>(), out.as<uint32_t>()};
      runCall(ctx, call);
    }
  }

 private:
  kernels::StridedSliceParams params_;
  size_t element_bytes_ = 1;
};

}  // namespace

std::unique_ptr<Kernel> makeStridedSliceRef() {
  return std::make_unique<StridedSliceRef>();
}

}  // namespace hilsim::rt
