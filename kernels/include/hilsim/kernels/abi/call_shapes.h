#pragma once
// The shapes of kernel calls that several kernels share, as templates over the kernel's id and
// its freestanding function: a Call holds the function's parameter struct and its tensor
// pointers; visit() lists them in order (words.h); run() calls the function. The concrete calls
// are named in calls.h. Freestanding.

#include <cstdint>

#include "hilsim/kernels/abi/kernel_id.h"
#include "hilsim/kernels/abi/params.h"
#include "hilsim/kernels/broadcast.h"

namespace hilsim::kernels::abi {

// f(params, input, output).
template <KernelId Id, class Params, class In, class Out, void (*F)(const Params&, const In*, Out*)>
struct UnaryCall {
  static constexpr KernelId kId = Id;
  Params params;
  const In* input = nullptr;
  Out* output = nullptr;
};

template <class V, KernelId Id, class Params, class In, class Out,
          void (*F)(const Params&, const In*, Out*)>
constexpr void visit(V& v, UnaryCall<Id, Params, In, Out, F>& c) {
  visit(v, c.params);
  v(c.input);
  v(c.output);
}

template <KernelId Id, class Params, class In, class Out, void (*F)(const Params&, const In*, Out*)>
inline void run(const UnaryCall<Id, Params, In, Out, F>& c) {
  F(c.params, c.input, c.output);
}

// f(count, input, output): the float activations.
template <KernelId Id, class T, void (*F)(int32_t, const T*, T*)>
struct CountCall {
  static constexpr KernelId kId = Id;
  int32_t count = 0;
  const T* input = nullptr;
  T* output = nullptr;
};

template <class V, KernelId Id, class T, void (*F)(int32_t, const T*, T*)>
constexpr void visit(V& v, CountCall<Id, T, F>& c) {
  v(c.count);
  v(c.input);
  v(c.output);
}

template <KernelId Id, class T, void (*F)(int32_t, const T*, T*)>
inline void run(const CountCall<Id, T, F>& c) {
  F(c.count, c.input, c.output);
}

// f(params, loops, input1, input2, output): ADD, SUB, MUL.
template <KernelId Id, class Params, class T,
          void (*F)(const Params&, const BroadcastLoops&, const T*, const T*, T*)>
struct BinaryCall {
  static constexpr KernelId kId = Id;
  Params params;
  BroadcastLoops loops;
  const T* input1 = nullptr;
  const T* input2 = nullptr;
  T* output = nullptr;
};

template <class V, KernelId Id, class Params, class T,
          void (*F)(const Params&, const BroadcastLoops&, const T*, const T*, T*)>
constexpr void visit(V& v, BinaryCall<Id, Params, T, F>& c) {
  visit(v, c.params);
  visit(v, c.loops);
  v(c.input1);
  v(c.input2);
  v(c.output);
}

template <KernelId Id, class Params, class T,
          void (*F)(const Params&, const BroadcastLoops&, const T*, const T*, T*)>
inline void run(const BinaryCall<Id, Params, T, F>& c) {
  F(c.params, c.loops, c.input1, c.input2, c.output);
}

// f(loops, input1, input2, output): MAXIMUM, MINIMUM.
template <KernelId Id, class T, void (*F)(const BroadcastLoops&, const T*, const T*, T*)>
struct BroadcastCall {
  static constexpr KernelId kId = Id;
  BroadcastLoops loops;
  const T* input1 = nullptr;
  const T* input2 = nullptr;
  T* output = nullptr;
};

template <class V, KernelId Id, class T, void (*F)(const BroadcastLoops&, const T*, const T*, T*)>
constexpr void visit(V& v, BroadcastCall<Id, T, F>& c) {
  visit(v, c.loops);
  v(c.input1);
  v(c.input2);
  v(c.output);
}

template <KernelId Id, class T, void (*F)(const BroadcastLoops&, const T*, const T*, T*)>
inline void run(const BroadcastCall<Id, T, F>& c) {
  F(c.loops, c.input1, c.input2, c.output);
}

// f(params, input, pad_value, output): PAD, PADV2.
template <KernelId Id, class T, void (*F)(const PadParams&, const T*, T, T*)>
struct PadCall {
  static constexpr KernelId kId = Id;
  PadParams params;
  const T* input = nullptr;
  T pad_value = T(0);
  T* output = nullptr;
};

template <class V, KernelId Id, class T, void (*F)(const PadParams&, const T*, T, T*)>
constexpr void visit(V& v, PadCall<Id, T, F>& c) {
  visit(v, c.params);
  v(c.input);
  v(c.pad_value);
  v(c.output);
}

template <KernelId Id, class T, void (*F)(const PadParams&, const T*, T, T*)>
inline void run(const PadCall<Id, T, F>& c) {
  F(c.params, c.input, c.pad_value, c.output);
}

// f(params, input, acc, output): the integer AVERAGE_POOL_2Ds.
template <KernelId Id, class T, void (*F)(const PoolParams&, const T*, int32_t*, T*)>
struct AveragePoolCall {
  static constexpr KernelId kId = Id;
  PoolParams params;
  const T* input = nullptr;
  int32_t* acc = nullptr;  // scratch, params.geo.in_c values
  T* output = nullptr;
};

template <class V, KernelId Id, class T, void (*F)(const PoolParams&, const T*, int32_t*, T*)>
constexpr void visit(V& v, AveragePoolCall<Id, T, F>& c) {
  visit(v, c.params);
  v(c.input);
  v(c.acc);
  v(c.output);
}

template <KernelId Id, class T, void (*F)(const PoolParams&, const T*, int32_t*, T*)>
inline void run(const AveragePoolCall<Id, T, F>& c) {
  F(c.params, c.input, c.acc, c.output);
}

// f(params, input, sums, output): the integer MEANs.
template <KernelId Id, class T, void (*F)(const MeanParams&, const T*, int32_t*, T*)>
struct MeanCall {
  static constexpr KernelId kId = Id;
  MeanParams params;
  const T* input = nullptr;
  int32_t* sums = nullptr;  // scratch, params.output_count values
  T* output = nullptr;
};

template <class V, KernelId Id, class T, void (*F)(const MeanParams&, const T*, int32_t*, T*)>
constexpr void visit(V& v, MeanCall<Id, T, F>& c) {
  visit(v, c.params);
  v(c.input);
  v(c.sums);
  v(c.output);
}

template <KernelId Id, class T, void (*F)(const MeanParams&, const T*, int32_t*, T*)>
inline void run(const MeanCall<Id, T, F>& c) {
  F(c.params, c.input, c.sums, c.output);
}

// What a quantized SOFTMAX reports, written to memory the call points at.
struct SoftmaxResult {
  SoftmaxStatus status = SoftmaxStatus::kOk;
  int32_t failed_row = 0;  // with kSumOfExpsOverflow
};

// f(params, input, output, &failed_row) -> status: the int8-input SOFTMAXes.
template <KernelId Id, class Out,
          SoftmaxStatus (*F)(const SoftmaxInt8Params&, const int8_t*, Out*, int32_t*)>
struct SoftmaxQuantizedCall {
  static constexpr KernelId kId = Id;
  SoftmaxInt8Params params;
  const int8_t* input = nullptr;
  Out* output = nullptr;
  SoftmaxResult* result = nullptr;
};

template <class V, KernelId Id, class Out,
          SoftmaxStatus (*F)(const SoftmaxInt8Params&, const int8_t*, Out*, int32_t*)>
constexpr void visit(V& v, SoftmaxQuantizedCall<Id, Out, F>& c) {
  visit(v, c.params);
  v(c.input);
  v(c.output);
  v(c.result);
}

template <KernelId Id, class Out,
          SoftmaxStatus (*F)(const SoftmaxInt8Params&, const int8_t*, Out*, int32_t*)>
inline void run(const SoftmaxQuantizedCall<Id, Out, F>& c) {
  c.result->status = F(c.params, c.input, c.output, &c.result->failed_row);
}

// f(params, input, weights_feature, weights_time, bias, state, output, scratch...): SVDF.
template <KernelId Id, class State,
          void (*F)(const SvdfParams&, const int8_t*, const int8_t*, const State*, const int32_t*,
                    State*, int8_t*, int32_t*, int32_t*)>
struct SvdfCall {
  static constexpr KernelId kId = Id;
  SvdfParams params;
  const int8_t* input = nullptr;
  const int8_t* weights_feature = nullptr;
  const State* weights_time = nullptr;
  const int32_t* bias = nullptr;  // may be null
  State* state = nullptr;
  int8_t* output = nullptr;
  int32_t* filter_scratch = nullptr;
  int32_t* unit_scratch = nullptr;
};

template <class V, KernelId Id, class State,
          void (*F)(const SvdfParams&, const int8_t*, const int8_t*, const State*, const int32_t*,
                    State*, int8_t*, int32_t*, int32_t*)>
constexpr void visit(V& v, SvdfCall<Id, State, F>& c) {
  visit(v, c.params);
  v(c.input);
  v(c.weights_feature);
  v(c.weights_time);
  v(c.bias);
  v(c.state);
  v(c.output);
  v(c.filter_scratch);
  v(c.unit_scratch);
}

template <KernelId Id, class State,
          void (*F)(const SvdfParams&, const int8_t*, const int8_t*, const State*, const int32_t*,
                    State*, int8_t*, int32_t*, int32_t*)>
inline void run(const SvdfCall<Id, State, F>& c) {
  F(c.params, c.input, c.weights_feature, c.weights_time, c.bias, c.state, c.output,
    c.filter_scratch, c.unit_scratch);
}

// f(params, buffers): UNIDIRECTIONAL_SEQUENCE_LSTM.
template <KernelId Id, class Params, class Buffers, void (*F)(const Params&, const Buffers&)>
struct LstmCall {
  static constexpr KernelId kId = Id;
  Params params;
  Buffers buffers;
};

template <class V, KernelId Id, class Params, class Buffers,
          void (*F)(const Params&, const Buffers&)>
constexpr void visit(V& v, LstmCall<Id, Params, Buffers, F>& c) {
  visit(v, c.params);
  visit(v, c.buffers);
}

template <KernelId Id, class Params, class Buffers, void (*F)(const Params&, const Buffers&)>
inline void run(const LstmCall<Id, Params, Buffers, F>& c) {
  F(c.params, c.buffers);
}

}  // namespace hilsim::kernels::abi
