#pragma once
// Runs the first subgraph of a verified model: prepares every node, plans the arena, then invokes
// as often as asked with persistent state (variable tensors keep their values across invokes).

#include <cstdint>
#include <memory>
#include <vector>

#include "hilsim/rt/arena.h"
#include "hilsim/rt/cpu_target.h"
#include "hilsim/rt/host_clock.h"
#include "hilsim/rt/kernel.h"
#include "hilsim/rt/model.h"
#include "hilsim/rt/op_resolver.h"
#include "hilsim/rt/page_memory.h"
#include "hilsim/rt/persistent_pool.h"
#include "hilsim/rt/profiler.h"
#include "hilsim/timing/cpu_cost_model.h"

namespace hilsim::rt {

struct InterpreterOptions {
  HostClock* clock = nullptr;    // defaults to an internal CountingClock
  Profiler* profiler = nullptr;  // optional
  CpuCostModel cost_model;       // reference-kernel cycles
  // Largest tensor arena the interpreter allocates: far above any microcontroller model, it
  // turns a corrupt shape into an error instead of an attempt to allocate gigabytes.
  uint64_t max_arena_bytes = uint64_t{1} << 30;
  // Where the reference kernels' arithmetic runs (nullptr: on the host). Must outlive the
  // interpreter; allocate() maps the arena, persistent memory and the model's bytes into it.
  CpuTarget* cpu_target = nullptr;
  // The kernel library of the CPU layers (PrepareContext::kernelLibrary). A CpuTarget must run an
  // image of the same library.
  timing::KernelLibrary kernels = timing::KernelLibrary::kReference;
};

class Interpreter {
 public:
  // The model must outlive the interpreter.
  Interpreter(Model& model, const OpResolver& resolver, InterpreterOptions options = {});
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Prepares every node and plans memory. Throws ModelError naming the failing operator.
  void allocate();
  // Runs every node once.
  void invoke();

  size_t inputCount() const { return inputs_.size(); }
  size_t outputCount() const { return outputs_.size(); }
  Tensor& input(size_t i) { return *inputs_.at(i); }
  Tensor& output(size_t i) { return *outputs_.at(i); }
  const std::vector<Tensor>& tensors() const { return tensors_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  // Work of each node as computed by prepare (one entry per node).
  const std::vector<OpWork>& work() const { return work_; }
  // GEMM shape for FULLY_CONNECTED nodes.
  std::optional<GemmShape> gemm(size_t node) const;
  const ArenaPlan& arenaPlan() const { return plan_; }
  // Once allocated.
  ArenaFootprint arenaFootprint() const;
  // The tensor arena (page-aligned, whole pages) and the kernels' persistent memory, once
  // allocated.
  const PageMemory& arena() const { return arena_; }
  const PersistentPool& persistentPool() const { return persistent_; }
  uint32_t invocations() const { return invocations_; }
  HostClock& clock() { return *clock_; }
  const CpuCostModel& costModel() const { return options_.cost_model; }

 private:
  class NodeContext;
  struct Lifetimes;

  // The steps of allocate(), in order; each throws ModelError naming the model (and the node).

  // Checks that every tensor read has data and every tensor in use a supported type; finds when
  // each tensor is in use. traceNode does so for node `n`, marking the tensors it writes.
  Lifetimes tensorLifetimes() const;
  void traceNode(size_t n, std::vector<bool>& has_data, Lifetimes& lifetimes) const;
  void prepareNodes();
  void prepareNode(size_t n);
  // Node `n`'s reference cycles doing `work` as the cost model prices them, with its
  // first_call_cycles_.
  uint64_t priceNode(size_t n, const OpWork& work) const;
  // Places tensors in use and then scratch buffers (each alive during its node only).
  void planMemory(const Lifetimes& lifetimes);
  // Tensor requests (their tensors in `arena_tensors`), then scratch requests.
  std::vector<ArenaRequest> arenaRequests(const Lifetimes& lifetimes,
                                          std::vector<Tensor*>& arena_tensors);
  void initVariableTensors();
  // Hands the arena, the persistent blocks and the model's bytes to options_.cpu_target.
  void mapIntoTarget();

  Model& model_;
  const OpResolver& resolver_;
  InterpreterOptions options_;
  CountingClock own_clock_;
  HostClock* clock_;
  std::vector<Tensor> tensors_;
  std::vector<Node> nodes_;
  std::vector<std::unique_ptr<Kernel>> kernels_;
  std::vector<OpWork> work_;
  std::vector<uint64_t> ref_cycles_;
  // Per node: its kernel's first-call cost when no node before it runs the same operator, else 0.
  std::vector<uint64_t> first_call_cycles_;
  std::vector<std::optional<ConvShape>> conv_shapes_;  // convolutions, for the report
  std::vector<std::vector<size_t>> scratch_sizes_;
  std::vector<std::vector<size_t>> scratch_offsets_;
  std::vector<Tensor*> inputs_;
  std::vector<Tensor*> outputs_;
  ArenaPlan plan_;
  PageMemory arena_;
  PersistentPool persistent_;
  bool allocated_ = false;
  uint32_t invocations_ = 0;
};

}  // namespace hilsim::rt
