// PAD and PADV2: the freestanding padding against hand-laid-out results, the kernels through
// one-operator models (pad value: output zero point, 0, or the constant input; 1 to 5
// dimensions; empty paddings) and prepare-time errors.

#include <gtest/gtest.h>

#include "hilsim/kernels/pad.h"
#include "op_model.h"

namespace hilsim::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

TEST(Pad, FreestandingPadsRowsAndColumns) {
  // [2,2] padded by (1,0) rows and (0,1) columns into [3,3], pad value 9:
  //   9 9 9
  //   1 2 9
  //   3 4 9
  kernels::PadParams p;
  p.output_dims[3] = 3;
  p.output_dims[4] = 3;
  p.left[3] = 1;
  p.right[4] = 1;
  const int8_t in[] = {1, 2, 3, 4};
  int8_t out[9] = {};
  kernels::padInt8(p, in, 9, out);
  EXPECT_EQ(std::vector<int8_t>(out, out + 9), (std::vector<int8_t>{9, 9, 9, 1, 2, 9, 3, 4, 9}));
}

struct PadCase {
  TensorType type;
  std::vector<int32_t> in_shape, out_shape;
  std::vector<int32_t> paddings;
  float scale = 0.0f;  // > 0: quantized tensors with `zero_point`
  int64_t zero_point = 0;
};

// PAD (no pad value) or PADV2 (constant pad value `pad`, bytes of one element).
std::vector<uint8_t> padModel(const PadCase& c, BuiltinOperator op = BuiltinOperator::PAD,
                              std::vector<uint8_t> pad = {},
                              TensorType paddings_type = TensorType::INT32) {
  OpModel m;
  const auto spec = [&c](std::vector<int32_t> shape) {
    return c.scale > 0 ? qtensor(c.type, std::move(shape), c.scale, c.zero_point)
                       : tensor(c.type, std::move(shape));
  };
  const int32_t in = m.addTensor(spec(c.in_shape));
  std::vector<uint8_t> pad_bytes;
  if (paddings_type == TensorType::INT64) {
    pad_bytes = bytesOf(std::vector<int64_t>(c.paddings.begin(), c.paddings.end()));
  } else {
    pad_bytes = bytesOf(c.paddings);
  }
  const int32_t paddings = m.addTensor(
      withData(tensor(paddings_type, {static_cast<int32_t>(c.paddings.size() / 2), 2}), pad_bytes));
  std::vector<int32_t> inputs = {in, paddings};
  if (!pad.empty()) inputs.push_back(m.addTensor(withData(spec({}), pad)));
  const int32_t out = m.addTensor(spec(c.out_shape));
  m.addOp(op, inputs, {out});
  m.setInputs({in});
  m.setOutputs({out});
  return m.finish();
}

TEST(Pad, Int8PadsWithTheOutputZeroPoint) {
  // [1,2,2,1] with one row and column on each side of H and W: a 4x4 frame of zero points.
  const PadCase c{TensorType::INT8, {1, 2, 2, 1}, {1, 4, 4, 1}, {0, 0, 1, 1, 1, 1, 0, 0}, 0.5f, -5};
  const auto got =
      valuesOf<int8_t>(runModel(padModel(c), {bytesOf(std::vector<int8_t>{1, 2, 3, 4})}));
  EXPECT_EQ(got, (std::vector<int8_t>{-5, -5, -5, -5, -5, 1, 2, -5, -5, 3, 4, -5, -5, -5, -5, -5}));
}

TEST(Pad, Int8ZeroPointsAtTheEndsOfTheRange) {
  for (int64_t zp : {-128, 127}) {
    const PadCase c{TensorType::INT8, {3}, {5}, {2, 0}, 1.0f, zp};
    const auto got =
        valuesOf<int8_t>(runModel(padModel(c), {bytesOf(std::vector<int8_t>{7, 8, 9})}));
    const int8_t z = static_cast<int8_t>(zp);
    EXPECT_EQ(got, (std::vector<int8_t>{z, z, 7, 8, 9})) << zp;
  }
}

TEST(Pad, Int16AndFloat32PadWithZero) {
  const PadCase c16{TensorType::INT16, {2}, {4}, {1, 1}};
  EXPECT_EQ(
      valuesOf<int16_t>(runModel(padModel(c16), {bytesOf(std::vector<int16_t>{-32768, 32767})})),
      (std::vector<int16_t>{0, -32768, 32767, 0}));
  const PadCase cf{TensorType::FLOAT32, {1, 2}, {2, 3}, {0, 1, 0, 1}};
  EXPECT_EQ(valuesOf<float>(runModel(padModel(cf), {bytesOf(std::vector<float>{1.5f, -2.5f})})),
            (std::vector<float>{1.5f, -2.5f, 0, 0, 0, 0}));
}

TEST(Pad, Padv2UsesTheConstantValue) {
  const PadCase c32{TensorType::INT32, {2, 1}, {3, 2}, {1, 0, 0, 1}};
  EXPECT_EQ(valuesOf<int32_t>(
                runModel(padModel(c32, BuiltinOperator::PADV2, bytesOf(std::vector<int32_t>{-7})),
                         {bytesOf(std::vector<int32_t>{4, 5})})),
            (std::vector<int32_t>{-7, -7, 4, -7, 5, -7}));
  // int8 PADV2: the constant shares the output's quantization and is used as it is.
  const PadCase c8{TensorType::INT8, {2}, {3}, {0, 1}, 0.25f, 3};
  EXPECT_EQ(valuesOf<int8_t>(
                runModel(padModel(c8, BuiltinOperator::PADV2, bytesOf(std::vector<int8_t>{-100})),
                         {bytesOf(std::vector<int8_t>{1, 2})})),
            (std::vector<int8_t>{1, 2, -100}));
}

TEST(Pad, FiveDimensionsPaddedInEveryDimension) {
  // [1,1,1,1,1] holding 42, padded by (1,0) in dims 0 and 2 and (0,1) in dims 1, 3, 4: output
  // [2,2,2,2,2]; only index (1,0,1,0,0) = 16 + 4 = 20 holds the input.
  const PadCase c{
      TensorType::FLOAT32, {1, 1, 1, 1, 1}, {2, 2, 2, 2, 2}, {1, 0, 0, 1, 1, 0, 0, 1, 0, 1}};
  const auto got = valuesOf<float>(
      runModel(padModel(c, BuiltinOperator::PADV2, bytesOf(std::vector<float>{-1.0f})),
               {bytesOf(std::vector<float>{42.0f})}));
  ASSERT_EQ(got.size(), 32u);
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], i == 20 ? 42.0f : -1.0f) << i;
}

TEST(Pad, ZeroPaddingsCopyTheInput) {
  const PadCase c{TensorType::INT16, {2, 3}, {2, 3}, {0, 0, 0, 0}};
  const std::vector<int16_t> in = {1, -2, 3, -4, 5, -6};
  EXPECT_EQ(valuesOf<int16_t>(runModel(padModel(c), {bytesOf(in)})), in);
}

void expectPrepareError(const std::vector<uint8_t>& model, const std::string& op,
                        const std::string& reason) {
  const std::string error = prepareError(model);
  EXPECT_NE(error.find("operator 0 (" + op + ")"), std::string::npos) << error;
  EXPECT_NE(error.find(reason), std::string::npos) << error;
}

TEST(Pad, MalformedOperatorsAreRejected) {
  expectPrepareError(padModel({TensorType::FLOAT32, {2}, {4}, {1, 1}}, BuiltinOperator::PAD, {},
                              TensorType::INT64),
                     "PAD", "paddings must be int32");
  expectPrepareError(padModel({TensorType::FLOAT32, {2}, {5}, {1, 1}}), "PAD",
                     "is not input FLOAT32 [2] padded by (1, 1)");
  expectPrepareError(padModel({TensorType::FLOAT32, {3}, {2}, {-1, 0}}), "PAD", "are negative");
  expectPrepareError(padModel({TensorType::FLOAT32, {2, 2}, {2, 2}, {0, 0}}), "PAD",
                     "must hold a (before, after) pair");
  expectPrepareError(padModel({TensorType::FLOAT32,
                               {1, 1, 1, 1, 1, 1},
                               {1, 1, 1, 1, 1, 1},
                               {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}),
                     "PAD", "more than 5 dimensions");
  expectPrepareError(padModel({TensorType::UINT8, {2}, {2}, {0, 0}}), "PAD", "unsupported type");
  {
    OpModel m;
    const int32_t in = m.addTensor(tensor(TensorType::INT32, {2}));
    const int32_t paddings = m.addTensor(
        withData(tensor(TensorType::INT32, {1, 2}), bytesOf(std::vector<int32_t>{1, 0})));
    const int32_t value =
        m.addTensor(withData(tensor(TensorType::INT32, {2}), bytesOf(std::vector<int32_t>{1, 2})));
    const int32_t out = m.addTensor(tensor(TensorType::INT32, {3}));
    m.addOp(BuiltinOperator::PADV2, {in, paddings, value}, {out});
    m.setInputs({in});
    m.setOutputs({out});
    expectPrepareError(m.finish(), "PADV2", "must be a single element");
  }
  {
    // int8 pad value with its own quantization.
    OpModel m;
    const int32_t in = m.addTensor(qtensor(TensorType::INT8, {2}, 0.5f, 0));
    const int32_t paddings = m.addTensor(
        withData(tensor(TensorType::INT32, {1, 2}), bytesOf(std::vector<int32_t>{1, 0})));
    const int32_t value = m.addTensor(
        withData(qtensor(TensorType::INT8, {}, 0.5f, 4), bytesOf(std::vector<int8_t>{1})));
    const int32_t out = m.addTensor(qtensor(TensorType::INT8, {3}, 0.5f, 0));
    m.addOp(BuiltinOperator::PADV2, {in, paddings, value}, {out});
    m.setInputs({in});
    m.setOutputs({out});
    expectPrepareError(m.finish(), "PADV2", "must have the output's scale and zero point");
  }
  {
    // Paddings computed at run time.
    OpModel m;
    const int32_t in = m.addTensor(tensor(TensorType::FLOAT32, {2}));
    const int32_t paddings = m.addTensor(tensor(TensorType::INT32, {1, 2}));
    const int32_t out = m.addTensor(tensor(TensorType::FLOAT32, {4}));
    m.addOp(BuiltinOperator::PAD, {in, paddings}, {out});
    m.setInputs({in, paddings});
    m.setOutputs({out});
    expectPrepareError(m.finish(), "PAD", "paddings must be a constant tensor");
  }
  {
    OpModel m;
    const int32_t in = m.addTensor(tensor(TensorType::FLOAT32, {2}));
    const int32_t out = m.addTensor(tensor(TensorType::INT32, {2}));
    m.addOp(BuiltinOperator::PAD, {in}, {out});
    m.setInputs({in});
    m.setOutputs({out});
    expectPrepareError(m.finish(), "PAD", "expects 2 to 3 inputs, has 1");
  }
}

}  // namespace
}  // namespace hilsim::test
