// CONCATENATION: the freestanding copy against hand-laid-out results, the kernel through
// one-operator models for every supported type and negative axes, and prepare-time errors.

#include <gtest/gtest.h>

#include "hilsim/kernels/concatenation.h"
#include "op_model.h"

namespace hilsim::test {
namespace {

using tflite::ActivationFunctionType;
using tflite::BuiltinOperator;
using tflite::TensorType;

tflite::BuiltinOptionsUnion concatOptions(
    int32_t axis, ActivationFunctionType activation = ActivationFunctionType::NONE) {
  tflite::ConcatenationOptionsT options;
  options.axis = axis;
  options.fused_activation_function = activation;
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(options));
  return u;
}

// Two runtime inputs of `a_shape` and `b_shape`, concatenated into `out_shape`.
std::vector<uint8_t> twoInputModel(TensorType type, std::vector<int32_t> a_shape,
                                   std::vector<int32_t> b_shape, std::vector<int32_t> out_shape,
                                   int32_t axis) {
  OpModel m;
  const int32_t a = m.addTensor(tensor(type, std::move(a_shape)));
  const int32_t b = m.addTensor(tensor(type, std::move(b_shape)));
  const int32_t out = m.addTensor(tensor(type, std::move(out_shape)));
  m.addOp(BuiltinOperator::CONCATENATION, {a, b}, {out}, concatOptions(axis));
  m.setInputs({a, b});
  m.setOutputs({out});
  return m.finish();
}

TEST(Concatenation, FreestandingCopiesSlabsPerOuterIndex) {
  // [2,1] and [2,2] along axis 1: rows are a0 b0 b1 / a1 b2 b3.
  const uint8_t a[] = {10, 11};
  const uint8_t b[] = {20, 21, 22, 23};
  const uint8_t* inputs[] = {a, b};
  uint8_t out[6] = {};
  kernels::ConcatenationParams p;
  p.inputs = 2;
  p.outer_count = 2;
  p.slab_bytes[0] = 1;
  p.slab_bytes[1] = 2;
  kernels::concatenate(p, inputs, out);
  const uint8_t expected[] = {10, 20, 21, 11, 22, 23};
  EXPECT_EQ(std::vector<uint8_t>(out, out + 6), std::vector<uint8_t>(expected, expected + 6));
}

TEST(Concatenation, Float32AlongEveryAxisOfTwoByThree) {
  // TFLite Micro's TwoInputsAllAxesCombinations vectors.
  const std::vector<float> a = {1, 2, 3, 4, 5, 6};
  const std::vector<float> b = {7, 8, 9, 10, 11, 12};
  for (int32_t axis : {0, -2}) {
    const auto got =
        valuesOf<float>(runModel(twoInputModel(TensorType::FLOAT32, {2, 3}, {2, 3}, {4, 3}, axis),
                                 {bytesOf(a), bytesOf(b)}));
    EXPECT_EQ(got, (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})) << axis;
  }
  for (int32_t axis : {1, -1}) {
    const auto got =
        valuesOf<float>(runModel(twoInputModel(TensorType::FLOAT32, {2, 3}, {2, 3}, {2, 6}, axis),
                                 {bytesOf(a), bytesOf(b)}));
    EXPECT_EQ(got, (std::vector<float>{1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12})) << axis;
  }
}

TEST(Concatenation, Int16AndInt32KeepTheirBytes) {
  const auto got16 = valuesOf<int16_t>(runModel(
      twoInputModel(TensorType::INT16, {1, 2, 1}, {1, 2, 2}, {1, 2, 3}, -1),
      {bytesOf(std::vector<int16_t>{-32768, 32767}), bytesOf(std::vector<int16_t>{1, 2, 3, 4})}));
  EXPECT_EQ(got16, (std::vector<int16_t>{-32768, 1, 2, 32767, 3, 4}));
  const auto got32 = valuesOf<int32_t>(
      runModel(twoInputModel(TensorType::INT32, {1, 1, 2}, {1, 2, 2}, {1, 3, 2}, 1),
               {bytesOf(std::vector<int32_t>{INT32_MIN, INT32_MAX}),
                bytesOf(std::vector<int32_t>{5, 6, 7, 8})}));
  EXPECT_EQ(got32, (std::vector<int32_t>{INT32_MIN, INT32_MAX, 5, 6, 7, 8}));
}

TEST(Concatenation, Int8WithDifferentQuantizationIsCopiedWithoutRequantizing) {
  // TFLite Micro copies int8 bytes even when the scales and zero points differ.
  OpModel m;
  const int32_t a = m.addTensor(qtensor(TensorType::INT8, {1, 2}, 0.5f, -3));
  const int32_t b = m.addTensor(qtensor(TensorType::INT8, {1, 1}, 0.25f, 7));
  const int32_t c = m.addTensor(qtensor(TensorType::INT8, {1, 2}, 1.0f, 0));
  const int32_t out = m.addTensor(qtensor(TensorType::INT8, {1, 5}, 0.1f, 1));
  m.addOp(BuiltinOperator::CONCATENATION, {a, b, c}, {out}, concatOptions(1));
  m.setInputs({a, b, c});
  m.setOutputs({out});
  const auto got = valuesOf<int8_t>(
      runModel(m.finish(), {bytesOf(std::vector<int8_t>{-128, 1}), bytesOf(std::vector<int8_t>{2}),
                            bytesOf(std::vector<int8_t>{3, 127})}));
  EXPECT_EQ(got, (std::vector<int8_t>{-128, 1, 2, 3, 127}));
}

TEST(Concatenation, ConstantInputJoinsARuntimeOne) {
  OpModel m;
  const int32_t a = m.addTensor(tensor(TensorType::INT32, {2}));
  const int32_t b =
      m.addTensor(withData(tensor(TensorType::INT32, {1}), bytesOf(std::vector<int32_t>{99})));
  const int32_t out = m.addTensor(tensor(TensorType::INT32, {3}));
  m.addOp(BuiltinOperator::CONCATENATION, {b, a}, {out}, concatOptions(0));
  m.setInputs({a});
  m.setOutputs({out});
  EXPECT_EQ(valuesOf<int32_t>(runModel(m.finish(), {bytesOf(std::vector<int32_t>{4, 5})})),
            (std::vector<int32_t>{99, 4, 5}));
}

void expectPrepareError(const std::vector<uint8_t>& model, const std::string& reason) {
  const std::string error = prepareError(model);
  EXPECT_NE(error.find("operator 0 (CONCATENATION)"), std::string::npos) << error;
  EXPECT_NE(error.find(reason), std::string::npos) << error;
}

TEST(Concatenation, MalformedOperatorsAreRejected) {
  expectPrepareError(twoInputModel(TensorType::FLOAT32, {2, 3}, {3, 3}, {2, 6}, 1),
                     "differs from output");
  expectPrepareError(twoInputModel(TensorType::FLOAT32, {2, 3}, {2, 3}, {2, 7}, 1), "adds up to 6");
  expectPrepareError(twoInputModel(TensorType::FLOAT32, {2, 3}, {2, 3}, {2, 6}, 2),
                     "axis 2 is out of range");
  expectPrepareError(twoInputModel(TensorType::FLOAT32, {2, 3}, {2, 3}, {2, 6}, -3),
                     "axis -3 is out of range");
  expectPrepareError(twoInputModel(TensorType::UINT8, {2, 3}, {2, 3}, {2, 6}, 1),
                     "unsupported type");
  expectPrepareError(twoInputModel(TensorType::FLOAT32, {1, 1, 1, 1, 1, 1, 2},
                                   {1, 1, 1, 1, 1, 1, 2}, {1, 1, 1, 1, 1, 1, 4}, 6),
                     "1 to 6 dimensions");
  {
    OpModel m;
    const int32_t a = m.addTensor(tensor(TensorType::FLOAT32, {2}));
    const int32_t b = m.addTensor(tensor(TensorType::INT32, {2}));
    const int32_t out = m.addTensor(tensor(TensorType::FLOAT32, {4}));
    m.addOp(BuiltinOperator::CONCATENATION, {a, b}, {out}, concatOptions(0));
    m.setInputs({a, b});
    m.setOutputs({out});
    expectPrepareError(m.finish(), "have different types");
  }
  {
    OpModel m;
    const int32_t a = m.addTensor(tensor(TensorType::FLOAT32, {2}));
    const int32_t out = m.addTensor(tensor(TensorType::FLOAT32, {2}));
    m.addOp(BuiltinOperator::CONCATENATION, {a}, {out},
            concatOptions(0, ActivationFunctionType::RELU));
    m.setInputs({a});
    m.setOutputs({out});
    expectPrepareError(m.finish(), "fused activation RELU");
  }
  {
    OpModel m;
    std::vector<int32_t> inputs;
    for (int i = 0; i < 11; ++i) inputs.push_back(m.addTensor(tensor(TensorType::INT8, {1})));
    const int32_t out = m.addTensor(tensor(TensorType::INT8, {11}));
    m.addOp(BuiltinOperator::CONCATENATION, inputs, {out}, concatOptions(0));
    m.setInputs(inputs);
    m.setOutputs({out});
    expectPrepareError(m.finish(), "expects 1 to 10 inputs, has 11");
  }
  {
    OpModel m;
    const int32_t a = m.addTensor(tensor(TensorType::FLOAT32, {2}));
    const int32_t out = m.addTensor(tensor(TensorType::FLOAT32, {2}));
    m.addOp(BuiltinOperator::CONCATENATION, {a}, {out});
    m.setInputs({a});
    m.setOutputs({out});
    expectPrepareError(m.finish(), "missing ConcatenationOptions");
  }
}

}  // namespace
}  // namespace hilsim::test
