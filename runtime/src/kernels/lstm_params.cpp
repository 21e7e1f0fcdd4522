// Parameters of the float and integer LSTM arithmetic (hilsim/rt/kernels/lstm_prepare.h).

#include <algorithm>
#include <cstdint>
#include <string>

#include "hilsim/kernels/activation_scaling.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/lstm_prepare.h"
#include "hilsim/rt/quant.h"

namespace hilsim::rt {
namespace {

// Gate FCs produce Q3.12 sigmoid/tanh inputs; the activations produce Q0.15.
constexpr float kGateInputScale = 0.000244140625f;      // 2^-12
constexpr float kGateOutputScale = 0.000030517578125f;  // 2^-15

const char* const kGateNames[4] = {"input", "forget", "cell", "output"};

void expectInt8ZeroPoint(const Tensor& t, const char* role) {
  const int32_t zp = t.quant.zero_point0();
  if (zp < -128 || zp > 127)
    throw ModelError(std::string(role) + " zero point " + std::to_string(zp) +
                     " is outside the int8 range");
}

// Per-tensor, symmetric int8 weights: TFLite Micro's FC parameters hold one multiplier and
// take the zero point as 0.
void expectGateWeights(const Tensor& w, const std::string& role) {
  expectQuantized(w, role.c_str());
  if (w.quant.scale.size() != 1)
    throw ModelError(role + " " + describe(w) + " has " + std::to_string(w.quant.scale.size()) +
                     " scales; the LSTM needs per-tensor weights");
  if (w.quant.zero_point0() != 0)
    throw ModelError(role + " zero point must be 0, is " + std::to_string(w.quant.zero_point0()));
}

// The FC multiplier of CreateGateParams: input scale x weight scale in float32, widened, over
// the Q3.12 gate input scale.
QuantizedMultiplier gateMultiplier(const Tensor& activation, const Tensor& weights) {
  const double product = static_cast<double>(activation.quant.scale0() * weights.quant.scale0());
  return quantizeMultiplier(product / static_cast<double>(kGateInputScale));
}

// The two FCs of gate `g`, alike in 8x8 and 16x8: its input and recurrent weights, checked, and
// their multipliers.
template <class Gate>
void prepareGateFcs(const LstmTensors& t, size_t g, Gate* k) {
  const std::string gate = kGateNames[g];
  const Tensor& wx = *t.input_weights[g];
  const Tensor& wh = *t.recurrent_weights[g];
  expectGateWeights(wx, "input_to_" + gate + "_weights");
  expectGateWeights(wh, "recurrent_to_" + gate + "_weights");
  k->input_weights = wx.as<int8_t>();
  k->recurrent_weights = wh.as<int8_t>();
  const QuantizedMultiplier from_input = gateMultiplier(*t.input, wx);
  const QuantizedMultiplier from_hidden = gateMultiplier(*t.output_state, wh);
  k->input_multiplier = from_input.multiplier;
  k->input_shift = from_input.shift;
  k->recurrent_multiplier = from_hidden.multiplier;
  k->recurrent_shift = from_hidden.shift;
}

// CreateInterGateMulParams: the product of two scales, in double, over the output scale.
QuantizedMultiplier productMultiplier(float scale1, float scale2, float output_scale) {
  return quantizeMultiplier(static_cast<double>(scale1) * static_cast<double>(scale2) /
                            static_cast<double>(output_scale));
}

// -zero_point * row sums of `weights` [rows, depth] plus `bias` (nullptr: none), wrapping.
void foldZeroPoint(const Tensor& weights, const int32_t* bias, int32_t zero_point,
                   int32_t* folded) {
  const int32_t rows = weights.dim(0), depth = weights.dim(1);
  const int8_t* w = weights.as<int8_t>();
  for (int32_t r = 0; r < rows; ++r) {
    uint32_t row_sum = 0;
    for (int32_t d = 0; d < depth; ++d)
      row_sum += static_cast<uint32_t>(int32_t{w[size_t(r) * size_t(depth) + size_t(d)]});
    const uint32_t base = bias ? static_cast<uint32_t>(bias[r]) : 0u;
    folded[r] = static_cast<int32_t>(base - static_cast<uint32_t>(zero_point) * row_sum);
  }
}

// The cell and hidden state parameters shared by 8x8 and 16x8 (lstm_eval_common.cc:
// CreateLstmCellStateInfo, CreateInterGateMulParams).
kernels::LstmIntegerCell prepareIntegerCell(const LstmTensors& t) {
  const Tensor& hidden = *t.output_state;
  const Tensor& cell = *t.cell_state;
  expectQuantized(cell, "cell_state");
  if (cell.quant.zero_point0() != 0)
    throw ModelError("cell_state zero point must be 0, is " +
                     std::to_string(cell.quant.zero_point0()));
  kernels::LstmIntegerCell p;
  // TFLite Micro takes the rounded log2 of the cell scale without checking that the scale is a
  // power of two; so does this kernel, to give the same bytes.
  const float cell_scale = cell.quant.scale0();
  int cell_scale_power = 0;
  kernels::checkedLog2(cell_scale, &cell_scale_power);
  if (const char* why = kernels::lstmCellTanhScaling(cell_scale_power, &p.cell_tanh))
    throw ModelError(std::string(why) + " (cell_state scale " + std::to_string(cell_scale) + ")");
  p.clip_cell = t.cell_clip > 0.0f;
  p.cell_clip = static_cast<int16_t>(std::min(
      std::max(static_cast<double>(t.cell_clip) / static_cast<double>(cell_scale), -32768.0),
      32767.0));

  const QuantizedMultiplier forget_times_cell =
      productMultiplier(kGateOutputScale, cell_scale, cell_scale);
  const QuantizedMultiplier input_times_cell_gate =
      productMultiplier(kGateOutputScale, kGateOutputScale, cell_scale);
  const QuantizedMultiplier hidden_from_product =
      productMultiplier(kGateOutputScale, kGateOutputScale, hidden.quant.scale0());
  p.forget_times_cell_multiplier = forget_times_cell.multiplier;
  p.forget_times_cell_shift = forget_times_cell.shift;
  p.input_times_cell_gate_multiplier = input_times_cell_gate.multiplier;
  p.input_times_cell_gate_shift = input_times_cell_gate.shift;
  p.hidden_multiplier = hidden_from_product.multiplier;
  p.hidden_shift = hidden_from_product.shift;
  p.hidden_zero_point = hidden.quant.zero_point0();
  return p;
}

void expectIntegerTypes(const LstmTensors& t, const char* activation, TensorType bias_type,
                        const char* bias) {
  if (t.input_weights[0]->type != TensorType::INT8)
    throw ModelError(std::string(activation) + " input needs int8 weights, has " +
                     describe(*t.input_weights[0]));
  if (t.biases[0]->type != bias_type)
    throw ModelError(std::string(activation) + " input needs " + bias + " biases, has " +
                     describe(*t.biases[0]));
  if (t.cell_state->type != TensorType::INT16)
    throw ModelError(std::string(activation) +
                     " input needs an int16 cell_state (TensorFlow Lite Micro's integer LSTM), "
                     "has " +
                     describe(*t.cell_state));
}

}  // namespace

kernels::LstmInt8Params prepareLstmInt8(PrepareContext& ctx, const LstmTensors& t) {
  expectIntegerTypes(t, "int8", TensorType::INT32, "int32");
  const Tensor& in = *t.input;
  const Tensor& hidden = *t.output_state;
  expectQuantized(in, "input");
  expectQuantized(hidden, "output_state");
  expectInt8ZeroPoint(in, "input");
  expectInt8ZeroPoint(hidden, "output_state");

  kernels::LstmInt8Params p;
  p.shape = t.shape;
  const size_t cells = static_cast<size_t>(t.shape.cells);
  int32_t* folded_biases = allocatePersistentArray<int32_t>(ctx, 8 * cells);
  kernels::LstmGateInt8* gates[4] = {&p.input_gate, &p.forget_gate, &p.cell_gate, &p.output_gate};
  for (size_t g = 0; g < 4; ++g) {
    kernels::LstmGateInt8& k = *gates[g];
    prepareGateFcs(t, g, &k);
    // The recurrent FC has no bias; neither FC checks the bias scale (TFLite Micro passes none).
    int32_t* input_bias = folded_biases + (2 * g) * cells;
    int32_t* recurrent_bias = folded_biases + (2 * g + 1) * cells;
    foldZeroPoint(*t.input_weights[g], t.biases[g]->as<int32_t>(), in.quant.zero_point0(),
                  input_bias);
    foldZeroPoint(*t.recurrent_weights[g], nullptr, hidden.quant.zero_point0(), recurrent_bias);
    k.input_bias = input_bias;
    k.recurrent_bias = recurrent_bias;
  }
  p.cell = prepareIntegerCell(t);
  return p;
}

kernels::LstmInt16Params prepareLstmInt16(const LstmTensors& t) {
  expectIntegerTypes(t, "int16", TensorType::INT64, "int64");
  const Tensor& in = *t.input;
  const Tensor& hidden = *t.output_state;
  expectQuantized(in, "input");
  expectQuantized(hidden, "output_state");
  // TFLite Micro's int16 FC has no input offset: it reads both as symmetric.
  if (in.quant.zero_point0() != 0 || hidden.quant.zero_point0() != 0)
    throw ModelError("int16 input and output_state must have zero point 0, have " +
                     std::to_string(in.quant.zero_point0()) + " and " +
                     std::to_string(hidden.quant.zero_point0()));

  kernels::LstmInt16Params p;
  p.shape = t.shape;
  kernels::LstmGateInt16* gates[4] = {&p.input_gate, &p.forget_gate, &p.cell_gate, &p.output_gate};
  for (size_t g = 0; g < 4; ++g) {
    kernels::LstmGateInt16& k = *gates[g];
    prepareGateFcs(t, g, &k);
    k.input_bias = t.biases[g]->as<int64_t>();
    k.recurrent_bias = nullptr;
    // The 64-bit requantization shifts by 15 - shift and is specified for shifts up to 7.
    if (k.input_shift > 7 || k.recurrent_shift > 7)
      throw ModelError(std::string("the ") + kGateNames[g] +
                       " gate's FC multiplier (activation scale x weight scale / 2^-12) is 2^8 "
                       "or more, beyond the 16-bit FC's requantization");
  }
  p.cell = prepareIntegerCell(t);
  return p;
}

kernels::LstmFloatParams prepareLstmFloat(const LstmTensors& t) {
  for (size_t g = 0; g < 4; ++g)
    if (t.input_weights[g]->type != TensorType::FLOAT32 || t.biases[g]->type != TensorType::FLOAT32)
      throw ModelError("float32 input needs float32 weights and biases, has " +
                       describe(*t.input_weights[0]) + " weights and " + describe(*t.biases[0]) +
                       " biases");
  if (t.cell_state->type != TensorType::FLOAT32)
    throw ModelError("float32 input needs a float32 cell_state, has " + describe(*t.cell_state));
  kernels::LstmFloatParams p;
  p.shape = t.shape;
  kernels::LstmGateFloat* gates[4] = {&p.input_gate, &p.forget_gate, &p.cell_gate, &p.output_gate};
  for (size_t g = 0; g < 4; ++g) {
    gates[g]->input_weights = t.input_weights[g]->as<float>();
    gates[g]->recurrent_weights = t.recurrent_weights[g]->as<float>();
    gates[g]->bias = t.biases[g]->as<float>();
  }
  p.cell_clip = t.cell_clip;
  return p;
}

}  // namespace hilsim::rt
