// Reference MEAN kernel (hilsim/kernels/reduce.h): float32, int8 and int16 inputs of 1 to 5
// dimensions reduced over any number of the axes of a constant int32 tensor (negative axes count
// from the end, repeats are ignored), as TensorFlow Lite Micro does. Integer means are always
// requantized, also when input and output share their quantization (TFLite Micro's
// EvalIntegerMean has no separate path for that case).

#include <cstdint>
#include <limits>
#include <string>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/kernels/reduce.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"
#include "hilsim/rt/quant.h"

namespace hilsim::rt {
namespace {

class MeanRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext& ctx, Node& node) override {
    expectArity(node, 2, 2);
    const Tensor& in = requiredInput(node, 0, "input");
    const Tensor& axes = requiredInput(node, 1, "axis");
    const Tensor& out = *node.output(0);
    if (!node.op_fb->builtin_options_as_ReducerOptions())
      throw ModelError("missing ReducerOptions");
    type_ = in.type;
    if (type_ != TensorType::FLOAT32 && type_ != TensorType::INT8 && type_ != TensorType::INT16)
      throw ModelError("unsupported type: input " + describe(in) +
                       " (float32, int8 and int16 are supported)");
    expectSameType(in, out);
    const int rank = in.rank();
    if (rank < 1 || rank > kernels::kMeanMaxDims)
      throw ModelError("input " + describe(in) + " must have 1 to " +
                       std::to_string(kernels::kMeanMaxDims) + " dimensions");
    if (in.elements() == 0) throw ModelError("input " + describe(in) + " is empty");
    // Counts, strides and the 1/N folding are int32 (TFLite Micro's too).
    if (in.elements() > std::numeric_limits<int32_t>::max())
      throw ModelError("input " + describe(in) + " has more than 2^31 - 1 elements");

    expectConstant(axes, "axis");
    if (axes.type != TensorType::INT32)
      throw ModelError("axis must be int32, is " + describe(axes));
    bool reduced[kernels::kMeanMaxDims] = {};
    for (int64_t i = 0; i < axes.elements(); ++i) {
      const int32_t axis = axes.as<int32_t>()[i];
      if (axis < -rank || axis >= rank)
        throw ModelError("axis " + std::to_string(axis) + " is out of range for input " +
                         describe(in));
      const int resolved = axis < 0 ? axis + rank : axis;
      reduced[resolved] = true;
    }

    params_ = {};
    params_.rank = rank;
    int64_t outputs = 1;
    int64_t count = 1;
    for (int d = rank - 1; d >= 0; --d) {
      params_.input_dims[d] = in.dim(d);
      if (reduced[d]) {
        count *= in.dim(d);
      } else {
        params_.output_strides[d] = static_cast<int32_t>(outputs);
        outputs *= in.dim(d);
      }
    }
    if (out.elements() != outputs)
      throw ModelError("output " + describe(out) + " does not hold the " + std::to_string(outputs) +
                       " means of input " + describe(in));
    params_.output_count = static_cast<int32_t>(outputs);
    params_.reduced_count = static_cast<int32_t>(count);

    if (type_ != TensorType::FLOAT32) {
      expectQuantized(in, "input");
      expectQuantized(out, "output");
      const int32_t in_zp = in.quant.zero_point0();
      const int32_t out_zp = out.quant.zero_point0();
      params_.input_zero_point = in_zp;
      params_.output_zero_point = out_zp;
      const QuantizedMultiplier qm = quantizeMultiplier(static_cast<double>(in.quant.scale0()) /
                                                        static_cast<double>(out.quant.scale0()));
      params_.multiplier = qm.multiplier;
      params_.shift = qm.shift;
      kernels::foldReductionCount(params_.reduced_count, &params_.multiplier, &params_.shift);
      sums_scratch_ = ctx.requestScratch(static_cast<size_t>(outputs) * sizeof(int32_t));
    }

    OpWork work;
    work.elements = static_cast<uint64_t>(in.elements());
    work.outputs = static_cast<uint64_t>(outputs);
    return work;
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    const Tensor& in = *node.input(0);
    Tensor& out = *node.output(0);
    if (type_ == TensorType::FLOAT32) {
      kernels::abi::MeanFloatCall call{params_, in.as<float>(), out.as<float>()};
      runCall(ctx, call);
      return;
    }
    auto* sums = reinterpret_cast<int32_t*>(ctx.scratch(sums_scratch_));
    if (type_ == TensorType::INT8) {
      kernels::abi::MeanInt8Call call{params_, in.as<int8_t>(), sums, out.as<int8_t>()};
      runCall(ctx, call);
    } else {
      kernels::abi::MeanInt16Call call{params_, in.as<int16_t>(), sums, out.as<int16_t>()};
      runCall(ctx, call);
    }
  }

 private:
  kernels::MeanParams params_;
  TensorType type_ = TensorType::FLOAT32;
  int sums_scratch_ = -1;
};

}  // namespace

std::unique_ptr<Kernel> makeMeanRef() {
  return std::make_unique<MeanRef>();
}

}  // namespace hilsim::rt
