#include "hilsim/kernels/optimized/lstm.h"

#include <cstddef>

#include "hilsim/kernels/activation_math.h"
#include "hilsim/kernels/lstm_step.h"
#include "hilsim/kernels/optimized/dot.h"
#include "hilsim/kernels/optimized/requant.h"

namespace hilsim::kernels::opt {
namespace {

// The gate's activation input is Q3.12 (lstm_gate.cpp): the table input is q * 3, no shift.
constexpr int32_t kGateTableMultiplier = 3;

// One product's requantization: multiplier and the shift split once per gate.
struct GateScale {
  int32_t multiplier;
  int32_t left;
  int32_t right;
};

GateScale gateScale(int32_t multiplier, int shift) {
  return {multiplier, shift > 0 ? shift : 0, shift > 0 ? 0 : -shift};
}

int32_t clampInt16(int32_t v) {
  v = v < -32768 ? -32768 : v;
  return v > 32767 ? 32767 : v;
}

int32_t biasOf(const int32_t* bias, int32_t c) {
  return bias ? bias[c] : 0;
}

// activation(sat16(clamp16(requant(from_input)) + clamp16(requant(from_hidden)))).
int16_t gateOutput(int32_t from_input, int32_t from_hidden, const GateScale& in,
                   const GateScale& rec, bool sigmoid) {
  const int32_t a = clampInt16(requantizeShifts(from_input, in.multiplier, in.left, in.right));
  const int32_t b = clampInt16(requantizeShifts(from_hidden, rec.multiplier, rec.left, rec.right));
  const auto sum = static_cast<int16_t>(clampInt16(a + b));
  return sigmoid ? activation::logisticInt16(sum, kGateTableMultiplier, 0)
                 : activation::tanhInt16(sum, kGateTableMultiplier, 0);
}

}  // namespace

void lstmGateInt8(const LstmGateInt8& g, int32_t rows, int32_t input_size, int32_t cells,
                  const int8_t* input, const int8_t* hidden, LstmGateActivation activation,
                  int16_t* gate) {
  const GateScale in = gateScale(g.input_multiplier, g.input_shift);
  const GateScale rec = gateScale(g.recurrent_multiplier, g.recurrent_shift);
  const bool sigmoid = activation == LstmGateActivation::kSigmoid;
  const int8_t* input_weights = g.input_weights;
  const int8_t* recurrent_weights = g.recurrent_weights;
  const int32_t* input_bias = g.input_bias;
  const int32_t* recurrent_bias = g.recurrent_bias;
  const size_t in_stride = size_t(input_size), cell_stride = size_t(cells);
  for (int32_t r = 0; r < rows; ++r) {
    const int8_t* x = input + size_t(r) * in_stride;
    const int8_t* h = hidden + size_t(r) * cell_stride;
    int16_t* out = gate + size_t(r) * cell_stride;
    int32_t c = 0;
    // Four cells per pass: one widened word of x (of h) serves four weight rows.
    for (; c + 4 <= cells; c += 4) {
      int32_t from_input[4] = {biasOf(input_bias, c), biasOf(input_bias, c + 1),
                               biasOf(input_bias, c + 2), biasOf(input_bias, c + 3)};
      dot1x4S8(x, input_weights + size_t(c) * in_stride, input_size, input_size, from_input);
      int32_t from_hidden[4] = {biasOf(recurrent_bias, c), biasOf(recurrent_bias, c + 1),
                                biasOf(recurrent_bias, c + 2), biasOf(recurrent_bias, c + 3)};
      dot1x4S8(h, recurrent_weights + size_t(c) * cell_stride, cells, cells, from_hidden);
      for (int32_t j = 0; j < 4; ++j)
        out[c + j] = gateOutput(from_input[j], from_hidden[j], in, rec, sigmoid);
    }
    for (; c < cells; ++c) {
      const int32_t from_input =
          dot1x1S8(x, input_weights + size_t(c) * in_stride, input_size, biasOf(input_bias, c));
      const int32_t from_hidden = dot1x1S8(h, recurrent_weights + size_t(c) * cell_stride, cells,
                                           biasOf(recurrent_bias, c));
      out[c] = gateOutput(from_input, from_hidden, in, rec, sigmoid);
    }
  }
}

void lstmInt8(const LstmInt8Params& p, const LstmInt8Buffers& buffers) {
  lstm_step::lstmInt8WithGate(p, buffers, lstmGateInt8);
}

}  // namespace hilsim::kernels::opt
