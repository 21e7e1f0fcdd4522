#pragma once
// Helpers for the element-wise kernel tests: builtin options, one-operator binary models, a
// broadcasting reference written independently of the kernels (index arithmetic per output
// element), and quantization of float test vectors the way TFLite Micro's tests do.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "op_model.h"

namespace hilsim::test {

template <typename OptionsT>
tflite::BuiltinOptionsUnion optionsWith(tflite::ActivationFunctionType activation) {
  OptionsT options;
  options.fused_activation_function = activation;
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(options));
  return u;
}

inline tflite::BuiltinOptionsUnion addOptions(
    tflite::ActivationFunctionType a = tflite::ActivationFunctionType::NONE) {
  return optionsWith<tflite::AddOptionsT>(a);
}
inline tflite::BuiltinOptionsUnion subOptions(
    tflite::ActivationFunctionType a = tflite::ActivationFunctionType::NONE) {
  return optionsWith<tflite::SubOptionsT>(a);
}
inline tflite::BuiltinOptionsUnion mulOptions(
    tflite::ActivationFunctionType a = tflite::ActivationFunctionType::NONE) {
  return optionsWith<tflite::MulOptionsT>(a);
}

// A model of one binary operator whose two inputs are the subgraph's inputs.
inline std::vector<uint8_t> binaryModel(tflite::BuiltinOperator op, TensorSpec in1, TensorSpec in2,
                                        TensorSpec out, tflite::BuiltinOptionsUnion options = {}) {
  OpModel m;
  const int32_t a = m.addTensor(std::move(in1));
  const int32_t b = m.addTensor(std::move(in2));
  const int32_t o = m.addTensor(std::move(out));
  m.addOp(op, {a, b}, {o}, std::move(options));
  m.setInputs({a, b});
  m.setOutputs({o});
  return m.finish();
}

template <typename T>
std::vector<T> runBinary(const std::vector<uint8_t>& model, const std::vector<T>& a,
                         const std::vector<T>& b) {
  return valuesOf<T>(runModel(model, {bytesOf(a), bytesOf(b)}));
}

// Numpy broadcasting by index arithmetic: out[o] = op(a[index in a], b[index in b]).
template <typename T, typename Op>
std::vector<T> broadcastReference(const std::vector<int32_t>& shape_a, const std::vector<T>& a,
                                  const std::vector<int32_t>& shape_b, const std::vector<T>& b,
                                  Op op) {
  const size_t rank = std::max(shape_a.size(), shape_b.size());
  std::vector<int32_t> ea(rank, 1), eb(rank, 1), eo(rank, 1);
  for (size_t i = 0; i < shape_a.size(); ++i) ea[rank - shape_a.size() + i] = shape_a[i];
  for (size_t i = 0; i < shape_b.size(); ++i) eb[rank - shape_b.size() + i] = shape_b[i];
  size_t count = 1;
  for (size_t i = 0; i < rank; ++i) {
    eo[i] = std::max(ea[i], eb[i]);
    count *= size_t(eo[i]);
  }
  std::vector<T> out(count);
  for (size_t flat = 0; flat < count; ++flat) {
    size_t rest = flat;
    size_t ia = 0, ib = 0, sa = 1, sb = 1;
    for (size_t d = rank; d-- > 0;) {
      const size_t coord = rest % size_t(eo[d]);
      rest /= size_t(eo[d]);
      ia += (ea[d] == 1 ? 0 : coord) * sa;
      ib += (eb[d] == 1 ? 0 : coord) * sb;
      sa *= size_t(ea[d]);
      sb *= size_t(eb[d]);
    }
    out[flat] = op(a[ia], b[ib]);
  }
  return out;
}

// TFLite Micro's test-side Quantize: int32(round(v / scale)) + zero_point, clamped.
template <typename T>
std::vector<T> quantizeValues(const std::vector<float>& values, float scale, int32_t zero_point) {
  std::vector<T> out;
  for (float v : values) {
    const int32_t q = static_cast<int32_t>(std::round(v / scale)) + zero_point;
    out.push_back(static_cast<T>(std::min<int32_t>(
        std::max<int32_t>(q, std::numeric_limits<T>::min()), std::numeric_limits<T>::max())));
  }
  return out;
}

// Sequential values lo, lo + 1, ... wrapped into [lo, hi].
template <typename T>
std::vector<T> ramp(size_t count, int32_t lo, int32_t hi, int32_t step = 7) {
  std::vector<T> v(count);
  int32_t x = lo;
  for (size_t i = 0; i < count; ++i) {
    v[i] = static_cast<T>(x);
    x += step;
    if (x > hi) x = lo + (x - hi - 1);
  }
  return v;
}

inline std::string shapeName(const std::vector<int32_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

inline bool mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace hilsim::test
