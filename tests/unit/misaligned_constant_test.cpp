// A constant whose data is not aligned to its element type (a crafted buffer offset) is a load
// error: kernels read constants as arrays of their type.

#include <gtest/gtest.h>

#include "op_model.h"

namespace hilsim::test {
namespace {

TEST(ModelLoader, ConstantDataAtAMisalignedOffsetIsAnError) {
  OpModel m;
  const int32_t in = m.addTensor(tensor(tflite::TensorType::FLOAT32, {2, 2}));
  const int32_t paddings = m.addTensor(withData(tensor(tflite::TensorType::INT32, {2, 2}),
                                                bytesOf(std::vector<int32_t>{1, 0, 0, 1})));
  const int32_t out = m.addTensor(tensor(tflite::TensorType::FLOAT32, {3, 3}));
  m.addOp(tflite::BuiltinOperator::PAD, {in, paddings}, {out});
  m.setInputs({in});
  m.setOutputs({out});
  // Move the paddings out of the flatbuffer, to one byte past a 4-byte boundary.
  tflite::BufferT& b = *m.model().buffers.back();
  const std::vector<uint8_t> data = b.data;
  b.data.clear();
  b.offset = 1u << 20;  // any offset of the same encoded size; set below
  b.size = data.size();
  std::vector<uint8_t> bytes = m.finish();
  const size_t aligned = (bytes.size() + 3) / 4 * 4;
  b.offset = aligned + 1;
  bytes = m.finish();
  bytes.resize(aligned + 1, 0);
  bytes.insert(bytes.end(), data.begin(), data.end());
  const std::string error = prepareError(bytes);
  EXPECT_NE(error.find("not aligned to its 4-byte INT32 elements"), std::string::npos) << error;
}

}  // namespace
}  // namespace hilsim::test
