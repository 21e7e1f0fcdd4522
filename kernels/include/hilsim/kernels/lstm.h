#pragma once
// UNIDIRECTIONAL_SEQUENCE_LSTM with TensorFlow Lite Micro's arithmetic (lstm_eval.h EvalLstm): the
// standard LSTM without CIFG, peephole, projection or layer norm, which is all TFLite Micro's
// kernel accepts. Per time step, with h the hidden (output) state and c the cell state:
//   f = sigmoid(FC_f(x) + FC_f'(h))   i = sigmoid(FC_i(x) + FC_i'(h))
//   g = tanh(FC_g(x) + FC_g'(h))      o = sigmoid(FC_o(x) + FC_o'(h))
//   c = clip(f * c + i * g)           h = o * tanh(c)          output[t] = h
// Only the input-side FCs have a bias. Three variants:
//  - 8x8->16: int8 input, hidden state and weights, int16 cell state, int32 bias. Each FC sum is
//    requantized to an int16 gate input in Q3.12 and clamped; the two halves are added with
//    int16 saturation; sigmoid and tanh are the int16 table functions (activation_math.h) with
//    Q0.15 outputs; products are requantized with double rounding and clamped.
//  - 16x8->16: the same with int16 input and hidden state, int64 bias and 64-bit FC sums.
//  - float32 throughout, with the reference FC's sequential sums.
// Batch-major input [batches, time, input] runs each batch through all time steps in turn;
// time-major input [time, batches, input] runs all batches together at each step. The states
// [batches, cells] are read at the start and left updated. Freestanding: no allocation.

#include <cstddef>
#include <cstdint>

#include "hilsim/kernels/activation_params.h"

namespace hilsim::kernels {

struct LstmShape {
  int32_t batches = 0;
  int32_t time_steps = 0;  // may be 0: nothing runs, the states are left as they are
  int32_t input_size = 0;
  int32_t cells = 0;  // state size: hidden and cell states are [batches, cells]
  bool time_major = false;
};

// Elements of scratch memory a step needs (four gate buffers of batches x cells).
inline size_t lstmScratchElements(const LstmShape& shape) {
  return 4 * static_cast<size_t>(shape.batches) * static_cast<size_t>(shape.cells);
}

enum class LstmGateActivation : uint8_t { kSigmoid, kTanh };

// One gate of the integer LSTM: each FC is bias + sum_d w[c][d] * q[d] in Bias arithmetic,
// requantized by (multiplier, shift) and clamped to int16.
//  - 8x8 (Bias int32): the zero points of x and h are folded into the biases,
//    input_bias[c] = bias[c] - x_zero_point * sum_d input_weights[c][d] and
//    recurrent_bias[c] = -h_zero_point * sum_d recurrent_weights[c][d] (wrapping);
//    requantization is the 32-bit multiplyByQuantizedMultiplier.
//  - 16x8 (Bias int64): no zero points (TFLite Micro's int16 FC has no input offset),
//    input_bias is the model's bias, recurrent_bias is nullptr; requantization is
//    multiplyByQuantizedMultiplier64 (shift at most 7).
template <typename Bias>
struct LstmIntegerGate {
  const int8_t* input_weights = nullptr;      // [cells, input_size], zero point 0
  const int8_t* recurrent_weights = nullptr;  // [cells, cells], zero point 0
  const Bias* input_bias = nullptr;           // [cells], as above
  const Bias* recurrent_bias = nullptr;       // [cells] or nullptr, as above
  int32_t input_multiplier = 0;               // x scale * input weight scale / 2^-12
  int input_shift = 0;
  int32_t recurrent_multiplier = 0;  // h scale * recurrent weight scale / 2^-12
  int recurrent_shift = 0;
};
using LstmGateInt8 = LstmIntegerGate<int32_t>;
using LstmGateInt16 = LstmIntegerGate<int64_t>;

// Cell and hidden state updates of the integer LSTM, from the Q0.15 gate outputs.
struct LstmIntegerCell {
  LstmGateActivation cell_gate_activation = LstmGateActivation::kTanh;
  // c = sat16(requant(f * c) + requant(i * g)), each product requantized to the cell scale and
  // clamped to int16, then clipped to [-cell_clip, cell_clip] if clip_cell.
  int32_t forget_times_cell_multiplier = 0;  // 2^-15 (Q0.15) * cell scale / cell scale
  int forget_times_cell_shift = 0;
  int32_t input_times_cell_gate_multiplier = 0;  // 2^-15 * 2^-15 / cell scale
  int input_times_cell_gate_shift = 0;
  bool clip_cell = false;
  int16_t cell_clip = 0;            // quantized; may be 0, which clips every cell to 0
  Int16ActivationParams cell_tanh;  // tanh of the cell state (count unused)
  // h = clamp(hidden_zero_point + requant(tanh(c) * o)) to the hidden state's type.
  int32_t hidden_multiplier = 0;  // 2^-15 * 2^-15 / hidden scale
  int hidden_shift = 0;
  int32_t hidden_zero_point = 0;
};

template <typename Bias>
struct LstmIntegerParams {
  LstmShape shape;
  LstmIntegerGate<Bias> input_gate;
  LstmIntegerGate<Bias> forget_gate;
  LstmIntegerGate<Bias> cell_gate;
  LstmIntegerGate<Bias> output_gate;
  LstmIntegerCell cell;
};
using LstmInt8Params = LstmIntegerParams<int32_t>;
using LstmInt16Params = LstmIntegerParams<int64_t>;

// Tensor memory of one invocation (arena pointers, valid during invoke only). Activation is the
// type of the input, hidden state and output.
template <typename Activation>
struct LstmIntegerBuffers {
  const Activation* input = nullptr;
  Activation* output = nullptr;        // [batches, time, cells] or [time, batches, cells]
  Activation* hidden_state = nullptr;  // [batches, cells], read and updated
  int16_t* cell_state = nullptr;       // [batches, cells], read and updated
  int16_t* scratch = nullptr;          // lstmScratchElements(shape)
};
using LstmInt8Buffers = LstmIntegerBuffers<int8_t>;
using LstmInt16Buffers = LstmIntegerBuffers<int16_t>;

// 8x8 -> 16: int8 activations and weights, int32 biases.
void lstmInt8(const LstmInt8Params& p, const LstmInt8Buffers& buffers);
// 16x8 -> 16: int16 activations, int8 weights, int64 biases.
void lstmInt16(const LstmInt16Params& p, const LstmInt16Buffers& buffers);

// One gate of the float LSTM: FC(x) = sum_d input_weights[c][d] * x[d] + bias[c] and
// FC(h) = sum_d recurrent_weights[c][d] * h[d] + 0, each clamped to the finite float range.
struct LstmGateFloat {
  const float* input_weights = nullptr;      // [cells, input_size]
  const float* recurrent_weights = nullptr;  // [cells, cells]
  const float* bias = nullptr;               // [cells]
};

struct LstmFloatParams {
  LstmShape shape;
  LstmGateFloat input_gate;
  LstmGateFloat forget_gate;
  LstmGateFloat cell_gate;
  LstmGateFloat output_gate;
  LstmGateActivation cell_gate_activation = LstmGateActivation::kTanh;
  float cell_clip = 0.0f;  // > 0: the cell state is clipped to [-cell_clip, cell_clip]
};

struct LstmFloatBuffers {
  const float* input = nullptr;
  float* output = nullptr;
  float* hidden_state = nullptr;
  float* cell_state = nullptr;
  float* scratch = nullptr;  // lstmScratchElements(shape)
};

void lstmFloat(const LstmFloatParams& p, const LstmFloatBuffers& buffers);

}  // namespace hilsim::kernels
