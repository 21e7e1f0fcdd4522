// Reference DEQUANTIZE kernel: int8/int16 -> float32 with TensorFlow Lite Micro's arithmetic
// (dequantize_common.cc, reference/dequantize.h): float(scale) * (q - zero_point) in float32.
// The product of a float and an integer below 2^17 is exact in double, so this single float
// rounding equals float(double(scale) * (q - zero_point)).

#include <cstdint>
#include <string>

#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

struct DequantizeParams {
  const Tensor* input = nullptr;
  Tensor* output = nullptr;
  size_t count = 0;
  float scale = 0.0f;
  int32_t zero_point = 0;
};

using DequantizeFn = void (*)(const DequantizeParams&);

template <typename In>
void dequantize(const DequantizeParams& p) {
  const In* input = p.input->as<In>();
  float* output = p.output->as<float>();
  for (size_t i = 0; i < p.count; ++i)
    output[i] = p.scale * static_cast<float>(static_cast<int32_t>(input[i]) - p.zero_point);
}

class DequantizeRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 1, 1);
    const Tensor& in = requiredInput(node, 0, "input");
    Tensor& out = *node.output(0);
    if (in.elements() != out.elements())
      throw ModelError("input " + describe(in) + " and output " + describe(out) +
                       " have different element counts");
    if (out.type != TensorType::FLOAT32)
      throw ModelError("output must be float32, is " + describe(out));
    if (in.type == TensorType::INT8)
      run_ = dequantize<int8_t>;
    else if (in.type == TensorType::INT16)
      run_ = dequantize<int16_t>;
    else
      throw ModelError("input must be int8 or int16, is " + describe(in));
    expectQuantized(in, "input");
    if (in.quant.scale.size() != 1)
      throw ModelError("per-channel dequantization is not supported (input has " +
                       std::to_string(in.quant.scale.size()) + " scales)");

    params_ = {&in, &out, static_cast<size_t>(in.elements()), in.quant.scale0(),
               in.quant.zero_point0()};
    OpWork work;
    work.elements = params_.count;
    return work;
  }

  void invoke(InvokeContext&, Node&) override { run_(params_); }

 private:
  DequantizeParams params_;
  DequantizeFn run_ = nullptr;
};

}  // namespace

std::unique_ptr<Kernel> makeDequantizeRef() {
  return std::make_unique<DequantizeRef>();
}

}  // namespace hilsim::rt
