#include "elementwise_common.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "hilsim/rt/kernels/kernel_util.h"

namespace hilsim::rt {
namespace {

using tflite::ActivationFunctionType;

// The range of values a quantized integer tensor type holds; false for other types.
bool integerRange(TensorType type, int64_t* min, int64_t* max) {
  switch (type) {
    case TensorType::INT8:
      *min = -128;
      *max = 127;
      return true;
    case TensorType::UINT8:
      *min = 0;
      *max = 255;
      return true;
    case TensorType::INT16:
      *min = -32768;
      *max = 32767;
      return true;
    case TensorType::INT32:
      *min = std::numeric_limits<int32_t>::min();
      *max = std::numeric_limits<int32_t>::max();
      return true;
    default:
      return false;
  }
}

void checkQuantization(const Tensor& t, const char* role) {
  if (!(t.quant.scale0() > 0.0f) || !std::isfinite(t.quant.scale0()))
    throw ModelError(std::string(role) + " " + describe(t) + " has a non-positive scale " +
                     std::to_string(t.quant.scale0()));
  if (t.quant.scale.size() != 1)
    throw ModelError(std::string(role) + " " + describe(t) + " must be quantized per tensor, has " +
                     std::to_string(t.quant.scale.size()) + " scales");
  if (t.quant.zero_point.size() > 1)
    throw ModelError(std::string(role) + " " + describe(t) + " must have one zero point, has " +
                     std::to_string(t.quant.zero_point.size()));
  int64_t min = 0;
  int64_t max = 0;
  const int64_t zero_point = t.quant.zero_point.empty() ? 0 : t.quant.zero_point[0];
  if (integerRange(t.type, &min, &max) && (zero_point < min || zero_point > max))
    throw ModelError(std::string(role) + " " + describe(t) + " has zero point " +
                     std::to_string(zero_point) + " outside [" + std::to_string(min) + ", " +
                     std::to_string(max) + "]");
}

// TFLite's Quantize() of an activation bound: zero_point + int32(round(value / scale)).
int64_t quantizeBound(float value, float scale, int32_t zero_point) {
  const float rounded = std::round(value / scale);
  if (!(rounded >= -2147483648.0f && rounded <= 2147483647.0f))
    throw ModelError("activation bound " + std::to_string(value) + " / output scale " +
                     std::to_string(scale) + " does not fit in int32");
  return int64_t{zero_point} + static_cast<int64_t>(rounded);
}

kernels::QuantizedAddParams fillAddMultipliers(double input1_ratio, double input2_ratio,
                                               double output_ratio, int32_t left_shift) {
  const auto smallerThanOne = [](double ratio, const char* what) {
    if (!(ratio > 0.0 && ratio < 1.0))
      throw ModelError(std::string(what) + " rescaling factor " + std::to_string(ratio) +
                       " must lie in (0, 1) (the quantization scales are inconsistent)");
    return quantizeMultiplier(ratio);
  };
  const QuantizedMultiplier m1 = smallerThanOne(input1_ratio, "input1");
  const QuantizedMultiplier m2 = smallerThanOne(input2_ratio, "input2");
  const QuantizedMultiplier mo = smallerThanOne(output_ratio, "output");
  kernels::QuantizedAddParams p;
  p.left_shift = left_shift;
  p.input1_multiplier = m1.multiplier;
  p.input1_shift = m1.shift;
  p.input2_multiplier = m2.multiplier;
  p.input2_shift = m2.shift;
  p.output_multiplier = mo.multiplier;
  p.output_shift = mo.shift;
  return p;
}

}  // namespace

void expectSameTypes(const Tensor& in1, const Tensor& in2, const Tensor& out) {
  if (in1.type != in2.type || in1.type != out.type)
    throw ModelError("input1 " + describe(in1) + ", input2 " + describe(in2) + " and output " +
                     describe(out) + " must have one type");
}

kernels::BroadcastLoops planBinaryBroadcast(const Tensor& in1, const Tensor& in2,
                                            const Tensor& out) {
  kernels::BroadcastLoops loops;
  int32_t shape[kernels::kMaxBroadcastRank] = {};
  int32_t rank = 0;
  const kernels::BroadcastStatus status = kernels::planBroadcast(
      in1.shape.data(), in1.rank(), in2.shape.data(), in2.rank(), &loops, shape, &rank);
  const std::string operands = "input1 " + describe(in1) + " and input2 " + describe(in2);
  switch (status) {
    case kernels::BroadcastStatus::kOk:
      break;
    case kernels::BroadcastStatus::kRankTooLarge:
      throw ModelError(operands + ": at most " + std::to_string(kernels::kMaxBroadcastRank) +
                       " dimensions are supported");
    case kernels::BroadcastStatus::kIncompatible:
      throw ModelError(operands + " do not broadcast (a dimension differs and neither is 1)");
    case kernels::BroadcastStatus::kNegativeDim:
      throw ModelError(operands + " have a negative dimension");
  }
  // The output may carry extra leading ones: the elements and their order are the same.
  const Shape broadcast(shape, shape + rank);
  const int out_rank = out.rank();
  const int common = std::min(out_rank, static_cast<int>(rank));
  bool same = std::equal(out.shape.end() - common, out.shape.end(), broadcast.end() - common);
  for (int i = 0; i < out_rank - common; ++i) same = same && out.shape[size_t(i)] == 1;
  for (int i = 0; i < static_cast<int>(rank) - common; ++i)
    same = same && broadcast[size_t(i)] == 1;
  if (!same)
    throw ModelError("output " + describe(out) + " is not the broadcast shape " +
                     shapeString(broadcast) + " of " + operands);
  return loops;
}

void expectPerTensorQuantized(const Tensor& t, const char* role) {
  if (t.quant.empty())
    throw ModelError(std::string(role) + " " + describe(t) + " has no quantization parameters");
  checkQuantization(t, role);
}

void expectValidQuantizationIfPresent(const Tensor& t, const char* role) {
  if (!t.quant.empty()) checkQuantization(t, role);
}

kernels::Int32Activation prepareInt32(const Int32Rules& rules, const Tensor& in1, const Tensor& in2,
                                      const Tensor& out, ActivationFunctionType activation) {
  const auto expectUnquantized = [](const Tensor& t, const char* role) {
    if (!t.quant.scale.empty() && !t.quant.zero_point.empty())
      throw ModelError(std::string(role) + " " + describe(t) +
                       " must not be quantized (TFLite Micro supports unquantized int32 only)");
  };
  if (rules.inputs_unquantized) {
    expectUnquantized(in1, "input1");
    expectUnquantized(in2, "input2");
  }
  if (rules.output_unquantized) expectUnquantized(out, "output");
  return int32Activation(rules.fused_activation ? activation : ActivationFunctionType::NONE);
}

ActivationFunctionType checkedActivation(ActivationFunctionType activation) {
  const auto value = static_cast<int>(activation);
  if (value < static_cast<int>(ActivationFunctionType::MIN) ||
      value > static_cast<int>(ActivationFunctionType::MAX))
    throw ModelError("fused activation " + std::to_string(value) + " is not a valid activation");
  return activation;
}

void quantizedActivationRange(ActivationFunctionType activation, const Tensor& out,
                              int32_t* act_min, int32_t* act_max) {
  int64_t qmin = 0;
  int64_t qmax = 0;
  integerRange(out.type, &qmin, &qmax);
  const float scale = out.quant.scale0();
  const int32_t zero_point = out.quant.zero_point0();
  int64_t lo = qmin;
  int64_t hi = qmax;
  switch (activation) {
    case ActivationFunctionType::RELU:
      lo = std::max(qmin, quantizeBound(0.0f, scale, zero_point));
      break;
    case ActivationFunctionType::RELU6:
      lo = std::max(qmin, quantizeBound(0.0f, scale, zero_point));
      hi = std::min(qmax, quantizeBound(6.0f, scale, zero_point));
      break;
    case ActivationFunctionType::RELU_N1_TO_1:
      lo = std::max(qmin, quantizeBound(-1.0f, scale, zero_point));
      hi = std::min(qmax, quantizeBound(1.0f, scale, zero_point));
      break;
    default:
      break;
  }
  *act_min = static_cast<int32_t>(lo);
  *act_max = static_cast<int32_t>(hi);
}

kernels::FloatActivation floatActivation(ActivationFunctionType activation) {
  kernels::FloatActivation a{std::numeric_limits<float>::lowest(),
                             std::numeric_limits<float>::max()};
  switch (activation) {
    case ActivationFunctionType::RELU:
      a.act_min = 0.0f;
      break;
    case ActivationFunctionType::RELU6:
      a = {0.0f, 6.0f};
      break;
    case ActivationFunctionType::RELU_N1_TO_1:
      a = {-1.0f, 1.0f};
      break;
    default:
      break;
  }
  return a;
}

kernels::Int32Activation int32Activation(ActivationFunctionType activation) {
  kernels::Int32Activation a{std::numeric_limits<int32_t>::min(),
                             std::numeric_limits<int32_t>::max()};
  switch (activation) {
    case ActivationFunctionType::RELU:
      a.act_min = 0;
      break;
    case ActivationFunctionType::RELU6:
      a = {0, 6};
      break;
    case ActivationFunctionType::RELU_N1_TO_1:
      a = {-1, 1};
      break;
    default:
      break;
  }
  return a;
}

kernels::QuantizedAddParams prepareQuantizedAdd(const Tensor& in1, const Tensor& in2,
                                                const Tensor& out,
                                                ActivationFunctionType activation,
                                                AddScaleMath math) {
  expectPerTensorQuantized(in1, "input1");
  expectPerTensorQuantized(in2, "input2");
  expectPerTensorQuantized(out, "output");
  const int32_t left_shift = out.type == TensorType::INT16 ? 15 : 20;
  const float s1 = in1.quant.scale0();
  const float s2 = in2.quant.scale0();
  const float so = out.quant.scale0();
  kernels::QuantizedAddParams p;
  if (math == AddScaleMath::kDouble) {
    const double twice_max = 2.0 * static_cast<double>(std::max(s1, s2));
    p = fillAddMultipliers(
        static_cast<double>(s1) / twice_max, static_cast<double>(s2) / twice_max,
        twice_max / (static_cast<double>(int64_t{1} << left_shift) * static_cast<double>(so)),
        left_shift);
  } else {
    const float twice_max = 2.0f * std::max(s1, s2);
    const float shifted_output_scale = static_cast<float>(1 << left_shift) * so;
    p = fillAddMultipliers(static_cast<double>(s1 / twice_max), static_cast<double>(s2 / twice_max),
                           static_cast<double>(twice_max / shifted_output_scale), left_shift);
  }
  p.input1_offset = -in1.quant.zero_point0();
  p.input2_offset = -in2.quant.zero_point0();
  p.output_offset = out.quant.zero_point0();
  quantizedActivationRange(activation, out, &p.act_min, &p.act_max);
  return p;
}

}  // namespace hilsim::rt
