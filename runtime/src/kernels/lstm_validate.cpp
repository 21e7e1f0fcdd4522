// Structural validation of UNIDIRECTIONAL_SEQUENCE_LSTM (hilsim/rt/kernels/lstm_prepare.h).

#include <cstdint>
#include <limits>
#include <string>

#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/lstm_prepare.h"

namespace hilsim::rt {
namespace {

const char* const kInputNames[lstm_input::kCount] = {
    "input",
    "input_to_input_weights",
    "input_to_forget_weights",
    "input_to_cell_weights",
    "input_to_output_weights",
    "recurrent_to_input_weights",
    "recurrent_to_forget_weights",
    "recurrent_to_cell_weights",
    "recurrent_to_output_weights",
    "cell_to_input_weights",
    "cell_to_forget_weights",
    "cell_to_output_weights",
    "input_gate_bias",
    "forget_gate_bias",
    "cell_gate_bias",
    "output_gate_bias",
    "projection_weights",
    "projection_bias",
    "output_state",
    "cell_state",
    "input_layer_norm_coefficients",
    "forget_layer_norm_coefficients",
    "cell_layer_norm_coefficients",
    "output_layer_norm_coefficients",
};

// "recurrent_to_cell_weights (input 7)".
std::string role(size_t index) {
  return std::string(kInputNames[index]) + " (input " + std::to_string(index) + ")";
}

// The LSTM variants TensorFlow Lite Micro's kernel rejects: their tensors must be absent.
void expectStandardLstm(const Node& node) {
  struct Variant {
    size_t first, last;
    const char* name;
  };
  constexpr Variant kVariants[] = {
      {9, 11, "peephole connections"},
      {16, 17, "projection"},
      {20, 23, "layer normalization"},
  };
  for (const Variant& v : kVariants)
    for (size_t i = v.first; i <= v.last; ++i)
      if (node.input(i))
        throw ModelError(std::string(v.name) + " (" + role(i) +
                         ") are not supported: TensorFlow Lite Micro's LSTM is the standard "
                         "one without peephole, projection or layer norm");
  for (size_t i : {lstm_input::kInputToInputWeights, lstm_input::kRecurrentToInputWeights,
                   lstm_input::kInputGateBias})
    if (!node.input(i))
      throw ModelError("CIFG (no input gate: " + role(i) +
                       " is missing) is not supported: TensorFlow Lite Micro's LSTM needs all "
                       "four gates");
}

void expectMatrix(const Tensor& t, size_t index, int32_t rows, int32_t cols) {
  if (t.rank() != 2 || t.dim(0) != rows || t.dim(1) != cols)
    throw ModelError(role(index) + " " + describe(t) + " is not [" + std::to_string(rows) + "," +
                     std::to_string(cols) + "]");
}

void expectState(const Tensor& t, size_t index, int64_t elements) {
  if (!t.is_variable || t.is_constant) throw ModelError(role(index) + " must be a variable tensor");
  if (t.elements() != elements)
    throw ModelError(role(index) + " " + describe(t) +
                     " does not have batches x cells = " + std::to_string(elements) + " elements");
}

}  // namespace

LstmTensors validateLstm(const Node& node) {
  expectArity(node, lstm_input::kCount, lstm_input::kCount);
  const auto* options = node.op_fb->builtin_options_as_UnidirectionalSequenceLSTMOptions();
  if (!options) throw ModelError("missing UnidirectionalSequenceLSTMOptions");
  expectStandardLstm(node);

  LstmTensors t;
  t.input = &requiredInput(node, lstm_input::kInput, "input");
  for (size_t g = 0; g < 4; ++g) {
    const size_t in_index = lstm_input::kInputToInputWeights + g;
    const size_t rec_index = lstm_input::kRecurrentToInputWeights + g;
    const size_t bias_index = lstm_input::kInputGateBias + g;
    t.input_weights[g] = &requiredInput(node, in_index, kInputNames[in_index]);
    t.recurrent_weights[g] = &requiredInput(node, rec_index, kInputNames[rec_index]);
    t.biases[g] = &requiredInput(node, bias_index, kInputNames[bias_index]);
  }
  t.output_state = &requiredInput(node, lstm_input::kOutputState, "output_state");
  t.cell_state = &requiredInput(node, lstm_input::kCellState, "cell_state");
  t.output = node.output(0);

  const Tensor& in = *t.input;
  expectRank(in, 3, "input");
  if (t.output_state->rank() != 2)
    throw ModelError(role(lstm_input::kOutputState) + " must be [batches, cells], is " +
                     describe(*t.output_state));
  kernels::LstmShape& shape = t.shape;
  shape.time_major = options->time_major();
  shape.batches = shape.time_major ? in.dim(1) : in.dim(0);
  shape.time_steps = shape.time_major ? in.dim(0) : in.dim(1);
  shape.input_size = in.dim(2);
  shape.cells = t.output_state->dim(1);
  if (shape.batches <= 0 || shape.input_size <= 0 || shape.cells <= 0)
    throw ModelError("input " + describe(in) + " and output_state " + describe(*t.output_state) +
                     " leave no batch, input feature or cell (only the time axis may be empty)");
  const int64_t state_elements = int64_t{shape.batches} * shape.cells;
  if (state_elements > std::numeric_limits<int32_t>::max())
    throw ModelError("batches x cells = " + std::to_string(state_elements) + " exceeds 2^31 - 1");
  expectState(*t.output_state, lstm_input::kOutputState, state_elements);
  expectState(*t.cell_state, lstm_input::kCellState, state_elements);

  for (size_t g = 0; g < 4; ++g) {
    expectMatrix(*t.input_weights[g], lstm_input::kInputToInputWeights + g, shape.cells,
                 shape.input_size);
    expectMatrix(*t.recurrent_weights[g], lstm_input::kRecurrentToInputWeights + g, shape.cells,
                 shape.cells);
    const Tensor& bias = *t.biases[g];
    if (bias.rank() != 1 || bias.dim(0) != shape.cells)
      throw ModelError(role(lstm_input::kInputGateBias + g) + " " + describe(bias) + " is not [" +
                       std::to_string(shape.cells) + "]");
    expectConstant(*t.input_weights[g], kInputNames[lstm_input::kInputToInputWeights + g]);
    expectConstant(*t.recurrent_weights[g], kInputNames[lstm_input::kRecurrentToInputWeights + g]);
    expectConstant(bias, kInputNames[lstm_input::kInputGateBias + g]);
  }
  const Tensor& out = *t.output;
  if (out.rank() != 3 || out.dim(0) != in.dim(0) || out.dim(1) != in.dim(1) ||
      out.dim(2) != shape.cells)
    throw ModelError("output " + describe(out) + " is not [" + std::to_string(in.dim(0)) + "," +
                     std::to_string(in.dim(1)) + "," + std::to_string(shape.cells) + "]");

  // One type for the activations, one for the weights, one for the biases.
  if (t.output_state->type != in.type || out.type != in.type)
    throw ModelError("input " + describe(in) + ", output_state " + describe(*t.output_state) +
                     " and output " + describe(out) + " must have one type");
  const TensorType weight_type = t.input_weights[0]->type;
  for (size_t g = 0; g < 4; ++g)
    if (t.input_weights[g]->type != weight_type || t.recurrent_weights[g]->type != weight_type)
      throw ModelError(
          "the eight weight tensors must have one type; " + role(lstm_input::kInputToInputWeights) +
          " is " + describe(*t.input_weights[0]) + ", " +
          role(t.input_weights[g]->type != weight_type ? lstm_input::kInputToInputWeights + g
                                                       : lstm_input::kRecurrentToInputWeights + g) +
          " is not");
  for (size_t g = 1; g < 4; ++g)
    if (t.biases[g]->type != t.biases[0]->type)
      throw ModelError("the four gate biases must have one type; " +
                       role(lstm_input::kInputGateBias) + " is " + describe(*t.biases[0]) + ", " +
                       role(lstm_input::kInputGateBias + g) + " is " + describe(*t.biases[g]));

  if (!(options->cell_clip() >= 0.0f))
    throw ModelError("cell_clip must be >= 0 (0: no clipping), is " +
                     std::to_string(options->cell_clip()));
  t.cell_clip = options->cell_clip();
  if (options->fused_activation_function() != tflite::ActivationFunctionType::TANH)
    throw ModelError(std::string("the cell gate activation must be TANH, is ") +
                     tflite::EnumNameActivationFunctionType(options->fused_activation_function()));
  return t;
}

OpWork lstmWork(const LstmTensors& t) {
  const kernels::LstmShape& s = t.shape;
  const uint64_t cell_steps = uint64_t(s.time_steps) * uint64_t(s.batches) * uint64_t(s.cells);
  OpWork work;
  work.macs = 4 * cell_steps * (uint64_t(s.input_size) + uint64_t(s.cells));
  work.elements = cell_steps;
  work.outputs = cell_steps;
  // Batch-major runs each batch through the sequence; time-major steps all batches at once.
  work.steps = uint64_t(s.time_steps) * (s.time_major ? 1 : uint64_t(s.batches));
  work.state_bytes = t.output_state->bytes + t.cell_state->bytes;
  work.recurrent_macs = 4 * cell_steps * uint64_t(s.cells);
  const timing::LstmGateLoads loads = timing::lstmGateLoads(
      uint32_t(s.time_steps), uint32_t(s.batches), uint32_t(s.input_size), uint32_t(s.cells));
  work.unaligned_loads = loads.unaligned_loads;
  work.tail_macs = loads.tail_macs;
  return work;
}

}  // namespace hilsim::rt
