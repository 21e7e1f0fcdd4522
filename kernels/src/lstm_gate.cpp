// LSTM gates: two fully connected products, their sum, then sigmoid or tanh.

#include <algorithm>
#include <cmath>
#include <limits>

#include "hilsim/kernels/activation_math.h"
#include "hilsim/kernels/lstm_step.h"
#include "hilsim/kernels/quant_math.h"

namespace hilsim::kernels::lstm_step {
namespace {

namespace act = kernels::activation;

// The gate's activation input is Q3.12 in both TFLite Micro calls (sigmoid, and tanh with a
// cell-state scale power of -12): the table input is q * 3 with no shift.
constexpr int32_t kGateTableMultiplier = 3;

// 8x8: int32 sums wrapping like TFLite Micro's accumulator, 32-bit requantization.
struct Int8Fc {
  using Activation = int8_t;
  using Bias = int32_t;
  static int32_t requantized(const int8_t* weights, const int8_t* values, int32_t depth,
                             const int32_t* bias, int32_t c, int32_t multiplier, int shift) {
    uint32_t sum = bias ? static_cast<uint32_t>(bias[c]) : 0u;
    for (int32_t d = 0; d < depth; ++d)
      sum += static_cast<uint32_t>(int32_t{weights[d]} * int32_t{values[d]});
    return multiplyByQuantizedMultiplier(static_cast<int32_t>(sum), multiplier, shift);
  }
};

// 16x8: int64 sums, the 64-bit requantization.
struct Int16Fc {
  using Activation = int16_t;
  using Bias = int64_t;
  static int32_t requantized(const int8_t* weights, const int16_t* values, int32_t depth,
                             const int64_t* bias, int32_t c, int32_t multiplier, int shift) {
    uint64_t sum = 0;  // wrapping, for corrupt biases only
    for (int32_t d = 0; d < depth; ++d)
      sum += static_cast<uint64_t>(int64_t{int32_t{weights[d]} * int32_t{values[d]}});
    if (bias) sum += static_cast<uint64_t>(bias[c]);
    return multiplyByQuantizedMultiplier64(static_cast<int64_t>(sum), multiplier, shift);
  }
};

template <typename Fc>
void gateInteger(const LstmIntegerGate<typename Fc::Bias>& g, int32_t rows, int32_t input_size,
                 int32_t cells, const typename Fc::Activation* input,
                 const typename Fc::Activation* hidden, LstmGateActivation activation,
                 int16_t* gate) {
  const size_t in_stride = static_cast<size_t>(input_size);
  const size_t cell_stride = static_cast<size_t>(cells);
  for (int32_t r = 0; r < rows; ++r) {
    const auto* x = input + static_cast<size_t>(r) * in_stride;
    const auto* h = hidden + static_cast<size_t>(r) * cell_stride;
    int16_t* out = gate + static_cast<size_t>(r) * cell_stride;
    for (int32_t c = 0; c < cells; ++c) {
      const int32_t from_input = std::clamp<int32_t>(
          Fc::requantized(g.input_weights + static_cast<size_t>(c) * in_stride, x, input_size,
                          g.input_bias, c, g.input_multiplier, g.input_shift),
          -32768, 32767);
      const int32_t from_hidden = std::clamp<int32_t>(
          Fc::requantized(g.recurrent_weights + static_cast<size_t>(c) * cell_stride, h, cells,
                          g.recurrent_bias, c, g.recurrent_multiplier, g.recurrent_shift),
          -32768, 32767);
      const auto sum =
          static_cast<int16_t>(std::clamp<int32_t>(from_input + from_hidden, -32768, 32767));
      out[c] = activation == LstmGateActivation::kSigmoid
                   ? act::logisticInt16(sum, kGateTableMultiplier, 0)
                   : act::tanhInt16(sum, kGateTableMultiplier, 0);
    }
  }
}

// The reference FC clamps its float output to the range of its (absent) activation.
float clampFinite(float x) {
  return std::min(std::max(x, std::numeric_limits<float>::lowest()),
                  std::numeric_limits<float>::max());
}

float dotFloat(const float* weights, const float* values, int32_t depth) {
  float total = 0.0f;
  for (int32_t d = 0; d < depth; ++d) total += values[d] * weights[d];
  return total;
}

}  // namespace

void gateInt8(const LstmGateInt8& g, int32_t rows, int32_t input_size, int32_t cells,
              const int8_t* input, const int8_t* hidden, LstmGateActivation activation,
              int16_t* gate) {
  gateInteger<Int8Fc>(g, rows, input_size, cells, input, hidden, activation, gate);
}

void gateInt16(const LstmGateInt16& g, int32_t rows, int32_t input_size, int32_t cells,
               const int16_t* input, const int16_t* hidden, LstmGateActivation activation,
               int16_t* gate) {
  gateInteger<Int16Fc>(g, rows, input_size, cells, input, hidden, activation, gate);
}

void gateFloat(const LstmGateFloat& g, int32_t rows, int32_t input_size, int32_t cells,
               const float* input, const float* hidden, LstmGateActivation activation,
               float* gate) {
  const size_t in_stride = static_cast<size_t>(input_size);
  const size_t cell_stride = static_cast<size_t>(cells);
  for (int32_t r = 0; r < rows; ++r) {
    const float* x = input + static_cast<size_t>(r) * in_stride;
    const float* h = hidden + static_cast<size_t>(r) * cell_stride;
    float* out = gate + static_cast<size_t>(r) * cell_stride;
    for (int32_t c = 0; c < cells; ++c) {
      const float from_input = clampFinite(
          dotFloat(g.input_weights + static_cast<size_t>(c) * in_stride, x, input_size) +
          g.bias[c]);
      // The recurrent FC has no bias; the reference still adds 0 (turning -0 into +0).
      const float from_hidden = clampFinite(
          dotFloat(g.recurrent_weights + static_cast<size_t>(c) * cell_stride, h, cells) + 0.0f);
      const float sum = from_input + from_hidden;
      out[c] =
          activation == LstmGateActivation::kSigmoid ? act::logisticFloat(sum) : std::tanh(sum);
    }
  }
}

}  // namespace hilsim::kernels::lstm_step
