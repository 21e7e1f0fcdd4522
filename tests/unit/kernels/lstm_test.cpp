// UNIDIRECTIONAL_SEQUENCE_LSTM: the stages of a step against hand-computed values, whole
// sequences through one-operator models (a one-cell int8 LSTM worked out by hand, TensorFlow
// Lite Micro's 2x3x2x2 test vectors, layout and state invariants), and prepare-time errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "hilsim/kernels/lstm.h"
#include "hilsim/kernels/lstm_step.h"
#include "hilsim/rt/interpreter.h"
#include "op_model.h"

namespace hilsim::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

// ---------------------------------------------------------------------------------------------
// Building and running one-operator LSTM models.

struct LstmSpec {
  std::vector<std::optional<TensorSpec>> inputs;  // by operator input index; nullopt: omitted
  TensorSpec output;
  tflite::UnidirectionalSequenceLSTMOptionsT options;
};

struct LstmModel {
  std::vector<uint8_t> bytes;
  int32_t hidden_tensor = -1;
  int32_t cell_tensor = -1;
};

LstmModel build(const LstmSpec& spec) {
  OpModel m;
  std::vector<int32_t> indices;
  for (const auto& t : spec.inputs) indices.push_back(t ? m.addTensor(*t) : -1);
  const int32_t out = m.addTensor(spec.output);
  tflite::BuiltinOptionsUnion options;
  options.Set(tflite::UnidirectionalSequenceLSTMOptionsT(spec.options));
  m.addOp(BuiltinOperator::UNIDIRECTIONAL_SEQUENCE_LSTM, indices, {out}, std::move(options));
  m.setInputs({indices.at(0)});
  m.setOutputs({out});
  LstmModel model;
  model.bytes = m.finish();
  if (indices.size() > 19) {
    model.hidden_tensor = indices[18];
    model.cell_tensor = indices[19];
  }
  return model;
}

struct LstmRun {
  std::vector<uint8_t> output;  // every invocation's output, concatenated
  std::vector<uint8_t> hidden;  // the states after the last invocation
  std::vector<uint8_t> cell;
};

// One interpreter, one invocation per frame.
LstmRun run(const LstmModel& model, const std::vector<std::vector<uint8_t>>& frames) {
  rt::Model loaded = rt::Model::fromBytes(model.bytes, "lstm test");
  const rt::OpResolver resolver = rt::referenceOpResolver();
  rt::Interpreter interp(loaded, resolver);
  interp.allocate();
  LstmRun result;
  for (const auto& frame : frames) {
    rt::Tensor& in = interp.input(0);
    EXPECT_EQ(frame.size(), in.bytes);
    if (in.bytes) std::memcpy(in.data, frame.data(), std::min(frame.size(), in.bytes));
    interp.invoke();
    const rt::Tensor& out = interp.output(0);
    result.output.insert(result.output.end(), out.data, out.data + out.bytes);
  }
  const auto bytesOfTensor = [&](int32_t index) {
    const rt::Tensor& t = interp.tensors().at(static_cast<size_t>(index));
    return std::vector<uint8_t>(t.data, t.data + t.bytes);
  };
  result.hidden = bytesOfTensor(model.hidden_tensor);
  result.cell = bytesOfTensor(model.cell_tensor);
  return result;
}

void expectPrepareError(const LstmSpec& spec, const std::string& reason);

template <typename T>
TensorSpec constant(TensorType type, std::vector<int32_t> shape, const std::vector<T>& values,
                    float scale = 0.0f) {
  TensorSpec spec =
      scale > 0.0f ? qtensor(type, std::move(shape), scale, 0) : tensor(type, std::move(shape));
  return withData(std::move(spec), bytesOf(values));
}

// ---------------------------------------------------------------------------------------------
// A one-cell, one-feature int8 LSTM whose every step is worked out by hand below.
//   input scale 2^-6 (zp 0), input-side weights scale 2^-6: x * w lands on 2^-12, the Q3.12
//   gate input, so the FC multiplier is exactly 1 (2^30, shift 1); hidden state scale 2^-7 with
//   zero point 5 and recurrent weights scale 2^-5: again 2^-12. Cell scale 2^-11.
//   weights (input side / recurrent):  input gate 64 / 0, forget -64 / 0, cell 32 / 0,
//   output 0 / 32; biases 0, 0, 0, 4096 (1.0 in Q3.12).
constexpr float kScaleX = 0.015625f;          // 2^-6
constexpr float kScaleH = 0.0078125f;         // 2^-7
constexpr float kScaleWh = 0.03125f;          // 2^-5
constexpr float kScaleCell = 0.00048828125f;  // 2^-11
constexpr int64_t kZeroH = 5;

LstmSpec oneCellSpec(int32_t time_steps, float cell_clip = 0.0f) {
  LstmSpec s;
  s.inputs.resize(24);
  s.inputs[0] = qtensor(TensorType::INT8, {1, time_steps, 1}, kScaleX, 0);
  const int8_t wx[4] = {64, -64, 32, 0};
  const int8_t wh[4] = {0, 0, 0, 32};
  const int32_t bias[4] = {0, 0, 0, 4096};
  for (size_t g = 0; g < 4; ++g) {
    s.inputs[1 + g] = constant(TensorType::INT8, {1, 1}, std::vector<int8_t>{wx[g]}, kScaleX);
    s.inputs[5 + g] = constant(TensorType::INT8, {1, 1}, std::vector<int8_t>{wh[g]}, kScaleWh);
    s.inputs[12 + g] =
        constant(TensorType::INT32, {1}, std::vector<int32_t>{bias[g]}, kScaleX * kScaleX);
  }
  s.inputs[18] = asVariable(qtensor(TensorType::INT8, {1, 1}, kScaleH, kZeroH));
  s.inputs[19] = asVariable(qtensor(TensorType::INT16, {1, 1}, kScaleCell, 0));
  s.output = qtensor(TensorType::INT8, {1, time_steps, 1}, kScaleH, kZeroH);
  s.options.fused_activation_function = tflite::ActivationFunctionType::TANH;
  s.options.cell_clip = cell_clip;
  return s;
}

// Step 1, x = 64 (1.0), h = 5 (0.0), c = 0. Gate inputs in Q3.12, outputs in Q0.15; sigmoid and
// tanh read the table at x = 3q (see logistic_test.cpp / tanh_test.cpp):
//   i = sigmoid(4096): index 24, fraction 0: 47911 * 512 + 512 >> 10 = 23956
//   f = sigmoid(-4096): 2^25 - 47911 * 512 + 511 >> 10 = 8812
//   g = tanh(2048): 47911 * 256 - 2^23 + 128 >> 8 = 15143
//   o = sigmoid(4096 + 32 * (5 - 5)) = 23956
//   c = f * 0 / 2^15 + i * g / 2^19 = 362765708 / 524288 = 691.9 -> 692
//   tanh(c) at cell scale 2^-11: x = 6 * 692 = 4152, index 16, fraction 56:
//     43304 * 256 + 56 * 608 = 11119872; - 2^23 + 128 >> 8 = 10669
//   h = 5 + 10669 * 23956 / 2^23 = 5 + 30.47 -> 35
// Step 2, x = -64: i = 8812, f = 23956, g = -15143;
//   o = sigmoid(4096 + 32 * (35 - 5)) = sigmoid(5056): x = 15168, index 29, fraction 320:
//     50464 * 512 + 320 * 478 + 512 >> 10 = 25381
//   c = 23956 * 692 / 2^15 (505.9 -> 506) + 8812 * -15143 / 2^19 (-254.52 -> -255) = 251
//   tanh(251): x = 1506, index 5, fraction 226: 36169 * 256 + 226 * 674 - 2^23 + 128 >> 8 = 3996
//   h = 5 + 3996 * 25381 / 2^23 = 5 + 12.09 -> 17
TEST(Lstm, OneCellTwoStepsWorkedOutByHand) {
  const LstmRun r = run(build(oneCellSpec(2)), {bytesOf(std::vector<int8_t>{64, -64})});
  EXPECT_EQ(valuesOf<int8_t>(r.output), (std::vector<int8_t>{35, 17}));
  EXPECT_EQ(valuesOf<int8_t>(r.hidden), (std::vector<int8_t>{17}));
  EXPECT_EQ(valuesOf<int16_t>(r.cell), (std::vector<int16_t>{251}));
}

TEST(Lstm, StateCarriesAcrossInvocations) {
  // The same two steps as two one-step invocations of one interpreter.
  const LstmRun r = run(build(oneCellSpec(1)),
                        {bytesOf(std::vector<int8_t>{64}), bytesOf(std::vector<int8_t>{-64})});
  EXPECT_EQ(valuesOf<int8_t>(r.output), (std::vector<int8_t>{35, 17}));
  EXPECT_EQ(valuesOf<int16_t>(r.cell), (std::vector<int16_t>{251}));
}

TEST(Lstm, CellClipBoundsTheCellStateEveryStep) {
  // cell_clip 0.25 at scale 2^-11: 512. Step 1: c = 692 -> 512, tanh(512): x = 3072, index 12,
  // fraction 0: 40794 * 256 - 2^23 + 128 >> 8 = 8026; h = 5 + 8026 * 23956 / 2^23 (22.9) = 28.
  // Step 2 from c = 512: o = sigmoid(4096 + 32 * 23) = 25064; c = 23956 * 512 / 2^15 (374.3)
  // - 255 = 119; tanh(119) = 1902; h = 5 + 1902 * 25064 / 2^23 (5.7) = 11.
  const LstmRun r = run(build(oneCellSpec(2, 0.25f)), {bytesOf(std::vector<int8_t>{64, -64})});
  EXPECT_EQ(valuesOf<int8_t>(r.output), (std::vector<int8_t>{28, 11}));
  EXPECT_EQ(valuesOf<int16_t>(r.cell), (std::vector<int16_t>{119}));
}

TEST(Lstm, InputZeroPointsAtTheEndsOfTheRange) {
  // Zero point -128: q = -64 is x = 64, step 1 above.
  LstmSpec low = oneCellSpec(1);
  low.inputs[0]->zero_points = {-128};
  EXPECT_EQ(valuesOf<int8_t>(run(build(low), {bytesOf(std::vector<int8_t>{-64})}).output),
            (std::vector<int8_t>{35}));
  // Zero point 127: q = 63 is x = -64 from the zero state: i = 8812, f = 23956, g = -15143,
  // o = 23956; c = 8812 * -15143 / 2^19 (-254.52) = -255; tanh(-255): x = -1530, index 5,
  // fraction 250: (-(36169 * 256 + 250 * 674) + 2^23 + 127) >> 8 = -4059;
  // h = 5 + -4059 * 23956 / 2^23 (-11.59) = -7.
  LstmSpec high = oneCellSpec(1);
  high.inputs[0]->zero_points = {127};
  EXPECT_EQ(valuesOf<int8_t>(run(build(high), {bytesOf(std::vector<int8_t>{63})}).output),
            (std::vector<int8_t>{-7}));
}

TEST(Lstm, ZeroTimeStepsRunAndLeaveTheStates) {
  const LstmRun r = run(build(oneCellSpec(0)), {{}, {}});
  EXPECT_TRUE(r.output.empty());
  EXPECT_EQ(valuesOf<int8_t>(r.hidden), (std::vector<int8_t>{kZeroH}));  // starts at its zero point
  EXPECT_EQ(valuesOf<int16_t>(r.cell), (std::vector<int16_t>{0}));
}

// ---------------------------------------------------------------------------------------------
// TensorFlow Lite Micro's 2x3x2x2 LSTM test (kernels/testdata/lstm_test_data.cc): batch 2,
// 3 time steps, 2 inputs, 2 cells, batch-major, cell_clip 6, states starting at 0.

constexpr int kB = 2, kT = 3, kI = 2, kS = 2;
// Gate order input, forget, cell, output.
const std::vector<float> kTflmInputWeights[4] = {
    {10, 10, 20, 20}, {-10, -10, -20, -20}, {1, 1, 1, 1}, {1, 1, 1, 1}};
const std::vector<float> kTflmBiases[4] = {{-1, -2}, {1, 2}, {0, 0}, {0, 0}};
const std::vector<float> kTflmInput = {0.2f,   0.3f,  0.2f,  0.3f,  0.2f,  0.3f,
                                       -0.98f, 0.62f, 0.01f, 0.99f, 0.49f, -0.32f};
const std::vector<float> kTflmOutput = {0.26455893f, 0.26870455f, 0.47935803f,     0.47937014f,
                                        0.58013272f, 0.58013278f, -1.41184672e-3f, -1.43329117e-5f,
                                        0.46887168f, 0.46891281f, 0.50054074f,     0.50054148f};
const std::vector<float> kTflmHidden = {0.58013272f, 0.58013278f, 0.50054074f, 0.50054148f};
const std::vector<float> kTflmCell = {0.89740515f, 0.8974053f, 0.80327607f, 0.80327785f};

LstmSpec tflmFloatSpec(bool time_major) {
  LstmSpec s;
  s.inputs.resize(24);
  const std::vector<int32_t> io_shape =
      time_major ? std::vector<int32_t>{kT, kB, kI} : std::vector<int32_t>{kB, kT, kI};
  s.inputs[0] = tensor(TensorType::FLOAT32, io_shape);
  for (size_t g = 0; g < 4; ++g) {
    // Recurrent weights equal the input-side ones in this test.
    s.inputs[1 + g] = constant(TensorType::FLOAT32, {kS, kI}, kTflmInputWeights[g]);
    s.inputs[5 + g] = constant(TensorType::FLOAT32, {kS, kS}, kTflmInputWeights[g]);
    s.inputs[12 + g] = constant(TensorType::FLOAT32, {kS}, kTflmBiases[g]);
  }
  s.inputs[18] = asVariable(tensor(TensorType::FLOAT32, {kB, kS}));
  s.inputs[19] = asVariable(tensor(TensorType::FLOAT32, {kB, kS}));
  s.output = tensor(TensorType::FLOAT32, time_major ? std::vector<int32_t>{kT, kB, kS}
                                                    : std::vector<int32_t>{kB, kT, kS});
  s.options.fused_activation_function = tflite::ActivationFunctionType::TANH;
  s.options.cell_clip = 6.0f;
  s.options.time_major = time_major;
  return s;
}

void expectNear(const std::vector<float>& got, const std::vector<float>& want, float tolerance) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tolerance) << "at " << i;
}

TEST(Lstm, FloatMatchesTflmTestVectors) {
  const LstmRun r = run(build(tflmFloatSpec(false)), {bytesOf(kTflmInput)});
  expectNear(valuesOf<float>(r.output), kTflmOutput, 1e-6f);
  expectNear(valuesOf<float>(r.hidden), kTflmHidden, 1e-6f);
  expectNear(valuesOf<float>(r.cell), kTflmCell, 1e-6f);
}

// [a][b][c] -> [b][a][c] for an array of n_a x n_b rows of `width` elements.
template <typename T>
std::vector<T> swapLeadingAxes(const std::vector<T>& v, int n_a, int n_b, int width) {
  std::vector<T> out(v.size());
  for (int a = 0; a < n_a; ++a)
    for (int b = 0; b < n_b; ++b)
      for (int c = 0; c < width; ++c)
        out[(size_t(b) * n_a + a) * width + c] = v[(size_t(a) * n_b + b) * width + c];
  return out;
}

TEST(Lstm, FloatTimeMajorGivesTheSameBytesAsBatchMajor) {
  const LstmRun batch_major = run(build(tflmFloatSpec(false)), {bytesOf(kTflmInput)});
  const LstmRun time_major =
      run(build(tflmFloatSpec(true)), {bytesOf(swapLeadingAxes(kTflmInput, kB, kT, kI))});
  EXPECT_EQ(swapLeadingAxes(valuesOf<float>(time_major.output), kT, kB, kS),
            valuesOf<float>(batch_major.output));
  EXPECT_EQ(time_major.hidden, batch_major.hidden);
  EXPECT_EQ(time_major.cell, batch_major.cell);
}

// The int8 version: TFLite Micro's quantization settings for the same network
// (Get2X2Int8LstmQuantizationSettings), compared after dequantization with its tolerance.
constexpr float kTflmScaleX = 0.00784313725490196f;
constexpr float kTflmScaleH = 0.004705882165580988f;
constexpr int32_t kTflmZeroH = -21;
constexpr float kTflmScaleCell = 0.00024414062f;
const float kTflmWeightScale[4] = {0.15748031496062992f, 0.15748031496062992f,
                                   0.007874015748031496f, 0.007874015748031496f};
const float kTflmBiasScale[4] = {0.0012351397251814111f, 0.0012351397251814111f,
                                 6.175698625907056e-5f, 6.175698625907056e-5f};

template <typename T>
std::vector<T> quantize(const std::vector<float>& values, float scale, int32_t zero_point) {
  std::vector<T> q;
  for (float v : values) {
    const long r = std::lround(double{v} / double{scale}) + zero_point;
    q.push_back(static_cast<T>(
        std::clamp<long>(r, std::numeric_limits<T>::min(), std::numeric_limits<T>::max())));
  }
  return q;
}

template <typename T>
std::vector<float> dequantize(const std::vector<T>& values, float scale, int32_t zero_point) {
  std::vector<float> f;
  for (T v : values) f.push_back(scale * static_cast<float>(int32_t{v} - zero_point));
  return f;
}

LstmSpec tflmInt8Spec(bool time_major) {
  LstmSpec s;
  s.inputs.resize(24);
  const std::vector<int32_t> io_shape =
      time_major ? std::vector<int32_t>{kT, kB, kI} : std::vector<int32_t>{kB, kT, kI};
  s.inputs[0] = qtensor(TensorType::INT8, io_shape, kTflmScaleX, 0);
  for (size_t g = 0; g < 4; ++g) {
    const auto w = quantize<int8_t>(kTflmInputWeights[g], kTflmWeightScale[g], 0);
    s.inputs[1 + g] = constant(TensorType::INT8, {kS, kI}, w, kTflmWeightScale[g]);
    s.inputs[5 + g] = constant(TensorType::INT8, {kS, kS}, w, kTflmWeightScale[g]);
    s.inputs[12 + g] =
        constant(TensorType::INT32, {kS}, quantize<int32_t>(kTflmBiases[g], kTflmBiasScale[g], 0),
                 kTflmBiasScale[g]);
  }
  s.inputs[18] = asVariable(qtensor(TensorType::INT8, {kB, kS}, kTflmScaleH, kTflmZeroH));
  s.inputs[19] = asVariable(qtensor(TensorType::INT16, {kB, kS}, kTflmScaleCell, 0));
  s.output =
      qtensor(TensorType::INT8,
              time_major ? std::vector<int32_t>{kT, kB, kS} : std::vector<int32_t>{kB, kT, kS},
              kTflmScaleH, kTflmZeroH);
  s.options.fused_activation_function = tflite::ActivationFunctionType::TANH;
  s.options.cell_clip = 6.0f;
  s.options.time_major = time_major;
  return s;
}

TEST(Lstm, Int8MatchesTflmTestVectorsWithinItsTolerance) {
  const auto input = quantize<int8_t>(kTflmInput, kTflmScaleX, 0);
  const LstmRun r = run(build(tflmInt8Spec(false)), {bytesOf(input)});
  expectNear(dequantize(valuesOf<int8_t>(r.output), kTflmScaleH, kTflmZeroH), kTflmOutput, 1e-2f);
  expectNear(dequantize(valuesOf<int8_t>(r.hidden), kTflmScaleH, kTflmZeroH), kTflmHidden, 1e-2f);
  expectNear(dequantize(valuesOf<int16_t>(r.cell), kTflmScaleCell, 0), kTflmCell, 1e-2f);
}

TEST(Lstm, Int8TimeMajorGivesTheSameBytesAsBatchMajor) {
  const auto input = quantize<int8_t>(kTflmInput, kTflmScaleX, 0);
  const LstmRun batch_major = run(build(tflmInt8Spec(false)), {bytesOf(input)});
  const LstmRun time_major =
      run(build(tflmInt8Spec(true)), {bytesOf(swapLeadingAxes(input, kB, kT, kI))});
  EXPECT_EQ(swapLeadingAxes(valuesOf<int8_t>(time_major.output), kT, kB, kS),
            valuesOf<int8_t>(batch_major.output));
  EXPECT_EQ(time_major.cell, batch_major.cell);
}

// The work prepare reports to the cost model: batch-major runs each batch through the sequence
// (kB x kT steps), time-major one step per time index over both batches (kT steps).
TEST(Lstm, WorkCountsGateMacsCellStepsAndSequenceSteps) {
  for (const bool time_major : {false, true}) {
    const LstmModel model = build(tflmInt8Spec(time_major));
    rt::Model loaded = rt::Model::fromBytes(model.bytes, "lstm work");
    const rt::OpResolver resolver = rt::referenceOpResolver();
    rt::Interpreter interp(loaded, resolver);
    interp.allocate();
    const timing::OpWork& w = interp.work().at(0);
    // Four gates, each an input product (kI) and a recurrent one (kS) per cell step.
    EXPECT_EQ(w.macs, uint64_t(4 * kB * kT * kS * (kI + kS))) << time_major;
    EXPECT_EQ(w.recurrent_macs, uint64_t(4 * kB * kT * kS * kS)) << time_major;
    const timing::LstmGateLoads loads = timing::lstmGateLoads(kT, kB, kI, kS);
    EXPECT_EQ(w.unaligned_loads, loads.unaligned_loads) << time_major;
    EXPECT_EQ(w.tail_macs, loads.tail_macs) << time_major;
    EXPECT_EQ(w.elements, uint64_t(kB * kT * kS)) << time_major;
    EXPECT_EQ(w.steps, uint64_t(time_major ? kT : kB * kT)) << time_major;
  }
}

// ---------------------------------------------------------------------------------------------
// 16x8: int16 activations, int8 weights, int64 biases.

// The one-cell LSTM above with int16 activations: input and hidden scale 2^-10 (zero point 0),
// all weights scale 2^-2, so x * w and h * w land on 2^-12 again. The 64-bit requantization of
// multiplier 1 (2^30, shift 1) is exact: (acc * 2^14 + 2^13) >> 14. Weights (input side /
// recurrent): input gate 4 / 0, forget -4 / 0, cell 2 / 0, output 0 / 4; bias 4096 on output.
LstmSpec oneCellInt16Spec(int32_t time_steps) {
  constexpr float kScale = 0.0009765625f;  // 2^-10
  constexpr float kWeightScale = 0.25f;
  LstmSpec s;
  s.inputs.resize(24);
  s.inputs[0] = qtensor(TensorType::INT16, {1, time_steps, 1}, kScale, 0);
  const int8_t wx[4] = {4, -4, 2, 0};
  const int8_t wh[4] = {0, 0, 0, 4};
  const int64_t bias[4] = {0, 0, 0, 4096};
  for (size_t g = 0; g < 4; ++g) {
    s.inputs[1 + g] = constant(TensorType::INT8, {1, 1}, std::vector<int8_t>{wx[g]}, kWeightScale);
    s.inputs[5 + g] = constant(TensorType::INT8, {1, 1}, std::vector<int8_t>{wh[g]}, kWeightScale);
    s.inputs[12 + g] =
        constant(TensorType::INT64, {1}, std::vector<int64_t>{bias[g]}, kScale * kWeightScale);
  }
  s.inputs[18] = asVariable(qtensor(TensorType::INT16, {1, 1}, kScale, 0));
  s.inputs[19] = asVariable(qtensor(TensorType::INT16, {1, 1}, kScaleCell, 0));
  s.output = qtensor(TensorType::INT16, {1, time_steps, 1}, kScale, 0);
  s.options.fused_activation_function = tflite::ActivationFunctionType::TANH;
  return s;
}

// Step 1 (x = 1024): the gates, cell (692) and tanh(cell) (10669) of the int8 case; the hidden
// state scale 2^-10 makes the product multiplier 2^-30 / 2^-10 = 2^-20:
//   h = 10669 * 23956 / 2^20 = 243.7 -> 244.
// Step 2 (x = -1024): o = sigmoid(4096 + 4 * 244) = sigmoid(5072): x = 15216, index 29,
//   fraction 368: (50464 * 512 + 368 * 478 + 512) >> 10 = 25404; c = 251 and tanh(c) = 3996
//   as in the int8 case; h = 3996 * 25404 / 2^20 = 96.8 -> 97.
TEST(Lstm, Int16OneCellTwoStepsWorkedOutByHand) {
  const LstmRun r = run(build(oneCellInt16Spec(2)), {bytesOf(std::vector<int16_t>{1024, -1024})});
  EXPECT_EQ(valuesOf<int16_t>(r.output), (std::vector<int16_t>{244, 97}));
  EXPECT_EQ(valuesOf<int16_t>(r.cell), (std::vector<int16_t>{251}));
}

// TFLite Micro's int16 settings for the 2x3x2x2 network (Get2X2Int16LstmQuantizationSettings).
LstmSpec tflmInt16Spec() {
  constexpr float kScaleX16 = 3.0518044e-5f;
  constexpr float kScaleH16 = 2.1362956633198035e-05f;
  const float kBiasScale16[4] = {4.8059911474468205e-06f, 4.8059911474468205e-06f,
                                 2.40299557372341e-07f, 2.40299557372341e-07f};
  LstmSpec s;
  s.inputs.resize(24);
  s.inputs[0] = qtensor(TensorType::INT16, {kB, kT, kI}, kScaleX16, 0);
  for (size_t g = 0; g < 4; ++g) {
    const auto w = quantize<int8_t>(kTflmInputWeights[g], kTflmWeightScale[g], 0);
    s.inputs[1 + g] = constant(TensorType::INT8, {kS, kI}, w, kTflmWeightScale[g]);
    s.inputs[5 + g] = constant(TensorType::INT8, {kS, kS}, w, kTflmWeightScale[g]);
    s.inputs[12 + g] =
        constant(TensorType::INT64, {kS}, quantize<int64_t>(kTflmBiases[g], kBiasScale16[g], 0),
                 kBiasScale16[g]);
  }
  s.inputs[18] = asVariable(qtensor(TensorType::INT16, {kB, kS}, kScaleH16, 0));
  s.inputs[19] = asVariable(qtensor(TensorType::INT16, {kB, kS}, kTflmScaleCell, 0));
  s.output = qtensor(TensorType::INT16, {kB, kT, kS}, kScaleH16, 0);
  s.options.fused_activation_function = tflite::ActivationFunctionType::TANH;
  s.options.cell_clip = 6.0f;
  return s;
}

TEST(Lstm, Int16MatchesTflmTestVectorsWithinItsTolerance) {
  const LstmSpec spec = tflmInt16Spec();
  const float scale_x = spec.inputs[0]->scales[0];
  const float scale_h = spec.output.scales[0];
  const LstmRun r = run(build(spec), {bytesOf(quantize<int16_t>(kTflmInput, scale_x, 0))});
  expectNear(dequantize(valuesOf<int16_t>(r.output), scale_h, 0), kTflmOutput, 1e-3f);
  expectNear(dequantize(valuesOf<int16_t>(r.hidden), scale_h, 0), kTflmHidden, 1e-3f);
  expectNear(dequantize(valuesOf<int16_t>(r.cell), kTflmScaleCell, 0), kTflmCell, 1e-2f);
}

TEST(Lstm, Int16MalformedVariants) {
  LstmSpec s = oneCellInt16Spec(1);
  s.inputs[0]->zero_points = {3};
  expectPrepareError(s, "int16 input and output_state must have zero point 0");
  s = oneCellInt16Spec(1);
  s.inputs[19] = asVariable(qtensor(TensorType::INT8, {1, 1}, kScaleCell, 0));
  expectPrepareError(s, "int16 cell_state");
  // Input scale 1 x weight scale 1/4 over 2^-12: multiplier 2^10, beyond the 64-bit
  // requantization's shift range (at most 7).
  s = oneCellInt16Spec(1);
  s.inputs[0]->scales = {1.0f};
  expectPrepareError(s, "input gate's FC multiplier");
}

// ---------------------------------------------------------------------------------------------
// The stages of a step, through the freestanding functions.

kernels::LstmIntegerCell cellScale2To11Params() {
  kernels::LstmIntegerCell p;
  p.forget_times_cell_multiplier = 1 << 30;  // 2^-15: (f * c) / 2^15
  p.forget_times_cell_shift = -14;
  p.input_times_cell_gate_multiplier = 1 << 30;  // 2^-30 / 2^-11 = 2^-19
  p.input_times_cell_gate_shift = -18;
  p.cell_tanh.input_multiplier = 6;  // left shift 15 - 11 - 3 = 1
  p.hidden_multiplier = 1 << 30;     // 2^-30 / 2^-7 = 2^-23
  p.hidden_shift = -22;
  return p;
}

TEST(LstmStep, GateRequantizationRoundsTiesAwayFromZero) {
  // Two cells, one input x = 1, input-side weights 2 and -2, multiplier 0.25 (2^30, shift -1):
  // the FC outputs are +-0.5, rounded to +-1; tanh(+-1) reads x = +-3: (3 * 683 + 128) >> 8 = 8
  // and (-2049 + 127) >> 8 = -8. A FC rounding to 0 would give tanh 0.
  const int8_t wx[2] = {2, -2};
  const int8_t wh[4] = {0, 0, 0, 0};
  const int32_t zeros[2] = {0, 0};
  kernels::LstmGateInt8 g;
  g.input_weights = wx;
  g.recurrent_weights = wh;
  g.input_bias = zeros;
  g.recurrent_bias = zeros;
  g.input_multiplier = 1 << 30;
  g.input_shift = -1;
  g.recurrent_multiplier = 1 << 30;
  g.recurrent_shift = 1;
  const int8_t x[1] = {1};
  const int8_t h[2] = {0, 0};
  int16_t gate[2] = {};
  kernels::lstm_step::gateInt8(g, 1, 1, 2, x, h, kernels::LstmGateActivation::kTanh, gate);
  EXPECT_EQ(gate[0], 8);
  EXPECT_EQ(gate[1], -8);
}

TEST(LstmStep, GateSaturatesEachProductAndTheirSum) {
  // One cell, x = h = 100, both weights 1, so each FC is bias + 100.
  const int8_t weight[1] = {1};
  const int8_t x[1] = {100};
  const int8_t h[1] = {100};
  kernels::LstmGateInt8 g;
  g.input_weights = weight;
  g.recurrent_weights = weight;
  g.input_multiplier = 1 << 30;
  g.recurrent_multiplier = 1 << 30;
  int16_t gate[1] = {};

  // Multiplier 16 (shift 5): (2900 + 100) * 16 = 48000 clamps to 32767 on each side and the sum
  // saturates: sigmoid(32767) reads x = 98301, index 191, fraction 509:
  // (65513 * 512 + 509 + 512) >> 10 = 32757.
  const int32_t bias_2900[1] = {2900};
  g.input_bias = bias_2900;
  g.recurrent_bias = bias_2900;
  g.input_shift = 5;
  g.recurrent_shift = 5;
  kernels::lstm_step::gateInt8(g, 1, 1, 1, x, h, kernels::LstmGateActivation::kSigmoid, gate);
  EXPECT_EQ(gate[0], 32757);

  // Multiplier 1 (shift 1): 20000 per side fits int16, their sum saturates.
  const int32_t bias_19900[1] = {19900};
  g.input_bias = bias_19900;
  g.recurrent_bias = bias_19900;
  g.input_shift = 1;
  g.recurrent_shift = 1;
  kernels::lstm_step::gateInt8(g, 1, 1, 1, x, h, kernels::LstmGateActivation::kSigmoid, gate);
  EXPECT_EQ(gate[0], 32757);

  // -20000 per side: the sum clamps to -32768, index 192, fraction 0:
  // (2^25 - 65514 * 512 + 511) >> 10 = 11.
  const int32_t bias_minus_20100[1] = {-20100};
  g.input_bias = bias_minus_20100;
  g.recurrent_bias = bias_minus_20100;
  kernels::lstm_step::gateInt8(g, 1, 1, 1, x, h, kernels::LstmGateActivation::kSigmoid, gate);
  EXPECT_EQ(gate[0], 11);
}

TEST(LstmStep, CellUpdateRoundsSaturatesAndClips) {
  kernels::LstmIntegerCell p = cellScale2To11Params();
  // (0.5 * 1000 = 500) + (32767 * 16384 / 2^19 = 1023.97 -> 1024); a tie 1 * 16384 / 2^15 =
  // 0.5 -> 1 and its negative -> -1; 32767 * 32767 / 2^15 = 32766 plus 2048 saturates.
  const int16_t forget[4] = {16384, 1, 1, 32767};
  const int16_t input[4] = {32767, 0, 0, 32767};
  const int16_t cell_gate[4] = {16384, 0, 0, 32767};
  int16_t cell[4] = {1000, 16384, -16384, 32767};
  kernels::lstm_step::updateCellInteger(p, 4, forget, input, cell_gate, cell);
  EXPECT_EQ(cell[0], 1524);
  EXPECT_EQ(cell[1], 1);
  EXPECT_EQ(cell[2], -1);
  EXPECT_EQ(cell[3], 32767);

  p.clip_cell = true;
  p.cell_clip = 1500;
  const int16_t negative_gate[2] = {16384, -16384};
  const int16_t forget2[2] = {16384, 16384};
  const int16_t input2[2] = {32767, 32767};
  int16_t clipped[2] = {1000, -1000};
  kernels::lstm_step::updateCellInteger(p, 2, forget2, input2, negative_gate, clipped);
  EXPECT_EQ(clipped[0], 1500);   // 1524
  EXPECT_EQ(clipped[1], -1500);  // -1524

  p.cell_clip = 0;  // a clip that quantized to 0 still clips
  int16_t zeroed[1] = {1000};
  kernels::lstm_step::updateCellInteger(p, 1, forget2, input2, negative_gate, zeroed);
  EXPECT_EQ(zeroed[0], 0);
}

TEST(LstmStep, HiddenStateAtTheEndsOfTheZeroPointRange) {
  kernels::LstmIntegerCell p = cellScale2To11Params();
  // tanh(32767) saturates to 32767; 32767 * 32767 / 2^23 = 127.99 -> 128.
  const int16_t cell[3] = {0, 32767, -32768};
  const int16_t output_gate[3] = {32767, 32767, 32767};
  int8_t hidden[3] = {};
  p.hidden_zero_point = -128;
  kernels::lstm_step::updateHiddenInt8(p, 3, cell, output_gate, hidden);
  EXPECT_EQ(hidden[0], -128);
  EXPECT_EQ(hidden[1], 0);
  EXPECT_EQ(hidden[2], -128);  // -128 - 128, clamped
  p.hidden_zero_point = 127;
  kernels::lstm_step::updateHiddenInt8(p, 3, cell, output_gate, hidden);
  EXPECT_EQ(hidden[0], 127);
  EXPECT_EQ(hidden[1], 127);  // 255, clamped
  EXPECT_EQ(hidden[2], -1);   // 127 - 128
}

TEST(LstmStep, FloatCellClipsAndClampsLikeTheReference) {
  kernels::LstmFloatParams p;
  p.cell_clip = 1.5f;
  const float forget[3] = {0.5f, 0.5f, 1.0f};
  const float input[3] = {0.25f, 0.25f, 0.0f};
  const float cell_gate[3] = {4.0f, 4.0f, 0.0f};
  float cell[3] = {2.0f, std::nanf(""), -3.0f};
  kernels::lstm_step::updateCellFloat(p, 3, forget, input, cell_gate, cell);
  EXPECT_EQ(cell[0], 1.5f);  // 1 + 1, clipped
  EXPECT_EQ(cell[1], 1.5f);  // min(clip, NaN) is the clip
  EXPECT_EQ(cell[2], -1.5f);

  p.cell_clip = 0.0f;  // no clipping; products clamp to the finite range
  float infinite[1] = {std::numeric_limits<float>::infinity()};
  kernels::lstm_step::updateCellFloat(p, 1, forget + 2, input + 2, cell_gate + 2, infinite);
  EXPECT_EQ(infinite[0], std::numeric_limits<float>::max());
}

// ---------------------------------------------------------------------------------------------
// Malformed operators.

void expectPrepareError(const LstmSpec& spec, const std::string& reason) {
  const std::string error = prepareError(build(spec).bytes);
  EXPECT_NE(error.find("operator 0 (UNIDIRECTIONAL_SEQUENCE_LSTM)"), std::string::npos) << error;
  EXPECT_NE(error.find(reason), std::string::npos) << error;
}

TEST(Lstm, OneCellSpecPrepares) {
  EXPECT_EQ(prepareError(build(oneCellSpec(3)).bytes), "");
}

TEST(Lstm, WrongInputCount) {
  LstmSpec s = oneCellSpec(1);
  s.inputs.resize(20);
  expectPrepareError(s, "expects 24 inputs, has 20");
}

TEST(Lstm, MismatchedWeightShapes) {
  LstmSpec s = oneCellSpec(1);
  s.inputs[3] = constant(TensorType::INT8, {1, 2}, std::vector<int8_t>{1, 2}, kScaleX);
  expectPrepareError(s, "input_to_cell_weights (input 3)");
  s = oneCellSpec(1);
  s.inputs[7] = constant(TensorType::INT8, {2, 1}, std::vector<int8_t>{1, 2}, kScaleWh);
  expectPrepareError(s, "recurrent_to_cell_weights (input 7)");
  s = oneCellSpec(1);
  s.inputs[14] = constant(TensorType::INT32, {2}, std::vector<int32_t>{1, 2}, 1e-4f);
  expectPrepareError(s, "cell_gate_bias (input 14)");
  s = oneCellSpec(1);
  s.output = qtensor(TensorType::INT8, {1, 2, 1}, kScaleH, kZeroH);
  expectPrepareError(s, "output");
}

TEST(Lstm, MissingOrNonVariableState) {
  LstmSpec s = oneCellSpec(1);
  s.inputs[18].reset();
  expectPrepareError(s, "output_state (input 18) is missing");
  s = oneCellSpec(1);
  s.inputs[19].reset();
  expectPrepareError(s, "cell_state (input 19) is missing");
  s = oneCellSpec(1);
  s.inputs[19] =
      withData(qtensor(TensorType::INT16, {1, 1}, kScaleCell, 0), bytesOf(std::vector<int16_t>{0}));
  expectPrepareError(s, "cell_state (input 19) must be a variable tensor");
  s = oneCellSpec(1);
  s.inputs[18] = asVariable(qtensor(TensorType::INT8, {2, 1}, kScaleH, kZeroH));
  expectPrepareError(s, "batches x cells");
}

TEST(Lstm, BadZeroPoints) {
  LstmSpec s = oneCellSpec(1);
  s.inputs[2]->zero_points = {3};
  expectPrepareError(s, "input_to_forget_weights zero point must be 0");
  s = oneCellSpec(1);
  s.inputs[19]->zero_points = {1};
  expectPrepareError(s, "cell_state zero point must be 0");
}

TEST(Lstm, WrongTypes) {
  LstmSpec s = oneCellSpec(1);
  s.inputs[19] = asVariable(qtensor(TensorType::INT8, {1, 1}, kScaleCell, 0));
  expectPrepareError(s, "int16 cell_state");
  s = oneCellSpec(1);
  for (size_t g = 0; g < 4; ++g)
    s.inputs[12 + g] = constant(TensorType::INT16, {1}, std::vector<int16_t>{0}, 1e-4f);
  expectPrepareError(s, "int32 biases");
  s = oneCellSpec(1);
  s.inputs[13] = constant(TensorType::INT16, {1}, std::vector<int16_t>{0}, 1e-4f);
  expectPrepareError(s, "one type");
  s = oneCellSpec(1);
  s.inputs[6] = constant(TensorType::INT16, {1, 1}, std::vector<int16_t>{0}, kScaleWh);
  expectPrepareError(s, "recurrent_to_forget_weights (input 6) is not");
  s = oneCellSpec(1);
  s.output = qtensor(TensorType::INT16, {1, 1, 1}, kScaleH, 0);
  expectPrepareError(s, "must have one type");
  LstmSpec f = tflmFloatSpec(false);
  f.inputs[19] = asVariable(qtensor(TensorType::INT16, {kB, kS}, kScaleCell, 0));
  expectPrepareError(f, "float32 cell_state");
}

TEST(Lstm, VariantsTflmRejects) {
  LstmSpec s = oneCellSpec(1);
  s.inputs[1].reset();
  expectPrepareError(s, "CIFG");
  s = oneCellSpec(1);
  s.inputs[10] = constant(TensorType::INT16, {1}, std::vector<int16_t>{1}, 1e-3f);
  expectPrepareError(s, "peephole");
  s = oneCellSpec(1);
  s.inputs[16] = constant(TensorType::INT8, {1, 1}, std::vector<int8_t>{1}, 1e-3f);
  expectPrepareError(s, "projection");
  s = oneCellSpec(1);
  s.inputs[21] = constant(TensorType::INT16, {1}, std::vector<int16_t>{1}, 1e-3f);
  expectPrepareError(s, "layer normalization");
}

TEST(Lstm, BadOptionsAndQuantization) {
  LstmSpec s = oneCellSpec(1);
  s.options.cell_clip = -1.0f;
  expectPrepareError(s, "cell_clip must be >= 0");
  s = oneCellSpec(1);
  s.options.fused_activation_function = tflite::ActivationFunctionType::RELU;
  expectPrepareError(s, "must be TANH, is RELU");
  LstmSpec two_cells = tflmInt8Spec(false);
  two_cells.inputs[4]->scales = {0.1f, 0.2f};
  two_cells.inputs[4]->zero_points = {0, 0};
  expectPrepareError(two_cells, "per-tensor weights");
  s = oneCellSpec(1);
  s.inputs[19]->scales = {8.0f};
  expectPrepareError(s, "too large for the int16 tanh");
  s = oneCellSpec(1);
  s.inputs[0] = tensor(TensorType::INT8, {1, 1, 1});
  expectPrepareError(s, "no quantization");
  s = oneCellSpec(1);
  s.inputs[0] = qtensor(TensorType::INT16, {1, 1, 1}, kScaleX, 0);
  s.inputs[18] = asVariable(qtensor(TensorType::INT16, {1, 1}, kScaleH, 0));
  s.output = qtensor(TensorType::INT16, {1, 1, 1}, kScaleH, 0);
  expectPrepareError(s, "int16 input needs int64 biases");
  s = oneCellSpec(1);
  s.inputs[0] = tensor(TensorType::INT32, {1, 1, 1});
  s.inputs[18] = asVariable(tensor(TensorType::INT32, {1, 1}));
  s.output = tensor(TensorType::INT32, {1, 1, 1});
  expectPrepareError(s, "unsupported input");
}

}  // namespace
}  // namespace hilsim::test
