#pragma once
// The kernel interface, in TensorFlow Lite Micro's shape: a kernel object is created per node
// (init), validates the node and computes its OpData once (prepare), then runs (invoke).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "hilsim/rt/cpu_target.h"
#include "hilsim/rt/host_clock.h"
#include "hilsim/rt/layer_record.h"
#include "hilsim/rt/tensor.h"
#include "hilsim/timing/cpu_cost_model.h"

namespace hilsim::rt {

// The work of an operator invocation, which the CPU cost model prices.
using timing::CpuCostModel;
using timing::OpWork;

class Model;

// One operator of the subgraph with its tensors resolved.
struct Node {
  int index = -1;
  tflite::BuiltinOperator op = tflite::BuiltinOperator::ADD;
  const tflite::Operator* op_fb = nullptr;
  std::vector<Tensor*> inputs;  // nullptr where the model has an omitted input (-1)
  std::vector<Tensor*> outputs;

  // The input at `i`, or nullptr if absent or omitted.
  Tensor* input(size_t i) const { return i < inputs.size() ? inputs[i] : nullptr; }
  Tensor* output(size_t i) const { return i < outputs.size() ? outputs[i] : nullptr; }
};

class PrepareContext {
 public:
  virtual ~PrepareContext() = default;
  virtual const Model& model() const = 0;
  // Reserves `bytes` of scratch memory valid during this node's invoke; returns a handle.
  virtual int requestScratch(size_t bytes) = 0;
  // `bytes` zero-filled bytes aligned to `alignment` (a power of two, at most 4096) that stay
  // valid as long as the interpreter: for what prepare computes once and a kernel call points
  // at, so that a CpuTarget can address it (the interpreter maps this memory for it).
  virtual void* allocatePersistent(size_t bytes, size_t alignment) = 0;
  // The kernel library the CPU layers run (InterpreterOptions::kernels): with kOptimized the
  // kernels that have an optimized variant prepare and call it.
  virtual timing::KernelLibrary kernelLibrary() const { return timing::KernelLibrary::kReference; }
};

// `count` zero-initialised values of T in persistent memory (PrepareContext::allocatePersistent).
template <class T>
T* allocatePersistentArray(PrepareContext& ctx, size_t count) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  return static_cast<T*>(ctx.allocatePersistent(count * sizeof(T), alignof(T)));
}

class InvokeContext {
 public:
  virtual ~InvokeContext() = default;
  virtual uint8_t* scratch(int handle) = 0;
  virtual HostClock& clock() = 0;
  // The record of this invocation: kernels set path, reason and the accelerated breakdown.
  virtual LayerRecord& record() = 0;
  // Advances the host clock by the reference kernel's modelled cycles. The interpreter calls it
  // for every layer left on the reference path that did not call it itself. After ranOnTarget()
  // it charges nothing: the target charged the cycles it executed.
  virtual void chargeReference() = 0;
  // Prices this invocation's reference kernel from `work` counted on its data (the float32
  // FULLY_CONNECTED's zero operands), in place of prepare's work, before chargeReference.
  virtual void priceReference(const OpWork& work) = 0;
  // Where reference arithmetic runs: nullptr on the host (InterpreterOptions::cpu_target).
  virtual CpuTarget* cpuTarget() = 0;
  // Tells the interpreter this layer's arithmetic ran on the CpuTarget, which charged the host
  // clock `cycles`, so the cost model's cycles must not be charged too, and the layer's
  // reference cycles are the executed ones (rt/kernels/kernel_call.h).
  virtual void ranOnTarget(uint64_t cycles) = 0;
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  // Validates the node (types, shapes, options) and precomputes what invoke needs. Throws
  // hilsim::ModelError with a message that does not need to name the node (the caller does).
  // Returns the work of one invocation for the CPU cost model.
  virtual OpWork prepare(PrepareContext& ctx, Node& node) = 0;
  virtual void invoke(InvokeContext& ctx, Node& node) = 0;
  // GEMM view of the layer, for FULLY_CONNECTED kernels.
  virtual std::optional<GemmShape> gemm() const { return std::nullopt; }
};

}  // namespace hilsim::rt
