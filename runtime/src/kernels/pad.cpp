// Reference PAD and PADV2 kernels (hilsim/kernels/pad.h): float32, int8, int16 and int32 tensors
// of up to 5 dimensions, constant int32 paddings. As in TensorFlow Lite Micro both operators take
// an optional third input, the scalar pad value; without it int8 pads with the output zero point
// and the other types with 0.

#include <cstdint>
#include <string>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

class PadRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 2, 3);
    const Tensor& in = requiredInput(node, 0, "input");
    const Tensor& paddings = requiredInput(node, 1, "paddings");
    const Tensor& out = *node.output(0);
    type_ = in.type;
    if (type_ != TensorType::FLOAT32 && type_ != TensorType::INT8 && type_ != TensorType::INT16 &&
        type_ != TensorType::INT32)
      throw ModelError("unsupported type: input " + describe(in) +
                       " (float32, int8, int16 and int32 are supported)");
    expectSameType(in, out);
    const int rank = in.rank();
    if (rank > kernels::kPadDims)
      throw ModelError("input " + describe(in) + " has more than " +
                       std::to_string(kernels::kPadDims) + " dimensions");
    if (out.rank() != rank)
      throw ModelError("output " + describe(out) + " does not have the rank of input " +
                       describe(in));

    expectConstant(paddings, "paddings");
    if (paddings.type != TensorType::INT32)
      throw ModelError("paddings must be int32 (TFLite Micro reads them as int32), is " +
                       describe(paddings));
    if (paddings.elements() != 2 * rank)
      throw ModelError("paddings " + describe(paddings) + " must hold a (before, after) pair for " +
                       "each of the " + std::to_string(rank) + " dimensions");
    const int32_t* pads = paddings.as<int32_t>();
    params_ = {};
    const int lead = kernels::kPadDims - rank;
    for (int d = 0; d < rank; ++d) {
      const int32_t before = pads[2 * d];
      const int32_t after = pads[2 * d + 1];
      if (before < 0 || after < 0)
        throw ModelError("paddings of dimension " + std::to_string(d) + " are negative (" +
                         std::to_string(before) + ", " + std::to_string(after) + ")");
      if (int64_t{in.dim(d)} + before + after != out.dim(d))
        throw ModelError("output " + describe(out) + " dimension " + std::to_string(d) +
                         " is not input " + describe(in) + " padded by (" + std::to_string(before) +
                         ", " + std::to_string(after) + ")");
      params_.output_dims[lead + d] = out.dim(d);
      params_.left[lead + d] = before;
      params_.right[lead + d] = after;
    }

    constant_ = node.input(2);
    if (constant_) {
      if (constant_->type != type_)
        throw ModelError("pad value " + describe(*constant_) + " does not have the type of input " +
                         describe(in));
      if (constant_->elements() != 1)
        throw ModelError("pad value " + describe(*constant_) + " must be a single element");
    }
    default_int8_ = 0;
    if (type_ == TensorType::INT8) {
      const int32_t zero_point = out.quant.zero_point0();
      if (!constant_) {
        // The loader keeps int8 zero points in range.
        default_int8_ = static_cast<int8_t>(zero_point);
      } else if (constant_->quant.zero_point0() != zero_point ||
                 constant_->quant.scale0() != out.quant.scale0()) {
        throw ModelError("pad value " + describe(*constant_) +
                         " must have the output's scale and zero point");
      }
    }

    OpWork work;
    work.elements = static_cast<uint64_t>(out.elements());
    return work;
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    const Tensor& in = *node.input(0);
    Tensor& out = *node.output(0);
    switch (type_) {
      case TensorType::INT8:
        run<kernels::abi::PadInt8Call>(ctx, in, out, default_int8_);
        break;
      case TensorType::INT16:
        run<kernels::abi::PadInt16Call>(ctx, in, out, int16_t{0});
        break;
      case TensorType::INT32:
        run<kernels::abi::PadInt32Call>(ctx, in, out, int32_t{0});
        break;
      default:
        run<kernels::abi::PadFloatCall>(ctx, in, out, 0.0f);
        break;
    }
  }

 private:
  // The pad value is read at invoke: the optional input may be computed by an earlier operator.
  template <class Call, class T>
  void run(InvokeContext& ctx, const Tensor& in, Tensor& out, T default_value) const {
    Call call{params_, in.as<T>(), constant_ ? *constant_->as<T>() : default_value, out.as<T>()};
    runCall(ctx, call);
  }

  kernels::PadParams params_;
  TensorType type_ = TensorType::FLOAT32;
  const Tensor* constant_ = nullptr;  // the optional pad value, read at invoke
  int8_t default_int8_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makePadRef() {
  return std::make_unique<PadRef>();
}

}  // namespace hilsim::rt
