// The LSTM over a sequence: the order of the steps and where each reads and writes.

#include <cstring>

#include "hilsim/kernels/lstm.h"
#include "hilsim/kernels/lstm_step.h"

namespace hilsim::kernels {
namespace {

// Where one step reads and writes: `rows` rows of the batch (all of them time-major, one
// batch-major), as element offsets into the input, output and state arrays.
struct StepSlice {
  int32_t rows = 0;
  size_t input_offset = 0;
  size_t output_offset = 0;
  size_t state_offset = 0;
};

// Calls step(slice) in TFLite Micro's order: time-major, one step per time index with every
// batch; batch-major, each batch through all its time steps before the next batch.
template <typename Step>
void forEachStep(const LstmShape& shape, Step&& step) {
  const size_t input_size = static_cast<size_t>(shape.input_size);
  const size_t cells = static_cast<size_t>(shape.cells);
  if (shape.time_major) {
    const size_t batches = static_cast<size_t>(shape.batches);
    for (int32_t t = 0; t < shape.time_steps; ++t) {
      const size_t first_row = static_cast<size_t>(t) * batches;
      step(StepSlice{shape.batches, first_row * input_size, first_row * cells, 0});
    }
    return;
  }
  for (int32_t b = 0; b < shape.batches; ++b)
    for (int32_t t = 0; t < shape.time_steps; ++t) {
      const size_t row =
          static_cast<size_t>(b) * static_cast<size_t>(shape.time_steps) + static_cast<size_t>(t);
      step(StepSlice{1, row * input_size, row * cells, static_cast<size_t>(b) * cells});
    }
}

template <typename Activation, typename Bias, typename Gate, typename UpdateHidden>
void lstmInteger(const LstmIntegerParams<Bias>& p, const LstmIntegerBuffers<Activation>& buffers,
                 Gate gate, UpdateHidden updateHidden) {
  const LstmShape& shape = p.shape;
  const size_t gate_elements =
      static_cast<size_t>(shape.batches) * static_cast<size_t>(shape.cells);
  int16_t* forget = buffers.scratch;
  int16_t* input_gate = forget + gate_elements;
  int16_t* cell_gate = input_gate + gate_elements;
  int16_t* output_gate = cell_gate + gate_elements;
  forEachStep(shape, [&](const StepSlice& s) {
    const Activation* x = buffers.input + s.input_offset;
    Activation* h = buffers.hidden_state + s.state_offset;
    int16_t* c = buffers.cell_state + s.state_offset;
    const int32_t count = s.rows * shape.cells;
    // Every gate reads the hidden state of the previous step; it is replaced only at the end.
    gate(p.forget_gate, s.rows, shape.input_size, shape.cells, x, h, LstmGateActivation::kSigmoid,
         forget);
    gate(p.input_gate, s.rows, shape.input_size, shape.cells, x, h, LstmGateActivation::kSigmoid,
         input_gate);
    gate(p.cell_gate, s.rows, shape.input_size, shape.cells, x, h, p.cell.cell_gate_activation,
         cell_gate);
    gate(p.output_gate, s.rows, shape.input_size, shape.cells, x, h, LstmGateActivation::kSigmoid,
         output_gate);
    lstm_step::updateCellInteger(p.cell, count, forget, input_gate, cell_gate, c);
    updateHidden(p.cell, count, c, output_gate, h);
    std::memcpy(buffers.output + s.output_offset, h,
                static_cast<size_t>(count) * sizeof(Activation));
  });
}

}  // namespace

void lstm_step::lstmInt8WithGate(const LstmInt8Params& p, const LstmInt8Buffers& buffers,
                                 GateInt8Function gate) {
  lstmInteger(p, buffers, gate, lstm_step::updateHiddenInt8);
}

void lstmInt8(const LstmInt8Params& p, const LstmInt8Buffers& buffers) {
  lstmInteger(p, buffers, lstm_step::gateInt8, lstm_step::updateHiddenInt8);
}

void lstmInt16(const LstmInt16Params& p, const LstmInt16Buffers& buffers) {
  lstmInteger(p, buffers, lstm_step::gateInt16, lstm_step::updateHiddenInt16);
}

void lstmFloat(const LstmFloatParams& p, const LstmFloatBuffers& buffers) {
  const LstmShape& shape = p.shape;
  const size_t gate_elements =
      static_cast<size_t>(shape.batches) * static_cast<size_t>(shape.cells);
  float* forget = buffers.scratch;
  float* input_gate = forget + gate_elements;
  float* cell_gate = input_gate + gate_elements;
  float* output_gate = cell_gate + gate_elements;
  forEachStep(shape, [&](const StepSlice& s) {
    const float* x = buffers.input + s.input_offset;
    float* h = buffers.hidden_state + s.state_offset;
    float* c = buffers.cell_state + s.state_offset;
    const int32_t count = s.rows * shape.cells;
    lstm_step::gateFloat(p.forget_gate, s.rows, shape.input_size, shape.cells, x, h,
                         LstmGateActivation::kSigmoid, forget);
    lstm_step::gateFloat(p.input_gate, s.rows, shape.input_size, shape.cells, x, h,
                         LstmGateActivation::kSigmoid, input_gate);
    lstm_step::gateFloat(p.cell_gate, s.rows, shape.input_size, shape.cells, x, h,
                         p.cell_gate_activation, cell_gate);
    lstm_step::gateFloat(p.output_gate, s.rows, shape.input_size, shape.cells, x, h,
                         LstmGateActivation::kSigmoid, output_gate);
    lstm_step::updateCellFloat(p, count, forget, input_gate, cell_gate, c);
    lstm_step::updateHiddenFloat(count, c, output_gate, h);
    std::memcpy(buffers.output + s.output_offset, h, static_cast<size_t>(count) * sizeof(float));
  });
}

}  // namespace hilsim::kernels
