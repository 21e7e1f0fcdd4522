#include "hilsim/kernels/maximum_minimum.h"

namespace hilsim::kernels {
namespace {

// Written as TFLite Micro writes them: std::max / std::min differ for a NaN operand.
template <typename T>
void maximum(const BroadcastLoops& loops, const T* input1, const T* input2, T* output) {
  broadcastBinary(loops, input1, input2, output, [](T a, T b) { return a > b ? a : b; });
}

template <typename T>
void minimum(const BroadcastLoops& loops, const T* input1, const T* input2, T* output) {
  broadcastBinary(loops, input1, input2, output, [](T a, T b) { return a < b ? a : b; });
}

}  // namespace

void maximumInt8(const BroadcastLoops& loops, const int8_t* input1, const int8_t* input2,
                 int8_t* output) {
  maximum(loops, input1, input2, output);
}
void maximumInt16(const BroadcastLoops& loops, const int16_t* input1, const int16_t* input2,
                  int16_t* output) {
  maximum(loops, input1, input2, output);
}
void maximumInt32(const BroadcastLoops& loops, const int32_t* input1, const int32_t* input2,
                  int32_t* output) {
  maximum(loops, input1, input2, output);
}
void maximumInt64(const BroadcastLoops& loops, const int64_t* input1, const int64_t* input2,
                  int64_t* output) {
  maximum(loops, input1, input2, output);
}
void maximumFloat(const BroadcastLoops& loops, const float* input1, const float* input2,
                  float* output) {
  maximum(loops, input1, input2, output);
}

void minimumInt8(const BroadcastLoops& loops, const int8_t* input1, const int8_t* input2,
                 int8_t* output) {
  minimum(loops, input1, input2, output);
}
void minimumInt16(const BroadcastLoops& loops, const int16_t* input1, const int16_t* input2,
                  int16_t* output) {
  minimum(loops, input1, input2, output);
}
void minimumInt32(const BroadcastLoops& loops, const int32_t* input1, const int32_t* input2,
                  int32_t* output) {
  minimum(loops, input1, input2, output);
}
void minimumInt64(const BroadcastLoops& loops, const int64_t* input1, const int64_t* input2,
                  int64_t* output) {
  minimum(loops, input1, input2, output);
}
void minimumFloat(const BroadcastLoops& loops, const float* input1, const float* input2,
                  float* output) {
  minimum(loops, input1, input2, output);
}

}  // namespace hilsim::kernels
