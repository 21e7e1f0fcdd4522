#pragma once
// Every kernel call of the reference kernels: one Call type per KernelId, with its visit() and
// run(), and AllCalls, the list that the firmware's dispatch and the tests walk. A Call's
// pointers must point into memory the target can address (the tensor arena, the persistent pool
// or the model's bytes). Freestanding.

#include <cstdint>
#include <cstring>

#include "hilsim/kernels/abi/call_shapes.h"
#include "hilsim/kernels/abi/kernel_id.h"
#include "hilsim/kernels/abi/params.h"
#include "hilsim/kernels/abi/words.h"
#include "hilsim/kernels/add.h"
#include "hilsim/kernels/concatenation.h"
#include "hilsim/kernels/conv.h"
#include "hilsim/kernels/depthwise_conv.h"
#include "hilsim/kernels/dequantize.h"
#include "hilsim/kernels/fully_connected.h"
#include "hilsim/kernels/hard_swish.h"
#include "hilsim/kernels/logistic.h"
#include "hilsim/kernels/lstm.h"
#include "hilsim/kernels/maximum_minimum.h"
#include "hilsim/kernels/mul.h"
#include "hilsim/kernels/pad.h"
#include "hilsim/kernels/pooling.h"
#include "hilsim/kernels/quantize.h"
#include "hilsim/kernels/reduce.h"
#include "hilsim/kernels/softmax.h"
#include "hilsim/kernels/strided_slice.h"
#include "hilsim/kernels/sub.h"
#include "hilsim/kernels/svdf.h"
#include "hilsim/kernels/tanh.h"
#include "hilsim/kernels/transpose.h"

namespace hilsim::kernels::abi {

// FULLY_CONNECTED.

struct FullyConnectedInt8Call {
  static constexpr KernelId kId = KernelId::kFullyConnectedInt8;
  FullyConnectedInt8Params params;
  const int8_t* input = nullptr;
  const int8_t* filter = nullptr;
  const int32_t* bias = nullptr;  // may be null
  int8_t* output = nullptr;
};

template <class V>
constexpr void visit(V& v, FullyConnectedInt8Call& c) {
  visit(v, c.params);
  v(c.input);
  v(c.filter);
  v(c.bias);
  v(c.output);
}

inline void run(const FullyConnectedInt8Call& c) {
  fullyConnectedInt8(c.params, c.input, c.filter, c.bias, c.output);
}

struct FullyConnectedFloatCall {
  static constexpr KernelId kId = KernelId::kFullyConnectedFloat;
  FullyConnectedFloatParams params;
  const float* input = nullptr;
  const float* filter = nullptr;
  const float* bias = nullptr;  // may be null
  float* output = nullptr;
};

template <class V>
constexpr void visit(V& v, FullyConnectedFloatCall& c) {
  visit(v, c.params);
  v(c.input);
  v(c.filter);
  v(c.bias);
  v(c.output);
}

inline void run(const FullyConnectedFloatCall& c) {
  fullyConnectedFloat(c.params, c.input, c.filter, c.bias, c.output);
}

// CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D.

struct ConvInt8Call {
  static constexpr KernelId kId = KernelId::kConvInt8;
  ConvParams params;
  const int8_t* input = nullptr;
  const int8_t* filter = nullptr;
  int8_t* output = nullptr;
};

template <class V>
constexpr void visit(V& v, ConvInt8Call& c) {
  visit(v, c.params);
  v(c.input);
  v(c.filter);
  v(c.output);
}

inline void run(const ConvInt8Call& c) {
  convInt8(c.params, c.input, c.filter, c.output);
}

struct DepthwiseConvInt8Call {
  static constexpr KernelId kId = KernelId::kDepthwiseConvInt8;
  DepthwiseConvParams params;
  const int8_t* input = nullptr;
  const int8_t* filter = nullptr;
  int8_t* output = nullptr;
};

template <class V>
constexpr void visit(V& v, DepthwiseConvInt8Call& c) {
  visit(v, c.params);
  v(c.input);
  v(c.filter);
  v(c.output);
}

inline void run(const DepthwiseConvInt8Call& c) {
  depthwiseConvInt8(c.params, c.input, c.filter, c.output);
}

using AveragePoolInt8Call = AveragePoolCall<KernelId::kAveragePoolInt8, int8_t, averagePoolInt8>;
using AveragePoolInt16Call =
    AveragePoolCall<KernelId::kAveragePoolInt16, int16_t, averagePoolInt16>;
using MaxPoolInt8Call = UnaryCall<KernelId::kMaxPoolInt8, PoolParams, int8_t, int8_t, maxPoolInt8>;
using MaxPoolInt16Call =
    UnaryCall<KernelId::kMaxPoolInt16, PoolParams, int16_t, int16_t, maxPoolInt16>;
using MaxPoolFloatCall =
    UnaryCall<KernelId::kMaxPoolFloat, PoolParams, float, float, maxPoolFloat32>;

// SOFTMAX.

using SoftmaxFloatCall =
    UnaryCall<KernelId::kSoftmaxFloat, SoftmaxFloatParams, float, float, softmaxFloat>;
using SoftmaxInt8ToInt8Call =
    SoftmaxQuantizedCall<KernelId::kSoftmaxInt8ToInt8, int8_t, softmaxInt8ToInt8>;
using SoftmaxInt8ToInt16Call =
    SoftmaxQuantizedCall<KernelId::kSoftmaxInt8ToInt16, int16_t, softmaxInt8ToInt16>;

struct SoftmaxInt16Call {
  static constexpr KernelId kId = KernelId::kSoftmaxInt16;
  SoftmaxInt16Params params;
  const int16_t* input = nullptr;
  const int16_t* exp_lut = nullptr;         // kInt16LutEntries values
  const int16_t* reciprocal_lut = nullptr;  // kInt16LutEntries values
  int16_t* output = nullptr;
};

template <class V>
constexpr void visit(V& v, SoftmaxInt16Call& c) {
  visit(v, c.params);
  v(c.input);
  v(c.exp_lut);
  v(c.reciprocal_lut);
  v(c.output);
}

inline void run(const SoftmaxInt16Call& c) {
  softmaxInt16(c.params, c.input, c.exp_lut, c.reciprocal_lut, c.output);
}

// QUANTIZE, DEQUANTIZE.

using QuantizeFloatToInt8Call = UnaryCall<KernelId::kQuantizeFloatToInt8, AffineQuantizeParams,
                                          float, int8_t, quantizeFloatToInt8>;
using QuantizeFloatToInt16Call = UnaryCall<KernelId::kQuantizeFloatToInt16, AffineQuantizeParams,
                                           float, int16_t, quantizeFloatToInt16>;
template <KernelId Id, class In, class Out, void (*F)(const RequantizeParams&, const In*, Out*)>
using RequantizeCall = UnaryCall<Id, RequantizeParams, In, Out, F>;
using RequantizeInt8ToInt8Call =
    RequantizeCall<KernelId::kRequantizeInt8ToInt8, int8_t, int8_t, requantizeInt8ToInt8>;
using RequantizeInt8ToInt16Call =
    RequantizeCall<KernelId::kRequantizeInt8ToInt16, int8_t, int16_t, requantizeInt8ToInt16>;
using RequantizeInt8ToInt32Call =
    RequantizeCall<KernelId::kRequantizeInt8ToInt32, int8_t, int32_t, requantizeInt8ToInt32>;
using RequantizeInt8ToUint8Call =
    RequantizeCall<KernelId::kRequantizeInt8ToUint8, int8_t, uint8_t, requantizeInt8ToUint8>;
using RequantizeUint8ToInt8Call =
    RequantizeCall<KernelId::kRequantizeUint8ToInt8, uint8_t, int8_t, requantizeUint8ToInt8>;
using RequantizeInt16ToInt8Call =
    RequantizeCall<KernelId::kRequantizeInt16ToInt8, int16_t, int8_t, requantizeInt16ToInt8>;
using RequantizeInt16ToInt16Call =
    RequantizeCall<KernelId::kRequantizeInt16ToInt16, int16_t, int16_t, requantizeInt16ToInt16>;
using RequantizeInt16ToInt32Call =
    RequantizeCall<KernelId::kRequantizeInt16ToInt32, int16_t, int32_t, requantizeInt16ToInt32>;
using RequantizeInt32ToInt8Call =
    RequantizeCall<KernelId::kRequantizeInt32ToInt8, int32_t, int8_t, requantizeInt32ToInt8>;
using RequantizeInt32ToInt16Call =
    RequantizeCall<KernelId::kRequantizeInt32ToInt16, int32_t, int16_t, requantizeInt32ToInt16>;
using DequantizeInt8Call =
    UnaryCall<KernelId::kDequantizeInt8, DequantizeParams, int8_t, float, dequantizeInt8>;
using DequantizeInt16Call =
    UnaryCall<KernelId::kDequantizeInt16, DequantizeParams, int16_t, float, dequantizeInt16>;

// SVDF.

using SvdfInt8StateCall = SvdfCall<KernelId::kSvdfInt8State, int8_t, svdfInt8State>;
using SvdfInt16StateCall = SvdfCall<KernelId::kSvdfInt16State, int16_t, svdfInt16State>;

// ADD, SUB, MUL, MAXIMUM, MINIMUM.

using AddInt8Call = BinaryCall<KernelId::kAddInt8, QuantizedAddParams, int8_t, addInt8>;
using AddInt16Call = BinaryCall<KernelId::kAddInt16, QuantizedAddParams, int16_t, addInt16>;
using AddFloatCall = BinaryCall<KernelId::kAddFloat, FloatActivation, float, addFloat>;
using AddInt32Call = BinaryCall<KernelId::kAddInt32, Int32Activation, int32_t, addInt32>;
using SubInt8Call = BinaryCall<KernelId::kSubInt8, QuantizedAddParams, int8_t, subInt8>;
using SubInt16Call = BinaryCall<KernelId::kSubInt16, QuantizedAddParams, int16_t, subInt16>;
using SubFloatCall = BinaryCall<KernelId::kSubFloat, FloatActivation, float, subFloat>;
using SubInt32Call = BinaryCall<KernelId::kSubInt32, Int32Activation, int32_t, subInt32>;
using MulInt8Call = BinaryCall<KernelId::kMulInt8, QuantizedMulParams, int8_t, mulInt8>;
using MulInt16Call = BinaryCall<KernelId::kMulInt16, QuantizedMulParams, int16_t, mulInt16>;
using MulFloatCall = BinaryCall<KernelId::kMulFloat, FloatActivation, float, mulFloat>;
using MulInt32Call = BinaryCall<KernelId::kMulInt32, Int32Activation, int32_t, mulInt32>;
using MaximumInt8Call = BroadcastCall<KernelId::kMaximumInt8, int8_t, maximumInt8>;
using MaximumInt16Call = BroadcastCall<KernelId::kMaximumInt16, int16_t, maximumInt16>;
using MaximumInt32Call = BroadcastCall<KernelId::kMaximumInt32, int32_t, maximumInt32>;
using MaximumInt64Call = BroadcastCall<KernelId::kMaximumInt64, int64_t, maximumInt64>;
using MaximumFloatCall = BroadcastCall<KernelId::kMaximumFloat, float, maximumFloat>;
using MinimumInt8Call = BroadcastCall<KernelId::kMinimumInt8, int8_t, minimumInt8>;
using MinimumInt16Call = BroadcastCall<KernelId::kMinimumInt16, int16_t, minimumInt16>;
using MinimumInt32Call = BroadcastCall<KernelId::kMinimumInt32, int32_t, minimumInt32>;
using MinimumInt64Call = BroadcastCall<KernelId::kMinimumInt64, int64_t, minimumInt64>;
using MinimumFloatCall = BroadcastCall<KernelId::kMinimumFloat, float, minimumFloat>;

// HARD_SWISH, LOGISTIC, TANH.

using HardSwishInt8Call =
    UnaryCall<KernelId::kHardSwishInt8, HardSwishParams, int8_t, int8_t, hardSwishInt8>;
using HardSwishFloatCall = CountCall<KernelId::kHardSwishFloat, float, hardSwishFloat>;
using LogisticInt8Call =
    UnaryCall<KernelId::kLogisticInt8, Int8ActivationParams, int8_t, int8_t, logisticInt8>;
using LogisticInt16Call =
    UnaryCall<KernelId::kLogisticInt16, Int16ActivationParams, int16_t, int16_t, logisticInt16>;
using LogisticFloatCall = CountCall<KernelId::kLogisticFloat, float, logisticFloat>;
using TanhInt8Call = UnaryCall<KernelId::kTanhInt8, Int8ActivationParams, int8_t, int8_t, tanhInt8>;
using TanhInt16Call =
    UnaryCall<KernelId::kTanhInt16, Int16ActivationParams, int16_t, int16_t, tanhInt16>;
using TanhFloatCall = CountCall<KernelId::kTanhFloat, float, tanhFloat>;

// UNIDIRECTIONAL_SEQUENCE_LSTM.

using LstmInt8Call = LstmCall<KernelId::kLstmInt8, LstmInt8Params, LstmInt8Buffers, lstmInt8>;
using LstmInt16Call = LstmCall<KernelId::kLstmInt16, LstmInt16Params, LstmInt16Buffers, lstmInt16>;
using LstmFloatCall = LstmCall<KernelId::kLstmFloat, LstmFloatParams, LstmFloatBuffers, lstmFloat>;

// CONCATENATION, PAD / PADV2, TRANSPOSE, MEAN, STRIDED_SLICE.

struct ConcatenationCall {
  static constexpr KernelId kId = KernelId::kConcatenation;
  ConcatenationParams params;
  const uint8_t* inputs[kMaxConcatenationInputs] = {};  // the first params.inputs are used
  uint8_t* output = nullptr;
};

template <class V>
constexpr void visit(V& v, ConcatenationCall& c) {
  visit(v, c.params);
  v(c.inputs);
  v(c.output);
}

inline void run(const ConcatenationCall& c) {
  concatenate(c.params, c.inputs, c.output);
}

using PadInt8Call = PadCall<KernelId::kPadInt8, int8_t, padInt8>;
using PadInt16Call = PadCall<KernelId::kPadInt16, int16_t, padInt16>;
using PadInt32Call = PadCall<KernelId::kPadInt32, int32_t, padInt32>;
using PadFloatCall = PadCall<KernelId::kPadFloat, float, padFloat32>;
using Transpose8Call =
    UnaryCall<KernelId::kTranspose8, TransposeParams, uint8_t, uint8_t, transpose8>;
using Transpose16Call =
    UnaryCall<KernelId::kTranspose16, TransposeParams, uint16_t, uint16_t, transpose16>;
using Transpose32Call =
    UnaryCall<KernelId::kTranspose32, TransposeParams, uint32_t, uint32_t, transpose32>;
using MeanInt8Call = MeanCall<KernelId::kMeanInt8, int8_t, meanInt8>;
using MeanInt16Call = MeanCall<KernelId::kMeanInt16, int16_t, meanInt16>;
using MeanFloatCall = UnaryCall<KernelId::kMeanFloat, MeanParams, float, float, meanFloat32>;
using StridedSlice8Call =
    UnaryCall<KernelId::kStridedSlice8, StridedSliceParams, uint8_t, uint8_t, stridedSlice8>;
using StridedSlice16Call =
    UnaryCall<KernelId::kStridedSlice16, StridedSliceParams, uint16_t, uint16_t, stridedSlice16>;
using StridedSlice32Call =
    UnaryCall<KernelId::kStridedSlice32, StridedSliceParams, uint32_t, uint32_t, stridedSlice32>;

// RESHAPE, SQUEEZE: `bytes` bytes from input to output (the buffers may overlap).
struct CopyCall {
  static constexpr KernelId kId = KernelId::kCopy;
  const uint8_t* input = nullptr;
  uint8_t* output = nullptr;
  uint32_t bytes = 0;
};

template <class V>
constexpr void visit(V& v, CopyCall& c) {
  v(c.input);
  v(c.output);
  v(c.bytes);
}

inline void run(const CopyCall& c) {
  std::memmove(c.output, c.input, c.bytes);
}

// Every call, in KernelId order.
template <class... Calls>
struct CallList {};

using AllCalls = CallList<
    FullyConnectedInt8Call, FullyConnectedFloatCall, ConvInt8Call, DepthwiseConvInt8Call,
    AveragePoolInt8Call, MaxPoolInt8Call, MaxPoolInt16Call, MaxPoolFloatCall, SoftmaxFloatCall,
    SoftmaxInt8ToInt8Call, SoftmaxInt8ToInt16Call, QuantizeFloatToInt8Call,
    QuantizeFloatToInt16Call, RequantizeInt8ToInt8Call, RequantizeInt8ToInt16Call,
    RequantizeInt8ToInt32Call, RequantizeInt8ToUint8Call, RequantizeUint8ToInt8Call,
    RequantizeInt16ToInt8Call, RequantizeInt16ToInt16Call, RequantizeInt16ToInt32Call,
    RequantizeInt32ToInt8Call, RequantizeInt32ToInt16Call, DequantizeInt8Call, DequantizeInt16Call,
    SvdfInt8StateCall, SvdfInt16StateCall, AddInt8Call, AddInt16Call, AddFloatCall, AddInt32Call,
    SubInt8Call, SubInt16Call, SubFloatCall, SubInt32Call, MulInt8Call, MulInt16Call, MulFloatCall,
    MulInt32Call, MaximumInt8Call, MaximumInt16Call, MaximumInt32Call, MaximumInt64Call,
    MaximumFloatCall, MinimumInt8Call, MinimumInt16Call, MinimumInt32Call, MinimumInt64Call,
    MinimumFloatCall, HardSwishInt8Call, HardSwishFloatCall, LogisticInt8Call, LogisticInt16Call,
    LogisticFloatCall, TanhInt8Call, TanhInt16Call, TanhFloatCall, LstmInt8Call, LstmInt16Call,
    LstmFloatCall, ConcatenationCall, PadInt8Call, PadInt16Call, PadInt32Call, PadFloatCall,
    Transpose8Call, Transpose16Call, Transpose32Call, MeanInt8Call, MeanInt16Call, MeanFloatCall,
    StridedSlice8Call, StridedSlice16Call, StridedSlice32Call, CopyCall, AveragePoolInt16Call,
    SoftmaxInt16Call>;

// The list names KernelId 1, 2, ... in order, each once, and every call fits kMaxCallWords.
template <class... Calls>
constexpr bool idsInOrder(CallList<Calls...>) {
  uint32_t expected = 1;
  bool ok = true;
  ((ok = ok && static_cast<uint32_t>(Calls::kId) == expected++), ...);
  return ok;
}

template <class... Calls>
constexpr uint32_t largestCallWords(CallList<Calls...>) {
  uint32_t largest = 0;
  ((largest = callWords<Calls>() > largest ? callWords<Calls>() : largest), ...);
  return largest;
}

static_assert(idsInOrder(AllCalls{}), "AllCalls must list KernelId 1.. in order, once each");
static_assert(largestCallWords(AllCalls{}) <= kMaxCallWords, "raise kMaxCallWords");

template <class... Calls>
constexpr uint32_t countCalls(CallList<Calls...>) {
  return sizeof...(Calls);
}
constexpr uint32_t kCallCount = countCalls(AllCalls{});

// The payload words of every call, indexed by KernelId (entry 0, no kernel, is 0). The firmware
// exports its own (hs_call_payload_words), so a test can hold both sides' layouts side by side.
struct CallWordTable {
  uint32_t words[kCallCount + 1];
};

template <class... Calls>
constexpr CallWordTable callWordTable(CallList<Calls...>) {
  CallWordTable table{};
  ((table.words[static_cast<uint32_t>(Calls::kId)] = callWords<Calls>()), ...);
  return table;
}

}  // namespace hilsim::kernels::abi
