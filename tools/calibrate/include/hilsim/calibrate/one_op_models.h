#pragma once
// One-operator models built in memory (int8, and float32 FULLY_CONNECTED, some behind a feeding
// layer): the shapes `hilsim calibrate` runs on the host CPU's instruction-set simulator to fit
// the CPU cost model. Each holds the operator twice, to time its kernel's first call in an
// inference and a later one.

#include <cstdint>
#include <string>
#include <vector>

#include "hilsim/schema/tflite_generated.h"

namespace hilsim::calibrate {

struct OneOpModel {
  tflite::BuiltinOperator op = tflite::BuiltinOperator::ADD;
  std::string label;           // e.g. "CONV_2D 1x24x24x16 k3 s1 -> 32"
  std::vector<uint8_t> bytes;  // the .tflite flatbuffer
  size_t layer = 0;            // the measured operator; the ones before it produce its input
  size_t warm_layer = 0;       // its second instance (layer + 1), run with the code warm
  // The feeding layer ran the measured operator's kernel on other code paths: the first call
  // times the code of the measured shape's own paths (timing::fullyConnectedPaths).
  bool new_paths = false;
};

// A FULLY_CONNECTED layer [rows, k] x [n, k]^T with int8 weights and int32 bias.
OneOpModel fullyConnectedModel(int32_t rows, int32_t k, int32_t n);
// The same behind an int8 [rows, k] x [n_before, k]^T layer (k becomes n_before): the measured
// layer's first call runs the code paths of the kernel the first one did not.
OneOpModel fullyConnectedAfterModel(int32_t rows, int32_t k, int32_t n_before, int32_t n);
// The same in float32: input, weights, bias and output. With relu_input its input is the output
// of a float32 k -> k layer with RELU (a hidden layer's input), run first.
OneOpModel fullyConnectedFloatModel(int32_t rows, int32_t k, int32_t n, bool relu_input);
// SVDF over [batches, input_size] with units x rank filters and a memory of `memory` steps: int8
// input and feature weights, int16 time weights and state when int16_state, else int8.
OneOpModel svdfModel(int32_t batches, int32_t input_size, int32_t units, int32_t rank,
                     int32_t memory, bool int16_state);
// CONV_2D over [1, h, w, in_c], an out_c x kh x kw x in_c filter, SAME padding.
OneOpModel convModel(int32_t h, int32_t w, int32_t in_c, int32_t out_c, int32_t kh, int32_t kw,
                     int32_t stride);
// DEPTHWISE_CONV_2D over [1, h, w, in_c], a kh x kw filter, SAME padding, in_c x
// depth_multiplier output channels.
OneOpModel depthwiseModel(int32_t h, int32_t w, int32_t in_c, int32_t kh, int32_t kw,
                          int32_t stride, int32_t depth_multiplier);
// AVERAGE_POOL_2D or MAX_POOL_2D over [1, h, w, c], a k x k window, VALID padding.
OneOpModel poolModel(tflite::BuiltinOperator op, int32_t h, int32_t w, int32_t c, int32_t k,
                     int32_t stride);
// SOFTMAX over [rows, n].
OneOpModel softmaxModel(int32_t rows, int32_t n);
// ADD or MUL of two [1, n] tensors.
OneOpModel elementwiseModel(tflite::BuiltinOperator op, int32_t n);
// RESHAPE of [1, n] to [n].
// QUANTIZE of [1, n]: int8 -> int8 requantization, or float32 -> int8 when from_float.
OneOpModel quantizeModel(int32_t n, bool from_float);
// DEQUANTIZE of [1, n] int8 to float32.
OneOpModel dequantizeModel(int32_t n);
// LOGISTIC or TANH of [1, n] int8.
OneOpModel activationModel(tflite::BuiltinOperator op, int32_t n);
OneOpModel reshapeModel(int32_t n);
// UNIDIRECTIONAL_SEQUENCE_LSTM of int8 activations with an int16 cell state over `time_steps`
// steps of `batches` x `input_size`, `cells` cells; input [batches, time_steps, input_size], or
// [time_steps, batches, input_size] when time_major.
OneOpModel lstmModel(int32_t time_steps, int32_t batches, int32_t input_size, int32_t cells,
                     bool time_major);

// The shape set of `hilsim calibrate` (README.md, "calibrate"): small to large layers of every
// operator above.
std::vector<OneOpModel> calibrationShapes();

}  // namespace hilsim::calibrate
