#pragma once
// The optimized library's kernel calls (hilsim/kernels/abi): one Call type per optimized kernel
// variant, with its visit() and run(), and OptimizedCalls, the list that the optimized firmware
// images dispatch beside the reference kernels' AllCalls. The prepared data a call points at (the
// folded biases, the im2col columns) must lie in memory the target can address: the persistent
// pool and the tensor arena. Freestanding.

#include <cstdint>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/kernels/abi/dispatch.h"
#include "hilsim/kernels/optimized/conv.h"
#include "hilsim/kernels/optimized/depthwise_conv.h"
#include "hilsim/kernels/optimized/elementwise.h"
#include "hilsim/kernels/optimized/fully_connected.h"
#include "hilsim/kernels/optimized/lstm.h"
#include "hilsim/kernels/optimized/pooling.h"
#include "hilsim/kernels/optimized/softmax.h"

namespace hilsim::kernels::abi {

struct OptFullyConnectedInt8Call {
  static constexpr KernelId kId = KernelId::kOptFullyConnectedInt8;
  FullyConnectedInt8Params params;
  const int8_t* input = nullptr;
  const int8_t* filter = nullptr;
  const int32_t* folded_bias = nullptr;  // opt::fullyConnectedInt8FoldBias, n values
  int8_t* output = nullptr;
};

template <class V>
constexpr void visit(V& v, OptFullyConnectedInt8Call& c) {
  visit(v, c.params);
  v(c.input);
  v(c.filter);
  v(c.folded_bias);
  v(c.output);
}

inline void run(const OptFullyConnectedInt8Call& c) {
  opt::fullyConnectedInt8(c.params, c.input, c.filter, c.folded_bias, c.output);
}

struct OptConvInt8PointwiseCall {
  static constexpr KernelId kId = KernelId::kOptConvInt8Pointwise;
  ConvParams params;
  const int8_t* input = nullptr;
  const int8_t* filter = nullptr;
  const int32_t* folded_bias = nullptr;  // opt::convInt8PointwiseFoldBias, out_c values
  int8_t* output = nullptr;
};

template <class V>
constexpr void visit(V& v, OptConvInt8PointwiseCall& c) {
  visit(v, c.params);
  v(c.input);
  v(c.filter);
  v(c.folded_bias);
  v(c.output);
}

inline void run(const OptConvInt8PointwiseCall& c) {
  opt::convInt8Pointwise(c.params, c.input, c.filter, c.folded_bias, c.output);
}

struct OptConvInt8Im2colCall {
  static constexpr KernelId kId = KernelId::kOptConvInt8Im2col;
  ConvParams params;
  const int8_t* input = nullptr;
  const int8_t* filter = nullptr;
  int16_t* scratch = nullptr;  // opt::convInt8Im2colScratchElements values, 4-byte aligned
  int8_t* output = nullptr;
};

template <class V>
constexpr void visit(V& v, OptConvInt8Im2colCall& c) {
  visit(v, c.params);
  v(c.input);
  v(c.filter);
  v(c.scratch);
  v(c.output);
}

inline void run(const OptConvInt8Im2colCall& c) {
  opt::convInt8Im2col(c.params, c.input, c.filter, c.scratch, c.output);
}

struct OptDepthwiseConvInt8Call {
  static constexpr KernelId kId = KernelId::kOptDepthwiseConvInt8;
  DepthwiseConvParams params;
  const int8_t* input = nullptr;
  const int8_t* filter = nullptr;
  int8_t* output = nullptr;
};

template <class V>
constexpr void visit(V& v, OptDepthwiseConvInt8Call& c) {
  visit(v, c.params);
  v(c.input);
  v(c.filter);
  v(c.output);
}

// The 3x3 path where it applies, else the general one.
inline void run(const OptDepthwiseConvInt8Call& c) {
  if (opt::depthwiseConvInt8Is3x3(c.params))
    opt::depthwiseConvInt8_3x3(c.params, c.input, c.filter, c.output);
  else
    opt::depthwiseConvInt8(c.params, c.input, c.filter, c.output);
}

using OptMaxPoolInt8Call =
    UnaryCall<KernelId::kOptMaxPoolInt8, PoolParams, int8_t, int8_t, opt::maxPoolInt8>;
using OptAveragePoolInt8Call =
    AveragePoolCall<KernelId::kOptAveragePoolInt8, int8_t, opt::averagePoolInt8>;

using OptAddInt8Call = BinaryCall<KernelId::kOptAddInt8, QuantizedAddParams, int8_t, opt::addInt8>;
using OptMulInt8Call = BinaryCall<KernelId::kOptMulInt8, QuantizedMulParams, int8_t, opt::mulInt8>;

// SOFTMAX with int8 input: the reference call's fields plus the exp table
// (opt::softmaxInt8ExpTable, opt::kSoftmaxExpTableEntries values).
template <KernelId Id, class Out,
          SoftmaxStatus (*F)(const SoftmaxInt8Params&, const int32_t*, const int8_t*, Out*,
                             int32_t*)>
struct OptSoftmaxInt8Call {
  static constexpr KernelId kId = Id;
  SoftmaxInt8Params params;
  const int32_t* exp_table = nullptr;
  const int8_t* input = nullptr;
  Out* output = nullptr;
  SoftmaxResult* result = nullptr;
};

template <class V, KernelId Id, class Out,
          SoftmaxStatus (*F)(const SoftmaxInt8Params&, const int32_t*, const int8_t*, Out*,
                             int32_t*)>
constexpr void visit(V& v, OptSoftmaxInt8Call<Id, Out, F>& c) {
  visit(v, c.params);
  v(c.exp_table);
  v(c.input);
  v(c.output);
  v(c.result);
}

template <KernelId Id, class Out,
          SoftmaxStatus (*F)(const SoftmaxInt8Params&, const int32_t*, const int8_t*, Out*,
                             int32_t*)>
inline void run(const OptSoftmaxInt8Call<Id, Out, F>& c) {
  c.result->status = F(c.params, c.exp_table, c.input, c.output, &c.result->failed_row);
}

using OptSoftmaxInt8ToInt8Call =
    OptSoftmaxInt8Call<KernelId::kOptSoftmaxInt8ToInt8, int8_t, opt::softmaxInt8ToInt8>;
using OptSoftmaxInt8ToInt16Call =
    OptSoftmaxInt8Call<KernelId::kOptSoftmaxInt8ToInt16, int16_t, opt::softmaxInt8ToInt16>;

// UNIDIRECTIONAL_SEQUENCE_LSTM, int8: the reference call's parameters and buffers (the gates'
// biases already hold the folded zero points), the optimized gate products.
using OptLstmInt8Call =
    LstmCall<KernelId::kOptLstmInt8, LstmInt8Params, LstmInt8Buffers, opt::lstmInt8>;

using OptimizedCalls =
    CallList<OptFullyConnectedInt8Call, OptConvInt8PointwiseCall, OptConvInt8Im2colCall,
             OptDepthwiseConvInt8Call, OptMaxPoolInt8Call, OptAveragePoolInt8Call, OptAddInt8Call,
             OptMulInt8Call, OptSoftmaxInt8ToInt8Call, OptSoftmaxInt8ToInt16Call, OptLstmInt8Call>;

static_assert(largestCallWords(OptimizedCalls{}) <= kMaxCallWords, "raise kMaxCallWords");

// The optimized calls take the ids from kOptFullyConnectedInt8 on, in order, once each.
constexpr uint32_t kFirstOptimizedId = static_cast<uint32_t>(KernelId::kOptFullyConnectedInt8);
template <class... Calls>
constexpr bool optimizedIdsInOrder(CallList<Calls...>) {
  uint32_t expected = kFirstOptimizedId;
  bool ok = true;
  ((ok = ok && static_cast<uint32_t>(Calls::kId) == expected++), ...);
  return ok;
}
static_assert(optimizedIdsInOrder(OptimizedCalls{}),
              "OptimizedCalls must list the ids from kOptFullyConnectedInt8 in order, once each");
constexpr uint32_t kOptimizedCallCount = countCalls(OptimizedCalls{});

// The payload words of every optimized call, indexed by KernelId - kFirstOptimizedId. The
// optimized images export theirs (hs_opt_call_payload_words) beside hs_call_payload_words.
struct OptimizedCallWordTable {
  uint32_t words[kOptimizedCallCount];
};

template <class... Calls>
constexpr OptimizedCallWordTable optimizedCallWordTable(CallList<Calls...>) {
  OptimizedCallWordTable table{};
  ((table.words[static_cast<uint32_t>(Calls::kId) - kFirstOptimizedId] = callWords<Calls>()), ...);
  return table;
}

// Runs a packed call of the reference or the optimized library (dispatch.h).
template <class PointerOf>
CallStatus dispatchOptimized(uint32_t kernel_id, const uint32_t* words, PointerOf pointer_of) {
  if (kernel_id >= static_cast<uint32_t>(KernelId::kOptFullyConnectedInt8))
    return dispatch(OptimizedCalls{}, kernel_id, words, pointer_of);
  return dispatch(AllCalls{}, kernel_id, words, pointer_of);
}

}  // namespace hilsim::kernels::abi
