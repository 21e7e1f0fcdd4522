#pragma once
// The stages of one LSTM time step (hilsim/kernels/lstm.h), over `rows` rows of the batch at
// once: element (r, c) of a [rows, cells] array is at r * cells + c. Exposed for tests.

#include <cstdint>

#include "hilsim/kernels/lstm.h"

namespace hilsim::kernels::lstm_step {

// gate = activation(sat16(FC(input) + FC(hidden))) with input [rows, input_size] and hidden
// [rows, cells]; output Q0.15.
void gateInt8(const LstmGateInt8& g, int32_t rows, int32_t input_size, int32_t cells,
              const int8_t* input, const int8_t* hidden, LstmGateActivation activation,
              int16_t* gate);
// The signature of gateInt8, for a gate computed another way (the optimized library's).
using GateInt8Function = void (*)(const LstmGateInt8& g, int32_t rows, int32_t input_size,
                                  int32_t cells, const int8_t* input, const int8_t* hidden,
                                  LstmGateActivation activation, int16_t* gate);

// lstmInt8 with `gate` in place of gateInt8: the same steps in the same order, the same cell and
// hidden updates; with gateInt8 it is lstmInt8.
void lstmInt8WithGate(const LstmInt8Params& p, const LstmInt8Buffers& buffers,
                      GateInt8Function gate);

void gateInt16(const LstmGateInt16& g, int32_t rows, int32_t input_size, int32_t cells,
               const int16_t* input, const int16_t* hidden, LstmGateActivation activation,
               int16_t* gate);

// cell = clip(sat16(requant(forget * cell) + requant(input_gate * cell_gate))), `count`
// elements, in place.
void updateCellInteger(const LstmIntegerCell& p, int32_t count, const int16_t* forget,
                       const int16_t* input_gate, const int16_t* cell_gate, int16_t* cell);

// hidden = clamp(zero point + requant(tanh(cell) * output_gate)), `count` elements.
void updateHiddenInt8(const LstmIntegerCell& p, int32_t count, const int16_t* cell,
                      const int16_t* output_gate, int8_t* hidden);
void updateHiddenInt16(const LstmIntegerCell& p, int32_t count, const int16_t* cell,
                       const int16_t* output_gate, int16_t* hidden);

void gateFloat(const LstmGateFloat& g, int32_t rows, int32_t input_size, int32_t cells,
               const float* input, const float* hidden, LstmGateActivation activation, float* gate);

// cell = clip(forget * cell + input_gate * cell_gate), in place.
void updateCellFloat(const LstmFloatParams& p, int32_t count, const float* forget,
                     const float* input_gate, const float* cell_gate, float* cell);

// hidden = tanh(cell) * output_gate.
void updateHiddenFloat(int32_t count, const float* cell, const float* output_gate, float* hidden);

}  // namespace hilsim::kernels::lstm_step
