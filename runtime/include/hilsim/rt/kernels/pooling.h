#pragma once
// Integer average of a pooling window as TensorFlow Lite's reference_integer_ops::AveragePool
// takes it: the sum over the window's taps inside the input, divided by their count, rounded
// half away from zero (C++ division truncates, so the half is added with the sum's sign).

#include <cstdint>

namespace hilsim::rt {

// sum / count rounded half away from zero; count > 0.
inline int32_t roundedAverage(int32_t sum, int32_t count) {
  return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

}  // namespace hilsim::rt
