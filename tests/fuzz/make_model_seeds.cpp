// Writes seed inputs for the model fuzzer: small valid one-operator models, one or more per
// reference kernel and data type, so that mutations start inside each kernel's prepare and
// invoke rather than in the loader. Usage: hilsim_fuzz_model_seeds DIR
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "op_model.h"

namespace {

using hilsim::test::asVariable;
using hilsim::test::bytesOf;
using hilsim::test::OpModel;
using hilsim::test::qtensor;
using hilsim::test::tensor;
using hilsim::test::TensorSpec;
using hilsim::test::withData;
using tflite::ActivationFunctionType;
using tflite::BuiltinOperator;
using tflite::TensorType;

template <typename T>
tflite::BuiltinOptionsUnion options(T value) {
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(value));
  return u;
}

template <typename T>
TensorSpec constant(TensorType type, std::vector<int32_t> shape, const std::vector<T>& values) {
  return withData(tensor(type, std::move(shape)), bytesOf(values));
}

TensorSpec q8(std::vector<int32_t> shape, float scale, int64_t zero_point) {
  return qtensor(TensorType::INT8, std::move(shape), scale, zero_point);
}

TensorSpec q16(std::vector<int32_t> shape, float scale) {
  return qtensor(TensorType::INT16, std::move(shape), scale, 0);
}

// One operator over `inputs` (constant ones stay constant, variable ones variable, the others
// become model inputs) writing `outputs`.
std::vector<uint8_t> oneOp(BuiltinOperator op, const std::vector<TensorSpec>& inputs,
                           const std::vector<TensorSpec>& outputs,
                           tflite::BuiltinOptionsUnion opts = {}) {
  OpModel m;
  std::vector<int32_t> in, out, model_in;
  for (const TensorSpec& t : inputs) {
    in.push_back(m.addTensor(t));
    if (t.data.empty() && !t.is_variable) model_in.push_back(in.back());
  }
  for (const TensorSpec& t : outputs) out.push_back(m.addTensor(t));
  m.addOp(op, in, out, std::move(opts));
  m.setInputs(model_in);
  m.setOutputs(out);
  return m.finish();
}

tflite::BuiltinOptionsUnion addOptions(ActivationFunctionType activation) {
  tflite::AddOptionsT o;
  o.fused_activation_function = activation;
  return options(o);
}

tflite::BuiltinOptionsUnion subOptions(ActivationFunctionType activation) {
  tflite::SubOptionsT o;
  o.fused_activation_function = activation;
  return options(o);
}

tflite::BuiltinOptionsUnion mulOptions(ActivationFunctionType activation) {
  tflite::MulOptionsT o;
  o.fused_activation_function = activation;
  return options(o);
}

tflite::BuiltinOptionsUnion lstmOptions() {
  tflite::UnidirectionalSequenceLSTMOptionsT o;
  o.fused_activation_function = ActivationFunctionType::TANH;
  o.cell_clip = 0.0f;
  return options(o);
}

// A two-cell, three-feature LSTM over two time steps with int8 or int16 activations.
std::vector<uint8_t> lstm(TensorType activation) {
  const bool int16 = activation == TensorType::INT16;
  const float scale_x = 1.0f / 64;
  const auto act = [&](std::vector<int32_t> shape, int64_t zero_point) {
    return qtensor(activation, std::move(shape), int16 ? 1.0f / 4096 : scale_x,
                   int16 ? 0 : zero_point);
  };
  std::vector<TensorSpec> in(24);
  in[0] = act({1, 2, 3}, 1);
  for (int g = 0; g < 4; ++g) {
    const int8_t k = static_cast<int8_t>(10 * g - 15);
    in[1 + g] = withData(q8({2, 3}, 1.0f / 32, 0),
                         bytesOf(std::vector<int8_t>{k, 3, -7, 21, int8_t(-k), 1}));
    in[5 + g] =
        withData(q8({2, 2}, 1.0f / 32, 0), bytesOf(std::vector<int8_t>{int8_t(k / 2), 4, -9, 2}));
    if (int16)
      in[12 + g] = withData(qtensor(TensorType::INT64, {2}, 1e-5f, 0),
                            bytesOf(std::vector<int64_t>{100 * g, -50}));
    else
      in[12 + g] = withData(qtensor(TensorType::INT32, {2}, scale_x / 32, 0),
                            bytesOf(std::vector<int32_t>{100 * g, -50}));
  }
  in[18] = asVariable(act({1, 2}, -3));
  in[19] = asVariable(qtensor(TensorType::INT16, {1, 2}, 1.0f / 2048, 0));
  OpModel m;
  std::vector<int32_t> idx;
  for (size_t i = 0; i < in.size(); ++i)
    idx.push_back(i < 20 && (i < 9 || i >= 12) && (i < 16 || i >= 18) ? m.addTensor(in[i]) : -1);
  const int32_t out = m.addTensor(act({1, 2, 2}, -3));
  m.addOp(BuiltinOperator::UNIDIRECTIONAL_SEQUENCE_LSTM, idx, {out}, lstmOptions());
  m.setInputs({idx[0]});
  m.setOutputs({out});
  return m.finish();
}

std::vector<uint8_t> lstmFloat() {
  std::vector<TensorSpec> in(24);
  in[0] = tensor(TensorType::FLOAT32, {2, 1, 3});
  for (int g = 0; g < 4; ++g) {
    const float k = 0.25f * static_cast<float>(g) - 0.4f;
    in[1 + g] =
        constant(TensorType::FLOAT32, {2, 3}, std::vector<float>{k, 0.1f, -0.3f, 0.5f, -k, 0.2f});
    in[5 + g] = constant(TensorType::FLOAT32, {2, 2}, std::vector<float>{k, 0.4f, -0.2f, 0.1f});
    in[12 + g] = constant(TensorType::FLOAT32, {2}, std::vector<float>{0.1f * g, -0.05f});
  }
  in[18] = asVariable(tensor(TensorType::FLOAT32, {1, 2}));
  in[19] = asVariable(tensor(TensorType::FLOAT32, {1, 2}));
  OpModel m;
  std::vector<int32_t> idx;
  for (size_t i = 0; i < in.size(); ++i)
    idx.push_back(i < 20 && (i < 9 || i >= 12) && (i < 16 || i >= 18) ? m.addTensor(in[i]) : -1);
  const int32_t out = m.addTensor(tensor(TensorType::FLOAT32, {2, 1, 2}));
  tflite::UnidirectionalSequenceLSTMOptionsT o;
  o.fused_activation_function = ActivationFunctionType::TANH;
  o.time_major = true;
  o.cell_clip = 3.0f;
  m.addOp(BuiltinOperator::UNIDIRECTIONAL_SEQUENCE_LSTM, idx, {out}, options(o));
  m.setInputs({idx[0]});
  m.setOutputs({out});
  return m.finish();
}

std::vector<std::pair<std::string, std::function<std::vector<uint8_t>()>>> seeds() {
  const TensorType f32 = TensorType::FLOAT32;
  const TensorType i32 = TensorType::INT32;
  return {
      {"add_int8_broadcast_relu",
       [] {
         return oneOp(BuiltinOperator::ADD, {q8({1, 2, 3}, 0.5f, 1), q8({3}, 0.25f, -2)},
                      {q8({1, 2, 3}, 1.0f, 3)}, addOptions(ActivationFunctionType::RELU));
       }},
      {"add_int16",
       [] {
         return oneOp(BuiltinOperator::ADD, {q16({2, 2}, 0.01f), q16({2, 2}, 0.02f)},
                      {q16({2, 2}, 0.05f)}, addOptions(ActivationFunctionType::NONE));
       }},
      {"add_float_relu6",
       [=] {
         return oneOp(BuiltinOperator::ADD, {tensor(f32, {2, 1, 3}), tensor(f32, {1, 4, 1})},
                      {tensor(f32, {2, 4, 3})}, addOptions(ActivationFunctionType::RELU6));
       }},
      {"add_int32",
       [=] {
         return oneOp(BuiltinOperator::ADD, {tensor(i32, {4}), tensor(i32, {1})},
                      {tensor(i32, {4})}, addOptions(ActivationFunctionType::NONE));
       }},
      {"sub_int8",
       [] {
         return oneOp(BuiltinOperator::SUB, {q8({2, 3}, 0.1f, -5), q8({2, 1}, 0.2f, 7)},
                      {q8({2, 3}, 0.3f, 0)}, subOptions(ActivationFunctionType::RELU_N1_TO_1));
       }},
      {"sub_int16",
       [] {
         return oneOp(BuiltinOperator::SUB, {q16({3}, 0.01f), q16({3}, 0.01f)}, {q16({3}, 0.02f)},
                      subOptions(ActivationFunctionType::NONE));
       }},
      {"sub_int32",
       [=] {
         return oneOp(BuiltinOperator::SUB, {tensor(i32, {2, 2}), tensor(i32, {2, 2})},
                      {tensor(i32, {2, 2})}, subOptions(ActivationFunctionType::RELU));
       }},
      {"mul_int8",
       [] {
         return oneOp(BuiltinOperator::MUL, {q8({1, 2, 3}, 0.5f, 1), q8({1, 1, 3}, 0.5f, -1)},
                      {q8({1, 2, 3}, 0.25f, 2)}, mulOptions(ActivationFunctionType::NONE));
       }},
      {"mul_int16",
       [] {
         return oneOp(BuiltinOperator::MUL, {q16({4}, 0.01f), q16({4}, 0.02f)}, {q16({4}, 0.001f)},
                      mulOptions(ActivationFunctionType::RELU));
       }},
      {"mul_float",
       [=] {
         return oneOp(BuiltinOperator::MUL, {tensor(f32, {3}), tensor(f32, {2, 3})},
                      {tensor(f32, {2, 3})}, mulOptions(ActivationFunctionType::NONE));
       }},
      {"mul_int32",
       [=] {
         return oneOp(BuiltinOperator::MUL, {tensor(i32, {3}), tensor(i32, {3})},
                      {tensor(i32, {3})}, mulOptions(ActivationFunctionType::NONE));
       }},
      {"maximum_int8",
       [] {
         return oneOp(BuiltinOperator::MAXIMUM, {q8({2, 3}, 0.5f, 4), q8({1, 3}, 0.5f, 4)},
                      {q8({2, 3}, 0.5f, 4)});
       }},
      {"maximum_int64",
       [] {
         return oneOp(BuiltinOperator::MAXIMUM,
                      {tensor(TensorType::INT64, {3}), tensor(TensorType::INT64, {1})},
                      {tensor(TensorType::INT64, {3})});
       }},
      {"minimum_float",
       [=] {
         return oneOp(BuiltinOperator::MINIMUM, {tensor(f32, {2, 2}), tensor(f32, {2, 2})},
                      {tensor(f32, {2, 2})});
       }},
      {"minimum_int16",
       [] {
         return oneOp(BuiltinOperator::MINIMUM, {q16({4}, 0.5f), q16({1}, 0.5f)}, {q16({4}, 0.5f)});
       }},
      {"hard_swish_int8",
       [] {
         return oneOp(BuiltinOperator::HARD_SWISH, {q8({1, 2, 2, 2}, 0.05f, 3)},
                      {q8({1, 2, 2, 2}, 0.03f, -10)});
       }},
      {"hard_swish_float",
       [=] { return oneOp(BuiltinOperator::HARD_SWISH, {tensor(f32, {6})}, {tensor(f32, {6})}); }},
      {"quantize_float_to_int8",
       [=] {
         return oneOp(BuiltinOperator::QUANTIZE, {tensor(f32, {2, 3})}, {q8({2, 3}, 0.1f, -3)});
       }},
      {"quantize_int8_to_int16",
       [] { return oneOp(BuiltinOperator::QUANTIZE, {q8({5}, 0.1f, 2)}, {q16({5}, 0.002f)}); }},
      {"quantize_int16_to_int32",
       [] {
         return oneOp(BuiltinOperator::QUANTIZE, {q16({5}, 0.01f)},
                      {qtensor(TensorType::INT32, {5}, 0.001f, 0)});
       }},
      {"quantize_int32_to_int8",
       [] {
         return oneOp(BuiltinOperator::QUANTIZE, {qtensor(TensorType::INT32, {5}, 0.001f, 0)},
                      {q8({5}, 0.1f, 1)});
       }},
      {"quantize_uint8_to_int8",
       [] {
         return oneOp(BuiltinOperator::QUANTIZE, {qtensor(TensorType::UINT8, {5}, 0.1f, 128)},
                      {q8({5}, 0.1f, 0)});
       }},
      {"logistic_int8",
       [] {
         return oneOp(BuiltinOperator::LOGISTIC, {q8({2, 3}, 0.1f, 0)},
                      {q8({2, 3}, 1.0f / 256, -128)});
       }},
      {"logistic_int16",
       [] {
         return oneOp(BuiltinOperator::LOGISTIC, {q16({6}, 1.0f / 4096)}, {q16({6}, 1.0f / 32768)});
       }},
      {"logistic_float",
       [=] { return oneOp(BuiltinOperator::LOGISTIC, {tensor(f32, {4})}, {tensor(f32, {4})}); }},
      {"tanh_int8",
       [] {
         return oneOp(BuiltinOperator::TANH, {q8({2, 3}, 0.05f, 3)}, {q8({2, 3}, 1.0f / 128, 0)});
       }},
      {"tanh_int16",
       [] { return oneOp(BuiltinOperator::TANH, {q16({6}, 0.001f)}, {q16({6}, 1.0f / 32768)}); }},
      {"lstm_int8", [] { return lstm(TensorType::INT8); }},
      {"lstm_int16", [] { return lstm(TensorType::INT16); }},
      {"lstm_float_time_major", [] { return lstmFloat(); }},
      {"concatenation_int8_axis1",
       [] {
         tflite::ConcatenationOptionsT o;
         o.axis = 1;
         return oneOp(BuiltinOperator::CONCATENATION,
                      {q8({1, 2, 3}, 0.5f, 0), q8({1, 1, 3}, 0.5f, 0), q8({1, 3, 3}, 0.5f, 0)},
                      {q8({1, 6, 3}, 0.5f, 0)}, options(o));
       }},
      {"concatenation_float_axis_minus1",
       [=] {
         tflite::ConcatenationOptionsT o;
         o.axis = -1;
         return oneOp(BuiltinOperator::CONCATENATION, {tensor(f32, {2, 2}), tensor(f32, {2, 3})},
                      {tensor(f32, {2, 5})}, options(o));
       }},
      {"pad_int8",
       [] {
         return oneOp(
             BuiltinOperator::PAD,
             {q8({1, 2, 2, 1}, 0.5f, -3),
              constant(TensorType::INT32, {4, 2}, std::vector<int32_t>{0, 0, 1, 1, 1, 1, 0, 0})},
             {q8({1, 4, 4, 1}, 0.5f, -3)});
       }},
      {"padv2_float",
       [=] {
         return oneOp(BuiltinOperator::PADV2,
                      {tensor(f32, {2, 3}),
                       constant(TensorType::INT32, {2, 2}, std::vector<int32_t>{1, 0, 0, 2}),
                       constant(f32, {}, std::vector<float>{1.5f})},
                      {tensor(f32, {3, 5})});
       }},
      {"padv2_int16",
       [] {
         return oneOp(
             BuiltinOperator::PADV2,
             {q16({3}, 0.5f), constant(TensorType::INT32, {1, 2}, std::vector<int32_t>{2, 1}),
              withData(q16({1}, 0.5f), bytesOf(std::vector<int16_t>{-9}))},
             {q16({6}, 0.5f)});
       }},
      {"transpose_float",
       [=] {
         return oneOp(BuiltinOperator::TRANSPOSE,
                      {tensor(f32, {2, 3, 4}), constant(i32, {3}, std::vector<int32_t>{2, 0, 1})},
                      {tensor(f32, {4, 2, 3})});
       }},
      {"transpose_int8_6d",
       [=] {
         return oneOp(BuiltinOperator::TRANSPOSE,
                      {q8({1, 2, 1, 3, 1, 2}, 0.5f, 0),
                       constant(i32, {6}, std::vector<int32_t>{5, 3, 1, 0, 2, 4})},
                      {q8({2, 3, 2, 1, 1, 1}, 0.5f, 0)});
       }},
      {"mean_int8_keep_dims",
       [=] {
         tflite::ReducerOptionsT o;
         o.keep_dims = true;
         return oneOp(BuiltinOperator::MEAN,
                      {q8({1, 4, 4, 3}, 0.5f, 2), constant(i32, {2}, std::vector<int32_t>{1, 2})},
                      {q8({1, 1, 1, 3}, 0.25f, -1)}, options(o));
       }},
      {"mean_int16",
       [=] {
         tflite::ReducerOptionsT o;
         return oneOp(BuiltinOperator::MEAN,
                      {q16({2, 5}, 0.5f), constant(i32, {1}, std::vector<int32_t>{-1})},
                      {q16({2}, 0.5f)}, options(o));
       }},
      {"mean_float",
       [=] {
         tflite::ReducerOptionsT o;
         return oneOp(BuiltinOperator::MEAN,
                      {tensor(f32, {3, 4}), constant(i32, {1}, std::vector<int32_t>{0})},
                      {tensor(f32, {4})}, options(o));
       }},
      {"strided_slice_float",
       [=] {
         tflite::StridedSliceOptionsT o;
         return oneOp(BuiltinOperator::STRIDED_SLICE,
                      {tensor(f32, {3, 4}), constant(i32, {2}, std::vector<int32_t>{0, 1}),
                       constant(i32, {2}, std::vector<int32_t>{3, 4}),
                       constant(i32, {2}, std::vector<int32_t>{2, 1})},
                      {tensor(f32, {2, 3})}, options(o));
       }},
      {"strided_slice_int8_masks",
       [=] {
         tflite::StridedSliceOptionsT o;
         o.begin_mask = 1;
         o.end_mask = 2;
         o.shrink_axis_mask = 4;
         return oneOp(BuiltinOperator::STRIDED_SLICE,
                      {q8({3, 4, 2}, 0.5f, 0), constant(i32, {3}, std::vector<int32_t>{1, -3, 1}),
                       constant(i32, {3}, std::vector<int32_t>{2, 0, 2}),
                       constant(i32, {3}, std::vector<int32_t>{1, 2, 1})},
                      {q8({2, 2}, 0.5f, 0)}, options(o));
       }},
      {"strided_slice_int16_negative_stride",
       [=] {
         tflite::StridedSliceOptionsT o;
         return oneOp(BuiltinOperator::STRIDED_SLICE,
                      {q16({5}, 0.5f), constant(i32, {1}, std::vector<int32_t>{-1}),
                       constant(i32, {1}, std::vector<int32_t>{0}),
                       constant(i32, {1}, std::vector<int32_t>{-2})},
                      {q16({2}, 0.5f)}, options(o));
       }},
      {"squeeze_float",
       [=] {
         tflite::SqueezeOptionsT o;
         o.squeeze_dims = {0, -2};
         return oneOp(BuiltinOperator::SQUEEZE, {tensor(f32, {1, 3, 1, 2})}, {tensor(f32, {3, 2})},
                      options(o));
       }},
      {"squeeze_int8_all",
       [] {
         return oneOp(BuiltinOperator::SQUEEZE, {q8({1, 1, 4, 1}, 0.5f, 0)}, {q8({4}, 0.5f, 0)},
                      options(tflite::SqueezeOptionsT()));
       }},
      {"max_pool_int8_valid",
       [] {
         tflite::Pool2DOptionsT o;
         o.padding = tflite::Padding::VALID;
         o.stride_h = o.stride_w = 2;
         o.filter_height = o.filter_width = 2;
         o.fused_activation_function = ActivationFunctionType::RELU;
         return oneOp(BuiltinOperator::MAX_POOL_2D, {q8({1, 4, 4, 2}, 0.5f, -1)},
                      {q8({1, 2, 2, 2}, 0.5f, -1)}, options(o));
       }},
      {"max_pool_int16_same",
       [] {
         tflite::Pool2DOptionsT o;
         o.padding = tflite::Padding::SAME;
         o.stride_h = 1;
         o.stride_w = 2;
         o.filter_height = 3;
         o.filter_width = 2;
         return oneOp(BuiltinOperator::MAX_POOL_2D, {q16({2, 3, 3, 1}, 0.5f)},
                      {q16({2, 3, 2, 1}, 0.5f)}, options(o));
       }},
      {"max_pool_float_relu6",
       [=] {
         tflite::Pool2DOptionsT o;
         o.padding = tflite::Padding::SAME;
         o.stride_h = o.stride_w = 1;
         o.filter_height = o.filter_width = 3;
         o.fused_activation_function = ActivationFunctionType::RELU6;
         return oneOp(BuiltinOperator::MAX_POOL_2D, {tensor(f32, {1, 3, 3, 2})},
                      {tensor(f32, {1, 3, 3, 2})}, options(o));
       }},
  };
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  for (const auto& [name, make] : seeds()) {
    const std::vector<uint8_t> bytes = make();
    const std::string path = std::string(argv[1]) + "/op_" + name + ".tflite";
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      return 1;
    }
  }
  return 0;
}
