#pragma once
// Prepare-time work of UNIDIRECTIONAL_SEQUENCE_LSTM: validation of the operator's 24 inputs and
// the parameters of the freestanding arithmetic (hilsim/kernels/lstm.h), computed as TensorFlow
// Lite Micro's UnidirectionalSequenceLstmPrepare and CreateGateParams/CreateInterGateMulParams do.

#include <array>
#include <cstddef>
#include <cstdint>

#include "hilsim/kernels/lstm.h"
#include "hilsim/rt/kernel.h"

namespace hilsim::rt {

// Input indices of the operator (TFLite's lstm_shared.h).
namespace lstm_input {
enum : size_t {
  kInput = 0,
  kInputToInputWeights = 1,  // input-side weights of the four gates: 1..4
  kInputToForgetWeights = 2,
  kInputToCellWeights = 3,
  kInputToOutputWeights = 4,
  kRecurrentToInputWeights = 5,  // recurrent weights: 5..8
  kCellToInputWeights = 9,       // peephole: 9..11
  kInputGateBias = 12,           // biases: 12..15
  kProjectionWeights = 16,       // projection: 16..17
  kOutputState = 18,
  kCellState = 19,
  kInputLayerNormCoefficients = 20,  // layer norm: 20..23
  kCount = 24,
};
}  // namespace lstm_input

// Gate order of the arrays below: input, forget, cell, output (the order of the inputs).
enum LstmGate : size_t { kLstmInputGate = 0, kLstmForgetGate, kLstmCellGate, kLstmOutputGate };

// The tensors of a validated node (pointers into the interpreter's tensors).
struct LstmTensors {
  const Tensor* input = nullptr;
  std::array<const Tensor*, 4> input_weights{};      // [cells, input_size]
  std::array<const Tensor*, 4> recurrent_weights{};  // [cells, cells]
  std::array<const Tensor*, 4> biases{};             // [cells]
  Tensor* output_state = nullptr;                    // hidden state, [batches, cells]
  Tensor* cell_state = nullptr;                      // [batches, cells]
  Tensor* output = nullptr;
  kernels::LstmShape shape;
  float cell_clip = 0.0f;  // >= 0
};

// Checks what TensorFlow Lite Micro's kernel requires (24 inputs; the standard LSTM's tensors
// present and those of CIFG, peephole, projection and layer norm absent; variable states; one
// type for the weights and one for the biases; the activations' type shared by input, hidden
// state and output; cell_clip >= 0; tanh as the cell gate activation) and that every shape
// agrees. Type combinations and quantization are checked by the prepare functions below.
// Throws ModelError.
LstmTensors validateLstm(const Node& node);

// float32 input, weights, biases, states and output.
kernels::LstmFloatParams prepareLstmFloat(const LstmTensors& t);

// int8 input, hidden state, output and weights (per-tensor, zero point 0), int32 biases, int16
// cell state (zero point 0). The folded biases (8 x cells int32: the zero points folded into
// each gate's two biases) go to persistent memory, which the parameters point into.
kernels::LstmInt8Params prepareLstmInt8(PrepareContext& ctx, const LstmTensors& t);

// int16 input, hidden state and output (zero point 0), int8 weights (per-tensor, zero point 0),
// int64 biases, int16 cell state (zero point 0). The parameters point into the model's biases.
kernels::LstmInt16Params prepareLstmInt16(const LstmTensors& t);

// The CPU work of one invocation: 4 gates x (input + recurrent) MACs per step and batch row.
OpWork lstmWork(const LstmTensors& t);

}  // namespace hilsim::rt
