// TRANSPOSE: the freestanding reordering and the kernel through one-operator models (identity,
// reversal, NCHW to NHWC, 6 dimensions, every supported type) against hand-worked layouts or the
// index definition out[o] = in[i] with o_d = i_perm[d], and prepare-time errors.

#include <gtest/gtest.h>

#include <numeric>

#include "hilsim/kernels/transpose.h"
#include "op_model.h"

namespace hilsim::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

std::vector<uint8_t> transposeModel(TensorType type, std::vector<int32_t> in_shape,
                                    std::vector<int32_t> perm, std::vector<int32_t> out_shape,
                                    bool constant_perm = true) {
  OpModel m;
  const int32_t in = m.addTensor(tensor(type, std::move(in_shape)));
  TensorSpec perm_spec = tensor(TensorType::INT32, {static_cast<int32_t>(perm.size())});
  if (constant_perm) perm_spec = withData(perm_spec, bytesOf(perm));
  const int32_t p = m.addTensor(perm_spec);
  const int32_t out = m.addTensor(tensor(type, std::move(out_shape)));
  m.addOp(BuiltinOperator::TRANSPOSE, {in, p}, {out});
  m.setInputs(constant_perm ? std::vector<int32_t>{in} : std::vector<int32_t>{in, p});
  m.setOutputs({out});
  return m.finish();
}

template <typename T>
std::vector<T> iota(size_t n) {
  std::vector<T> v(n);
  std::iota(v.begin(), v.end(), T(0));
  return v;
}

TEST(Transpose, FreestandingSwapsTheAxesOfAMatrix) {
  // [2,3] -> [3,2]: output row j is input column j.
  kernels::TransposeParams p;
  p.rank = 2;
  p.output_dims[0] = 3;
  p.output_dims[1] = 2;
  p.input_strides[0] = 1;  // output dim 0 walks input dim 1
  p.input_strides[1] = 3;  // output dim 1 walks input dim 0
  const uint8_t in[] = {1, 2, 3, 4, 5, 6};
  uint8_t out[6] = {};
  kernels::transpose8(p, in, out);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 6), (std::vector<uint8_t>{1, 4, 2, 5, 3, 6}));
}

TEST(Transpose, IdentityPermutationCopies) {
  const auto in = iota<float>(24);
  EXPECT_EQ(
      valuesOf<float>(runModel(transposeModel(TensorType::FLOAT32, {2, 3, 4}, {0, 1, 2}, {2, 3, 4}),
                               {bytesOf(in)})),
      in);
}

TEST(Transpose, ThreeDimensionsRotated) {
  // in[i][j][k] = 12i + 4j + k, perm {2,0,1}: out[k][i][j], listed k-major.
  const auto got =
      valuesOf<int8_t>(runModel(transposeModel(TensorType::INT8, {2, 3, 4}, {2, 0, 1}, {4, 2, 3}),
                                {bytesOf(iota<int8_t>(24))}));
  EXPECT_EQ(got, (std::vector<int8_t>{0, 4, 8,  12, 16, 20, 1, 5, 9,  13, 17, 21,
                                      2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23}));
}

TEST(Transpose, ReversalOfThreeDimensions) {
  // perm {2,1,0}: out[k][j][i] = in[i][j][k] = 12i + 4j + k.
  const auto got =
      valuesOf<int16_t>(runModel(transposeModel(TensorType::INT16, {2, 3, 4}, {2, 1, 0}, {4, 3, 2}),
                                 {bytesOf(iota<int16_t>(24))}));
  std::vector<int16_t> expected;
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 2; ++i) expected.push_back(static_cast<int16_t>(12 * i + 4 * j + k));
  EXPECT_EQ(got, expected);
}

TEST(Transpose, NchwToNhwc) {
  // [1,3,2,2] channel planes {0..3}, {10..13}, {20..23} interleave per pixel.
  const std::vector<int32_t> in = {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23};
  EXPECT_EQ(valuesOf<int32_t>(runModel(
                transposeModel(TensorType::INT32, {1, 3, 2, 2}, {0, 2, 3, 1}, {1, 2, 2, 3}),
                {bytesOf(in)})),
            (std::vector<int32_t>{0, 10, 20, 1, 11, 21, 2, 12, 22, 3, 13, 23}));
}

TEST(Transpose, SixDimensions) {
  const std::vector<int32_t> in_shape = {2, 1, 3, 2, 1, 2};
  const std::vector<int32_t> perm = {5, 2, 0, 4, 3, 1};
  std::vector<int32_t> out_shape;
  for (int32_t a : perm) out_shape.push_back(in_shape[static_cast<size_t>(a)]);
  const auto got = valuesOf<int8_t>(runModel(
      transposeModel(TensorType::INT8, in_shape, perm, out_shape), {bytesOf(iota<int8_t>(24))}));
  // Input strides of [2,1,3,2,1,2]: 12, 12, 4, 2, 2, 1; output index o reads input index i with
  // i[perm[d]] = o[d].
  const int strides[6] = {12, 12, 4, 2, 2, 1};
  std::vector<int8_t> expected;
  for (int o0 = 0; o0 < 2; ++o0)
    for (int o1 = 0; o1 < 3; ++o1)
      for (int o2 = 0; o2 < 2; ++o2)
        for (int o3 = 0; o3 < 1; ++o3)
          for (int o4 = 0; o4 < 2; ++o4)
            for (int o5 = 0; o5 < 1; ++o5) {
              const int o[6] = {o0, o1, o2, o3, o4, o5};
              int flat = 0;
              for (int d = 0; d < 6; ++d) flat += o[d] * strides[perm[static_cast<size_t>(d)]];
              expected.push_back(static_cast<int8_t>(flat));
            }
  EXPECT_EQ(got, expected);
}

void expectPrepareError(const std::vector<uint8_t>& model, const std::string& reason) {
  const std::string error = prepareError(model);
  EXPECT_NE(error.find("operator 0 (TRANSPOSE)"), std::string::npos) << error;
  EXPECT_NE(error.find(reason), std::string::npos) << error;
}

TEST(Transpose, MalformedOperatorsAreRejected) {
  expectPrepareError(transposeModel(TensorType::FLOAT32, {2, 3}, {1, 1}, {3, 3}),
                     "is not a permutation of 0..1");
  expectPrepareError(transposeModel(TensorType::FLOAT32, {2, 3}, {0, 2}, {2, 3}),
                     "is not a permutation");
  expectPrepareError(transposeModel(TensorType::FLOAT32, {2, 3}, {-1, 0}, {3, 2}),
                     "is not a permutation");
  expectPrepareError(transposeModel(TensorType::FLOAT32, {2, 3}, {1, 0}, {2, 3}),
                     "is not input FLOAT32 [2,3] permuted by [1,0]");
  expectPrepareError(transposeModel(TensorType::FLOAT32, {2, 3}, {1, 0, 2}, {3, 2}),
                     "int32 vector of 2 entries");
  expectPrepareError(transposeModel(TensorType::FLOAT32, {2, 3}, {1, 0}, {3, 2}, false),
                     "permutation must be a constant tensor");
  expectPrepareError(transposeModel(TensorType::FLOAT32, {1, 1, 1, 1, 1, 1, 1},
                                    {0, 1, 2, 3, 4, 5, 6}, {1, 1, 1, 1, 1, 1, 1}),
                     "1 to 6 dimensions");
  expectPrepareError(transposeModel(TensorType::UINT8, {2, 3}, {1, 0}, {3, 2}), "unsupported type");
  // The int32 input strides of [2, 2^16, 2^16] would overflow.
  expectPrepareError(
      transposeModel(TensorType::INT8, {2, 65536, 65536}, {1, 0, 2}, {65536, 2, 65536}),
      "has more than 2^31 - 1 elements");
  // A zero outer dimension leaves no elements, but the stride of that dimension (2 x 2^32)
  // still overflows int32.
  expectPrepareError(
      transposeModel(TensorType::INT8, {0, 65536, 65536, 2}, {1, 0, 2, 3}, {65536, 0, 65536, 2}),
      "has a stride of more than 2^31 - 1 elements");
}

}  // namespace
}  // namespace hilsim::test
