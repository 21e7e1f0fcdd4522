// DEQUANTIZE: the freestanding arithmetic against hand-computed values, the kernel through a
// one-operator model, and prepare-time errors.

#include <gtest/gtest.h>

#include "hilsim/kernels/dequantize.h"
#include "op_model.h"

namespace hilsim::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

TEST(Dequantize, Int8EndsOfRange) {
  const int8_t in[] = {-128, -1, 0, 3, 127};
  float out[5] = {};
  kernels::DequantizeParams p;
  p.count = 5;
  p.scale = 0.5f;
  p.zero_point = 3;
  kernels::dequantizeInt8(p, in, out);
  // (q - 3) * 0.5
  EXPECT_FLOAT_EQ(out[0], -65.5f);
  EXPECT_FLOAT_EQ(out[1], -2.0f);
  EXPECT_FLOAT_EQ(out[2], -1.5f);
  EXPECT_FLOAT_EQ(out[3], 0.0f);
  EXPECT_FLOAT_EQ(out[4], 62.0f);
}

TEST(Dequantize, Int16ThroughTheInterpreter) {
  OpModel m;
  const int32_t in = m.addTensor(qtensor(TensorType::INT16, {1, 3}, 0.25f, -2));
  const int32_t out = m.addTensor(tensor(TensorType::FLOAT32, {1, 3}));
  m.addOp(BuiltinOperator::DEQUANTIZE, {in}, {out});
  m.setInputs({in});
  m.setOutputs({out});
  const std::vector<float> got =
      valuesOf<float>(runModel(m.finish(), {bytesOf(std::vector<int16_t>{-32768, -2, 32767})}));
  ASSERT_EQ(got.size(), 3u);
  EXPECT_FLOAT_EQ(got[0], -8191.5f);  // (-32768 + 2) / 4
  EXPECT_FLOAT_EQ(got[1], 0.0f);
  EXPECT_FLOAT_EQ(got[2], 8192.25f);  // (32767 + 2) / 4
}

TEST(Dequantize, MismatchedElementCountIsAnErrorNamingTheOperator) {
  OpModel m;
  const int32_t in = m.addTensor(qtensor(TensorType::INT8, {1, 3}, 0.25f, 0));
  const int32_t out = m.addTensor(tensor(TensorType::FLOAT32, {1, 4}));
  m.addOp(BuiltinOperator::DEQUANTIZE, {in}, {out});
  m.setInputs({in});
  m.setOutputs({out});
  const std::string error = prepareError(m.finish());
  EXPECT_NE(error.find("operator 0 (DEQUANTIZE)"), std::string::npos) << error;
  EXPECT_NE(error.find("different element counts"), std::string::npos) << error;
}

}  // namespace
}  // namespace hilsim::test
