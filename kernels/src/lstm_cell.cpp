// LSTM cell and hidden state updates from the gate outputs.

#include <algorithm>
#include <cmath>
#include <limits>

#include "hilsim/kernels/activation_math.h"
#include "hilsim/kernels/lstm_step.h"
#include "hilsim/kernels/quant_math.h"

namespace hilsim::kernels::lstm_step {
namespace {

// Product of two symmetric int16 values requantized to the output scale (MulElementwise).
int32_t requantizedProduct(int16_t a, int16_t b, int32_t multiplier, int shift) {
  return multiplyByQuantizedMultiplier(int32_t{a} * int32_t{b}, multiplier, shift);
}

int16_t clampInt16(int32_t x) {
  return static_cast<int16_t>(std::clamp<int32_t>(x, -32768, 32767));
}

// The reference float MUL clamps to the range of its (absent) activation.
float clampFinite(float x) {
  return std::min(std::max(x, std::numeric_limits<float>::lowest()),
                  std::numeric_limits<float>::max());
}

}  // namespace

void updateCellInteger(const LstmIntegerCell& p, int32_t count, const int16_t* forget,
                       const int16_t* input_gate, const int16_t* cell_gate, int16_t* cell) {
  for (int32_t i = 0; i < count; ++i) {
    const int16_t kept = clampInt16(requantizedProduct(
        forget[i], cell[i], p.forget_times_cell_multiplier, p.forget_times_cell_shift));
    const int16_t added = clampInt16(requantizedProduct(input_gate[i], cell_gate[i],
                                                        p.input_times_cell_gate_multiplier,
                                                        p.input_times_cell_gate_shift));
    int16_t updated = clampInt16(int32_t{kept} + int32_t{added});
    if (p.clip_cell)
      updated = std::max(std::min(p.cell_clip, updated), static_cast<int16_t>(-p.cell_clip));
    cell[i] = updated;
  }
}

namespace {

template <typename Hidden>
void updateHiddenInteger(const LstmIntegerCell& p, int32_t count, const int16_t* cell,
                         const int16_t* output_gate, Hidden* hidden) {
  constexpr int32_t kMin = std::numeric_limits<Hidden>::min();
  constexpr int32_t kMax = std::numeric_limits<Hidden>::max();
  for (int32_t i = 0; i < count; ++i) {
    const int16_t cell_tanh =
        activation::tanhInt16(cell[i], p.cell_tanh.input_multiplier, p.cell_tanh.input_right_shift);
    const int32_t value =
        p.hidden_zero_point +
        requantizedProduct(cell_tanh, output_gate[i], p.hidden_multiplier, p.hidden_shift);
    hidden[i] = static_cast<Hidden>(std::clamp(value, kMin, kMax));
  }
}

}  // namespace

void updateHiddenInt8(const LstmIntegerCell& p, int32_t count, const int16_t* cell,
                      const int16_t* output_gate, int8_t* hidden) {
  updateHiddenInteger(p, count, cell, output_gate, hidden);
}

void updateHiddenInt16(const LstmIntegerCell& p, int32_t count, const int16_t* cell,
                       const int16_t* output_gate, int16_t* hidden) {
  updateHiddenInteger(p, count, cell, output_gate, hidden);
}

void updateCellFloat(const LstmFloatParams& p, int32_t count, const float* forget,
                     const float* input_gate, const float* cell_gate, float* cell) {
  for (int32_t i = 0; i < count; ++i) {
    const float kept = clampFinite(forget[i] * cell[i]);
    const float added = clampFinite(input_gate[i] * cell_gate[i]);
    float updated = kept + added;
    // Argument order as in the reference: a NaN cell becomes +cell_clip.
    if (p.cell_clip > 0.0f) updated = std::max(std::min(p.cell_clip, updated), -p.cell_clip);
    cell[i] = updated;
  }
}

void updateHiddenFloat(int32_t count, const float* cell, const float* output_gate, float* hidden) {
  for (int32_t i = 0; i < count; ++i) hidden[i] = clampFinite(std::tanh(cell[i]) * output_gate[i]);
}

}  // namespace hilsim::kernels::lstm_step
