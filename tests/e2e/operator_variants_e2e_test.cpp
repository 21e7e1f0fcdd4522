// A model made of the operator variants TensorFlow Lite Micro runs and hilsim once refused, run
// by build/hilsim as a user would: int16 AVERAGE_POOL_2D, STRIDED_SLICE with an ellipsis mask,
// int16 MEAN over three axes and int16 -> int16 SOFTMAX. On the host the output equals the
// interpreter's in-process result; on the instruction-set simulator presets, where the kernels
// run as firmware (cpu.model iss), the bytes do not change.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "files.h"
#include "op_model.h"
#include "runner.h"

namespace hilsim::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

template <typename T>
tflite::BuiltinOptionsUnion options(T value) {
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(value));
  return u;
}

// int16 [1,4,4,2] (scale 0.01) -> AVERAGE_POOL_2D 2x2/2 -> [1,2,2,2] -> STRIDED_SLICE with
// ellipsis_mask 1 (ignored; its begin and end cover the batch) keeping column 1 -> [1,2,1,2]
// -> MEAN over N, H, W keep_dims -> [1,1,1,2] (scale 0.005) -> SOFTMAX -> [1,1,1,2] (1/32768).
std::vector<uint8_t> variantsModel() {
  OpModel m;
  const int32_t in = m.addTensor(qtensor(TensorType::INT16, {1, 4, 4, 2}, 0.01f, 0));
  const int32_t pooled = m.addTensor(qtensor(TensorType::INT16, {1, 2, 2, 2}, 0.01f, 0));
  tflite::Pool2DOptionsT pool;
  pool.padding = tflite::Padding::VALID;
  pool.stride_h = pool.stride_w = 2;
  pool.filter_height = pool.filter_width = 2;
  m.addOp(BuiltinOperator::AVERAGE_POOL_2D, {in}, {pooled}, options(pool));

  const auto indices = [&m](std::vector<int32_t> v) {
    return m.addTensor(
        withData(tensor(TensorType::INT32, {static_cast<int32_t>(v.size())}), bytesOf(v)));
  };
  const int32_t sliced = m.addTensor(qtensor(TensorType::INT16, {1, 2, 1, 2}, 0.01f, 0));
  tflite::StridedSliceOptionsT slice;
  slice.ellipsis_mask = 1;
  m.addOp(BuiltinOperator::STRIDED_SLICE,
          {pooled, indices({0, 0, 1, 0}), indices({1, 2, 2, 2}), indices({1, 1, 1, 1})}, {sliced},
          options(slice));

  const int32_t mean = m.addTensor(qtensor(TensorType::INT16, {1, 1, 1, 2}, 0.005f, 0));
  tflite::ReducerOptionsT reducer;
  reducer.keep_dims = true;
  m.addOp(BuiltinOperator::MEAN, {sliced, indices({0, 1, 2})}, {mean}, options(reducer));

  const int32_t out = m.addTensor(qtensor(TensorType::INT16, {1, 1, 1, 2}, 1.0f / 32768, 0));
  tflite::SoftmaxOptionsT softmax;
  softmax.beta = 1.0f;
  m.addOp(BuiltinOperator::SOFTMAX, {mean}, {out}, options(softmax));
  m.setInputs({in});
  m.setOutputs({out});
  return m.finish();
}

std::vector<uint8_t> variantsInput() {
  std::vector<int16_t> values;
  for (uint32_t i = 0; i < 32; ++i)
    values.push_back(static_cast<int16_t>(static_cast<int32_t>((i * 2654435761u) >> 20) - 2048));
  return bytesOf(values);
}

TEST(OperatorVariants, RunOnTheHostAndAsFirmware) {
  const std::string dir = makeTempDir("operator-variants");
  const std::string model = dir + "/variants.tflite";
  const std::string input = dir + "/in.bin";
  writeFile(model, variantsModel());
  writeFile(input, variantsInput());
  const std::vector<uint8_t> expected = runModel(variantsModel(), {variantsInput()});
  ASSERT_EQ(expected.size(), 4u);

  const std::string host_out = dir + "/host.bin";
  const RunOutcome host = runHilsim({"run", "--model", model, "--input", input, "--output",
                                     host_out, "--mode", "ref", "--quiet"});
  ASSERT_EQ(host.exit_code, 0) << host.command << "\n" << host.err;
  EXPECT_EQ(readFile(host_out), expected);

  for (const char* preset : {"cortex-m4f", "rv32im"}) {
    const std::string out = dir + "/" + preset + ".bin";
    const RunOutcome r = runHilsim({"run", "--model", model, "--input", input, "--output", out,
                                    "--mode", "ref", "--quiet", "--set",
                                    std::string("cpu.preset=") + preset, "--set", "cpu.model=iss"});
    ASSERT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
    EXPECT_EQ(readFile(out), expected) << r.command;
  }
}

}  // namespace
}  // namespace hilsim::test
