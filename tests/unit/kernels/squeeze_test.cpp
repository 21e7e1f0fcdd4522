// SQUEEZE: the kernel through one-operator models (all size-1 dimensions, listed and negative
// dimensions) and prepare-time errors.

#include <gtest/gtest.h>

#include "op_model.h"

namespace hilsim::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

std::vector<uint8_t> squeezeModel(TensorType type, std::vector<int32_t> in_shape,
                                  std::vector<int32_t> dims, std::vector<int32_t> out_shape) {
  OpModel m;
  const int32_t in = m.addTensor(tensor(type, std::move(in_shape)));
  const int32_t out = m.addTensor(tensor(type, std::move(out_shape)));
  tflite::SqueezeOptionsT options;
  options.squeeze_dims = std::move(dims);
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(options));
  m.addOp(BuiltinOperator::SQUEEZE, {in}, {out}, std::move(u));
  m.setInputs({in});
  m.setOutputs({out});
  return m.finish();
}

TEST(Squeeze, EmptyListRemovesEveryDimensionOfSizeOne) {
  const std::vector<float> in = {1.5f, -2, 3, 4, 5, 6};
  EXPECT_EQ(valuesOf<float>(runModel(squeezeModel(TensorType::FLOAT32, {1, 2, 1, 3, 1}, {}, {2, 3}),
                                     {bytesOf(in)})),
            in);
}

TEST(Squeeze, ListedAndNegativeDimensions) {
  const std::vector<int8_t> in = {-128, 0, 127};
  EXPECT_EQ(valuesOf<int8_t>(
                runModel(squeezeModel(TensorType::INT8, {1, 3, 1}, {0, -1}, {3}), {bytesOf(in)})),
            in);
  EXPECT_EQ(valuesOf<int8_t>(
                runModel(squeezeModel(TensorType::INT8, {1, 3, 1}, {-1}, {1, 3}), {bytesOf(in)})),
            in);
  const std::vector<int32_t> in32 = {7, 8};
  EXPECT_EQ(valuesOf<int32_t>(
                runModel(squeezeModel(TensorType::INT32, {2, 1}, {1}, {2}), {bytesOf(in32)})),
            in32);
}

void expectPrepareError(const std::vector<uint8_t>& model, const std::string& reason) {
  const std::string error = prepareError(model);
  EXPECT_NE(error.find("operator 0 (SQUEEZE)"), std::string::npos) << error;
  EXPECT_NE(error.find(reason), std::string::npos) << error;
}

TEST(Squeeze, MalformedOperatorsAreRejected) {
  expectPrepareError(squeezeModel(TensorType::FLOAT32, {1, 3}, {1}, {1}), "has size 3, not 1");
  expectPrepareError(squeezeModel(TensorType::FLOAT32, {1, 3}, {2}, {3}),
                     "dimension 2 is out of range");
  expectPrepareError(squeezeModel(TensorType::FLOAT32, {1, 3}, {-3}, {3}),
                     "dimension -3 is out of range");
  expectPrepareError(squeezeModel(TensorType::FLOAT32, {1, 3, 1}, {0}, {3}), "squeezed to [3,1]");
  {
    OpModel m;
    const int32_t in = m.addTensor(tensor(TensorType::FLOAT32, {1, 2}));
    const int32_t out = m.addTensor(tensor(TensorType::INT32, {2}));
    m.addOp(BuiltinOperator::SQUEEZE, {in}, {out});
    m.setInputs({in});
    m.setOutputs({out});
    expectPrepareError(m.finish(), "have different types");
  }
}

}  // namespace
}  // namespace hilsim::test
