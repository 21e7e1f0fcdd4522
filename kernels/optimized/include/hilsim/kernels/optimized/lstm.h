#pragma once
// Optimized UNIDIRECTIONAL_SEQUENCE_LSTM, int8 x int8 with an int16 cell state, bit-exact with
// TensorFlow Lite Micro's integer LSTM (hilsim/kernels/lstm.h, same parameters and buffers).
//
// Only the gate products change: each gate's input-to-gate and recurrent-to-gate products run as
// the optimized FULLY_CONNECTED's single-row products (dot1x4S8: four cells per pass share the
// widened input word; SXTB16 + SMLAD with the DSP extension), starting from the gate's biases,
// into which prepare has folded the input and hidden zero points (LstmGateInt8), so the inner
// loops are plain int8 dot products. Each product is requantized with its own multiplier and
// shift and clamped to int16, the two are added with int16 saturation, and the gate's sigmoid or
// tanh follows, all as in the reference. The cell and hidden updates and the order of the steps
// are the reference's own code (lstm_step::lstmInt8WithGate). Freestanding.

#include <cstdint>

#include "hilsim/kernels/lstm.h"

namespace hilsim::kernels::opt {

// Same output as lstm_step::gateInt8 for the same gate: gate = activation(sat16(FC(input) +
// FC(hidden))) over `rows` rows, input [rows, input_size], hidden [rows, cells], gate [rows,
// cells] in Q0.15. Either bias may be null (no bias).
void lstmGateInt8(const LstmGateInt8& g, int32_t rows, int32_t input_size, int32_t cells,
                  const int8_t* input, const int8_t* hidden, LstmGateActivation activation,
                  int16_t* gate);

// Same output and final states as kernels::lstmInt8.
void lstmInt8(const LstmInt8Params& p, const LstmInt8Buffers& buffers);

}  // namespace hilsim::kernels::opt
