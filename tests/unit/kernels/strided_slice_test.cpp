// STRIDED_SLICE: the freestanding walk and the kernel through one-operator models (TFLite
// Micro's 1-D and 2-D cases: negative and out-of-range indices, begin/end masks, negative
// strides, shrink_axis_mask), every supported type, and prepare-time errors. Expected values
// are worked out by listing the visited indices.

#include <gtest/gtest.h>

#include "hilsim/kernels/strided_slice.h"
#include "op_model.h"

namespace hilsim::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

struct SliceCase {
  std::vector<int32_t> in_shape, begin, end, strides, out_shape;
  int32_t begin_mask = 0, end_mask = 0, shrink_axis_mask = 0;
  int32_t ellipsis_mask = 0, new_axis_mask = 0;
  bool offset = false;
};

std::vector<uint8_t> sliceModel(const SliceCase& c, TensorType type = TensorType::FLOAT32,
                                bool constant_indices = true) {
  OpModel m;
  const int32_t in = m.addTensor(tensor(type, c.in_shape));
  const auto indices = [&](const std::vector<int32_t>& v) {
    TensorSpec spec = tensor(TensorType::INT32, {static_cast<int32_t>(v.size())});
    return m.addTensor(constant_indices ? withData(spec, bytesOf(v)) : spec);
  };
  const int32_t b = indices(c.begin);
  const int32_t e = indices(c.end);
  const int32_t s = indices(c.strides);
  const int32_t out = m.addTensor(tensor(type, c.out_shape));
  tflite::StridedSliceOptionsT options;
  options.begin_mask = c.begin_mask;
  options.end_mask = c.end_mask;
  options.shrink_axis_mask = c.shrink_axis_mask;
  options.ellipsis_mask = c.ellipsis_mask;
  options.new_axis_mask = c.new_axis_mask;
  options.offset = c.offset;
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(options));
  m.addOp(BuiltinOperator::STRIDED_SLICE, {in, b, e, s}, {out}, std::move(u));
  m.setInputs(constant_indices ? std::vector<int32_t>{in} : std::vector<int32_t>{in, b, e, s});
  m.setOutputs({out});
  return m.finish();
}

std::vector<float> slice(const SliceCase& c, const std::vector<float>& in) {
  return valuesOf<float>(runModel(sliceModel(c), {bytesOf(in)}));
}

TEST(StridedSlice, FreestandingWalksFiveDimensions) {
  // [2,3] viewed as [1,1,1,2,3]: rows 1 then 0 (stride -1), columns 2 and 0 (stride -2).
  kernels::StridedSliceParams p;
  p.input_dims[3] = 2;
  p.input_dims[4] = 3;
  p.start[3] = 1;
  p.stop[3] = -1;
  p.stride[3] = -1;
  p.start[4] = 2;
  p.stop[4] = -1;
  p.stride[4] = -2;
  const uint32_t in[] = {10, 11, 12, 20, 21, 22};
  uint32_t out[4] = {};
  kernels::stridedSlice32(p, in, out);
  EXPECT_EQ(std::vector<uint32_t>(out, out + 4), (std::vector<uint32_t>{22, 20, 12, 10}));
}

TEST(StridedSlice, OneDimensionIndices) {
  const std::vector<float> in = {1, 2, 3, 4};
  // [1, 3) -> indices 1, 2.
  EXPECT_EQ(slice({{4}, {1}, {3}, {1}, {2}}, in), (std::vector<float>{2, 3}));
  // -3 -> 1.
  EXPECT_EQ(slice({{4}, {-3}, {3}, {1}, {2}}, in), (std::vector<float>{2, 3}));
  // -5 -> -1, clamped to 0.
  EXPECT_EQ(slice({{4}, {-5}, {3}, {1}, {3}}, in), (std::vector<float>{1, 2, 3}));
  // end -2 -> 2: index 1 only.
  EXPECT_EQ(slice({{4}, {1}, {-2}, {1}, {1}}, in), (std::vector<float>{2}));
  // end 5 clamped to 4.
  EXPECT_EQ(slice({{4}, {-3}, {5}, {1}, {3}}, in), (std::vector<float>{2, 3, 4}));
  // begin_mask: start at 0.
  EXPECT_EQ(slice({{4}, {1}, {3}, {1}, {3}, 1}, in), (std::vector<float>{1, 2, 3}));
  // end_mask: stop at 4.
  EXPECT_EQ(slice({{4}, {1}, {3}, {1}, {3}, 0, 1}, in), (std::vector<float>{2, 3, 4}));
  // Stride 2 over [0, 4): 0, 2.
  EXPECT_EQ(slice({{4}, {0}, {4}, {2}, {2}}, in), (std::vector<float>{1, 3}));
  // Stride 3 over [0, 4): 0, 3.
  EXPECT_EQ(slice({{4}, {0}, {4}, {3}, {2}}, in), (std::vector<float>{1, 4}));
}

TEST(StridedSlice, NegativeStrides) {
  const std::vector<float> in = {1, 2, 3, 4};
  // -2 -> 2 down to (but not) -3 -> 1: index 2.
  EXPECT_EQ(slice({{4}, {-2}, {-3}, {-1}, {1}}, in), (std::vector<float>{3}));
  // 5 clamped to 3, down to 2: index 3.
  EXPECT_EQ(slice({{4}, {5}, {2}, {-1}, {1}}, in), (std::vector<float>{4}));
  // 2 down to -4 -> 0: indices 2, 1.
  EXPECT_EQ(slice({{4}, {2}, {-4}, {-1}, {2}}, in), (std::vector<float>{3, 2}));
  // -3 -> 1 down to -5 -> -1 (clamped): indices 1, 0.
  EXPECT_EQ(slice({{4}, {-3}, {-5}, {-1}, {2}}, in), (std::vector<float>{2, 1}));
  // Masks with a negative stride: from the last element to before the first, the whole
  // reversed vector.
  EXPECT_EQ(slice({{4}, {0}, {0}, {-1}, {4}, 1, 1}, in), (std::vector<float>{4, 3, 2, 1}));
  // Stride -3 from 3: indices 3, 0.
  EXPECT_EQ(slice({{4}, {3}, {-5}, {-3}, {2}}, in), (std::vector<float>{4, 1}));
}

TEST(StridedSlice, TwoDimensionsAndShrinkAxes) {
  // 2x3: {1 2 3 / 4 5 6}.
  const std::vector<float> in = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(slice({{2, 3}, {1, 0}, {2, 2}, {1, 1}, {1, 2}}, in), (std::vector<float>{4, 5}));
  EXPECT_EQ(slice({{2, 3}, {0, 0}, {2, 3}, {2, 2}, {1, 2}}, in), (std::vector<float>{1, 3}));
  // Row 1, columns 2, 1, 0.
  EXPECT_EQ(slice({{2, 3}, {1, -1}, {2, -4}, {2, -1}, {1, 3}}, in), (std::vector<float>{6, 5, 4}));
  // begin_mask on dimension 0: rows 0 and 1, columns 0 and 1.
  EXPECT_EQ(slice({{2, 3}, {1, 0}, {2, 2}, {1, 1}, {2, 2}, 1}, in),
            (std::vector<float>{1, 2, 4, 5}));
  // Shrink dimension 0 at row -1 -> 1: a vector of row 1, columns [0, 3).
  EXPECT_EQ(slice({{2, 3}, {-1, 0}, {0, 3}, {1, 1}, {3}, 0, 0, 1}, in),
            (std::vector<float>{4, 5, 6}));
  // Shrink dimension 1 at column 1: column 1 of both rows.
  EXPECT_EQ(slice({{2, 3}, {0, 1}, {2, 0}, {1, 1}, {2}, 0, 0, 2}, in), (std::vector<float>{2, 5}));
  // Shrink both: the scalar at (1, 2).
  EXPECT_EQ(slice({{2, 3}, {1, -1}, {0, 0}, {1, 1}, {}, 0, 0, 3}, in), (std::vector<float>{6}));
}

TEST(StridedSlice, FourDimensionsEveryType) {
  // [2,1,2,2] holding 0..7; every second element of the last axis from the back, both batches.
  const SliceCase c{{2, 1, 2, 2}, {0, 0, 0, -1}, {2, 1, 2, -3}, {1, 1, 1, -2}, {2, 1, 2, 1}};
  // Visited: (b, 0, r, 1) for b, r in {0,1}: flat 1, 3, 5, 7.
  EXPECT_EQ(valuesOf<int8_t>(runModel(sliceModel(c, TensorType::INT8),
                                      {bytesOf(std::vector<int8_t>{0, 1, 2, 3, 4, 5, 6, 7})})),
            (std::vector<int8_t>{1, 3, 5, 7}));
  EXPECT_EQ(valuesOf<int16_t>(runModel(sliceModel(c, TensorType::INT16),
                                       {bytesOf(std::vector<int16_t>{0, 1, 2, 3, 4, 5, 6, 7})})),
            (std::vector<int16_t>{1, 3, 5, 7}));
  EXPECT_EQ(valuesOf<int32_t>(runModel(sliceModel(c, TensorType::INT32),
                                       {bytesOf(std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7})})),
            (std::vector<int32_t>{1, 3, 5, 7}));
  EXPECT_EQ(runModel(sliceModel(c, TensorType::BOOL), {{0, 1, 0, 1, 1, 0, 1, 1}}),
            (std::vector<uint8_t>{1, 1, 0, 1}));
}

TEST(StridedSlice, EllipsisAndNewAxisMasksAreIgnoredAsTfliteMicroDoes) {
  // TFLite Micro's BuildStridedSliceParams sets both masks to 0 and never reads the offset option,
  // so a model runs when its output has the shape of the slice without them. [2,4] holding 0..7.
  const std::vector<float> in = {0, 1, 2, 3, 4, 5, 6, 7};
  // ellipsis_mask 1 on dimension 0, whose begin and end cover it anyway: columns 1 and 2.
  EXPECT_EQ(slice({{2, 4}, {0, 1}, {2, 3}, {1, 1}, {2, 2}, 0, 0, 0, 1}, in),
            (std::vector<float>{1, 2, 5, 6}));
  // ellipsis_mask 2 with begin_mask and end_mask on dimension 1, rows reversed.
  EXPECT_EQ(slice({{2, 4}, {1, 0}, {-3, 0}, {-1, 2}, {2, 2}, 2, 2, 0, 2}, in),
            (std::vector<float>{4, 6, 0, 2}));
  // A shrunk row and ellipsis_mask 2: row 1, columns 0..3.
  EXPECT_EQ(slice({{2, 4}, {1, 0}, {2, 4}, {1, 1}, {4}, 0, 0, 1, 2}, in),
            (std::vector<float>{4, 5, 6, 7}));
  // new_axis_mask and the offset option are ignored the same way.
  EXPECT_EQ(slice({{2, 4}, {0, 3}, {2, 4}, {1, 1}, {2, 1}, 0, 0, 0, 0, 1}, in),
            (std::vector<float>{3, 7}));
  SliceCase offset{{2, 4}, {1, 1}, {2, 3}, {1, 1}, {1, 2}};
  offset.offset = true;
  EXPECT_EQ(slice(offset, in), (std::vector<float>{5, 6}));
  // Every element size goes through the same path: int8 with ellipsis_mask 1.
  EXPECT_EQ(valuesOf<int8_t>(runModel(
                sliceModel({{2, 4}, {0, 1}, {2, 3}, {1, 1}, {2, 2}, 0, 0, 0, 1}, TensorType::INT8),
                {bytesOf(std::vector<int8_t>{0, 1, 2, 3, 4, 5, 6, 7})})),
            (std::vector<int8_t>{1, 2, 5, 6}));
}

void expectPrepareError(const std::vector<uint8_t>& model, const std::string& reason) {
  const std::string error = prepareError(model);
  EXPECT_NE(error.find("operator 0 (STRIDED_SLICE)"), std::string::npos) << error;
  EXPECT_NE(error.find(reason), std::string::npos) << error;
}

TEST(StridedSlice, MalformedOperatorsAreRejected) {
  expectPrepareError(sliceModel({{4}, {0}, {4}, {0}, {4}}), "stride of dimension 0 is 0");
  expectPrepareError(sliceModel({{4}, {0}, {4}, {1}, {3}}), "does not have the sliced shape [4]");
  // With the ellipsis mask ignored, x[..., 1:3] of a [2,4] input slices rows [0, 0): its [2,2]
  // output does not have the [0,2] shape TFLite Micro checks either.
  expectPrepareError(sliceModel({{2, 4}, {0, 1}, {0, 3}, {1, 1}, {2, 2}, 0, 0, 0, 1}),
                     "does not have the sliced shape [0,2]");
  expectPrepareError(sliceModel({{4}, {0}, {4}, {1}, {4}}, TensorType::FLOAT32, false),
                     "begin must be a constant tensor");
  expectPrepareError(sliceModel({{2, 2}, {0}, {2}, {1}, {2, 2}}), "int32 vector of 2 entries");
  expectPrepareError(
      sliceModel(
          {{1, 1, 1, 1, 2}, {0, 0, 0, 0, 0}, {1, 1, 1, 1, 2}, {1, 1, 1, 1, 1}, {1, 1, 1, 1, 2}}),
      "1 to 4 dimensions");
  expectPrepareError(sliceModel({{4}, {4}, {5}, {1}, {}, 0, 0, 1}), "index 4 is outside");
  expectPrepareError(sliceModel({{4}, {-5}, {0}, {1}, {}, 0, 0, 1}), "index -5 is outside");
  expectPrepareError(sliceModel({{4}, {2}, {1}, {-1}, {}, 0, 0, 1}), "negative stride");
  expectPrepareError(sliceModel({{4}, {0}, {4}, {1}, {4}}, TensorType::UINT8), "unsupported type");
}

}  // namespace
}  // namespace hilsim::test
