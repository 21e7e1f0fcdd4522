#pragma once
// Prepare-time derivation of the integer sigmoid/tanh parameters from quantization scales, with
// TensorFlow Lite Micro's formulas (logistic_common.cc, tanh.cc, lstm_eval_common.cc,
// quantization_util.cc). Each function returns nullptr on success or a static string saying why
// the scale cannot be used; the caller turns it into its error. Freestanding.

#include <cstdint>

#include "hilsim/kernels/activation_params.h"

namespace hilsim::kernels {

// TFLite's CheckedLog2: *log2_result = round(log2(x)) computed in float32 through natural logs;
// true when x is within 1e-3 (in log2) of that power of two. x must be positive and finite.
bool checkedLog2(float x, int* log2_result);

// int8 LOGISTIC/TANH: input_multiplier and input_left_shift from frexp(scale * 2^27), and
// input_range_radius = floor(15 * 2^27 / 2^input_left_shift). Sets those three fields only.
const char* int8ActivationScaling(float input_scale, Int8ActivationParams* params);

// int16 LOGISTIC/TANH input scaling. A power-of-two scale 2^-12 (or 2^-11 when
// allow_left_shift_one, as TANH allows) uses multiplier 3 << shift; any other scale gets a
// multiplier scale * 3 * 2^12 * 2^shift truncated, doubled until it exceeds 32767 / 2 (shift at
// most 31). Sets input_multiplier and input_right_shift only.
const char* int16ActivationScaling(float input_scale, bool allow_left_shift_one,
                                   Int16ActivationParams* params);

// The LSTM's tanh of its int16 cell state with scale 2^cell_scale_power (lstm_eval.cc Tanh):
// left shift 12 + power, applied as multiplier 3 << shift, or as multiplier 3 and a right shift
// when negative. Sets input_multiplier and input_right_shift only.
const char* lstmCellTanhScaling(int cell_scale_power, Int16ActivationParams* params);

}  // namespace hilsim::kernels
