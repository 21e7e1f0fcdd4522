#include "hilsim/rt/interpreter.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "hilsim/errors.h"
#include "hilsim/rt/kernels/conv_layer.h"
#include "hilsim/schema/flatbuffer_vectors.h"

namespace hilsim::rt {
namespace {

// Why a layer no accelerated kernel claimed ran on the CPU: the operator has none, or the run
// chose the reference kernels (mode ref).
std::string referenceReason(tflite::BuiltinOperator op) {
  using tflite::BuiltinOperator;
  if (op == BuiltinOperator::FULLY_CONNECTED || op == BuiltinOperator::CONV_2D ||
      op == BuiltinOperator::DEPTHWISE_CONV_2D)
    return "mode ref: reference kernel";
  return std::string("no accelerated kernel for ") + opName(op);
}

QuantParams readQuant(const tflite::Tensor& t) {
  QuantParams q;
  if (const tflite::QuantizationParameters* p = t.quantization()) {
    if (p->scale()) q.scale.assign(p->scale()->begin(), p->scale()->end());
    q.zero_point = schema::copyScalars(p->zero_point());
    q.quantized_dimension = p->quantized_dimension();
  }
  return q;
}

std::string nodeLabel(const Node& node) {
  return "operator " + std::to_string(node.index) + " (" + opName(node.op) + ")";
}

// Re-throws the current exception with the model and node named, keeping its category.
[[noreturn]] void rethrowForNode(const Model& model, const Node& node) {
  const std::string prefix = "model '" + model.label() + "': " + nodeLabel(node) + ": ";
  try {
    throw;
  } catch (const SimulationError& e) {
    throw SimulationError(prefix + e.what());
  } catch (const InputError& e) {
    throw InputError(prefix + e.what());
  } catch (const ConfigError& e) {
    throw ConfigError(prefix + e.what());
  } catch (const UsageError& e) {
    throw ModelError(prefix + e.what());
  } catch (const std::bad_alloc&) {
    throw ModelError(prefix + "out of memory");
  } catch (const std::exception& e) {
    throw ModelError(prefix + e.what());
  }
}

// One line naming every operator without a kernel: a single one as "operator N (LABEL):
// unsupported operator LABEL", several grouped by label with their operator indices.
ModelError unsupportedOperatorsError(const Model& model,
                                     const std::vector<std::pair<int, std::string>>& missing) {
  const std::string prefix = "model '" + model.label() + "': ";
  if (missing.size() == 1) {
    const auto& [index, label] = missing.front();
    return ModelError(prefix + "operator " + std::to_string(index) + " (" + label +
                      "): unsupported operator " + label + " (hilsim has no kernel for it)");
  }
  std::vector<std::pair<std::string, std::vector<int>>> by_label;
  for (const auto& entry : missing) {
    const std::string& label = entry.second;
    auto it = std::find_if(by_label.begin(), by_label.end(),
                           [&label](const auto& group) { return group.first == label; });
    if (it == by_label.end()) it = by_label.insert(by_label.end(), {label, {}});
    it->second.push_back(entry.first);
  }
  std::string list;
  for (const auto& [label, indices] : by_label) {
    if (!list.empty()) list += ", ";
    list += label + (indices.size() == 1 ? " (operator " : " (operators ");
    for (size_t i = 0; i < indices.size(); ++i)
      list += (i ? ", " : "") + std::to_string(indices[i]);
    list += ")";
  }
  return ModelError(prefix + std::to_string(missing.size()) + " unsupported operators of " +
                    std::to_string(by_label.size()) +
                    " kinds (hilsim has no kernel for them): " + list);
}

ModelError arenaTooLarge(const Model& model, uint64_t max_arena_bytes, uint64_t bytes,
                         const std::string& what) {
  return ModelError("model '" + model.label() + "': " + what + " needs " + std::to_string(bytes) +
                    " bytes, more than the " + std::to_string(max_arena_bytes) +
                    "-byte tensor arena hilsim allows");
}

}  // namespace

class Interpreter::NodeContext final : public PrepareContext, public InvokeContext {
 public:
  NodeContext(Interpreter& interp, size_t node) : interp_(interp), node_(node) {}

  const Model& model() const override { return interp_.model_; }
  int requestScratch(size_t bytes) override {
    auto& sizes = interp_.scratch_sizes_[node_];
    sizes.push_back(bytes);
    return static_cast<int>(sizes.size() - 1);
  }
  void* allocatePersistent(size_t bytes, size_t alignment) override {
    return interp_.persistent_.allocate(bytes, alignment);
  }
  timing::KernelLibrary kernelLibrary() const override { return interp_.options_.kernels; }
  uint8_t* scratch(int handle) override {
    return interp_.arena_.data() + interp_.scratch_offsets_[node_].at(static_cast<size_t>(handle));
  }
  HostClock& clock() override { return *interp_.clock_; }
  LayerRecord& record() override { return record_; }
  void chargeReference() override {
    if (!ran_on_target_) interp_.clock_->advance(record_.ref_cycles, CpuActivity::kKernel);
    charged_ = true;
  }
  void priceReference(const OpWork& work) override {
    record_.ref_cycles = interp_.priceNode(node_, work);
    record_.zero_operand_macs = work.zero_operand_macs;
  }
  CpuTarget* cpuTarget() override { return interp_.options_.cpu_target; }
  void ranOnTarget(uint64_t cycles) override {
    ran_on_target_ = true;
    target_cycles_ += cycles;
  }
  bool charged() const { return charged_; }
  bool ranOnTarget() const { return ran_on_target_; }
  uint64_t targetCycles() const { return target_cycles_; }

 private:
  Interpreter& interp_;
  size_t node_;
  LayerRecord record_;
  bool charged_ = false;
  bool ran_on_target_ = false;  // the target charged the cycles it executed
  uint64_t target_cycles_ = 0;
};

Interpreter::Interpreter(Model& model, const OpResolver& resolver, InterpreterOptions options)
    : model_(model),
      resolver_(resolver),
      options_(std::move(options)),
      clock_(options_.clock ? options_.clock : &own_clock_) {
  const tflite::SubGraph& sg = model_.mainSubgraph();
  const size_t num_tensors = sg.tensors() ? sg.tensors()->size() : 0;
  tensors_.resize(num_tensors);
  for (size_t i = 0; i < num_tensors; ++i) {
    const tflite::Tensor& fb = *sg.tensors()->Get(static_cast<flatbuffers::uoffset_t>(i));
    Tensor& t = tensors_[i];
    t.index = static_cast<int>(i);
    t.name = fb.name() ? fb.name()->str() : std::string();
    t.type = fb.type();
    if (fb.shape()) t.shape.assign(fb.shape()->begin(), fb.shape()->end());
    t.quant = readQuant(fb);
    t.is_variable = fb.is_variable();
    t.bytes = static_cast<size_t>(t.elements()) * typeSize(t.type);
    if (model_.bufferData(fb.buffer()).size > 0) {
      t.is_constant = true;
      t.data = model_.mutableBufferData(fb.buffer());
    }
  }
  const size_t num_ops = sg.operators() ? sg.operators()->size() : 0;
  nodes_.resize(num_ops);
  for (size_t o = 0; o < num_ops; ++o) {
    const tflite::Operator& op = *sg.operators()->Get(static_cast<flatbuffers::uoffset_t>(o));
    Node& node = nodes_[o];
    node.index = static_cast<int>(o);
    node.op = model_.opCode(op);
    node.op_fb = &op;
    if (op.inputs())
      for (int32_t index : *op.inputs())
        node.inputs.push_back(index < 0 ? nullptr : &tensors_[static_cast<size_t>(index)]);
    if (op.outputs())
      for (int32_t index : *op.outputs())
        node.outputs.push_back(&tensors_[static_cast<size_t>(index)]);
  }
  if (sg.inputs())
    for (int32_t index : *sg.inputs()) inputs_.push_back(&tensors_[static_cast<size_t>(index)]);
  if (sg.outputs())
    for (int32_t index : *sg.outputs()) outputs_.push_back(&tensors_[static_cast<size_t>(index)]);
}

Interpreter::~Interpreter() = default;

// First and last node that uses each tensor needing arena memory (-1: none). Model inputs are
// used from node 0, model outputs and variable tensors until past the last node.
struct Interpreter::Lifetimes {
  std::vector<int> first_use, last_use;

  explicit Lifetimes(size_t num_tensors) : first_use(num_tensors, -1), last_use(num_tensors, -1) {}
  void touch(const Tensor* t, int when) {
    if (!t || t->is_constant) return;
    const size_t i = static_cast<size_t>(t->index);
    if (first_use[i] < 0 || when < first_use[i]) first_use[i] = when;
    last_use[i] = std::max(last_use[i], when);
  }
};

void Interpreter::allocate() {
  if (allocated_) return;
  if (inputs_.empty()) throw ModelError("model '" + model_.label() + "' has no input tensor");
  if (outputs_.empty()) throw ModelError("model '" + model_.label() + "' has no output tensor");
  const Lifetimes lifetimes = tensorLifetimes();
  prepareNodes();
  planMemory(lifetimes);
  initVariableTensors();
  mapIntoTarget();
  allocated_ = true;
}

Interpreter::Lifetimes Interpreter::tensorLifetimes() const {
  const int last = static_cast<int>(nodes_.size());
  Lifetimes lifetimes(tensors_.size());
  for (Tensor* t : inputs_) lifetimes.touch(t, 0);
  std::vector<bool> has_data(tensors_.size(), false);
  for (Tensor* t : inputs_) has_data[static_cast<size_t>(t->index)] = true;
  for (const Tensor& t : tensors_)
    if (t.is_constant || t.is_variable) has_data[static_cast<size_t>(t.index)] = true;
  for (size_t n = 0; n < nodes_.size(); ++n) traceNode(n, has_data, lifetimes);
  for (Tensor* t : outputs_) {
    if (!has_data[static_cast<size_t>(t->index)])
      throw ModelError("model '" + model_.label() + "': output tensor " + std::to_string(t->index) +
                       " ('" + t->name + "') is never written");
    lifetimes.touch(t, last);
  }
  for (const Tensor& t : tensors_)
    if (t.is_variable && !t.is_constant) {
      lifetimes.touch(&t, 0);
      lifetimes.touch(&t, last);
    }
  for (size_t i = 0; i < tensors_.size(); ++i)
    if (lifetimes.first_use[i] >= 0 && typeSize(tensors_[i].type) == 0)
      throw ModelError("model '" + model_.label() + "': tensor " + std::to_string(i) + " ('" +
                       tensors_[i].name + "') has unsupported type " + typeName(tensors_[i].type));
  return lifetimes;
}

void Interpreter::traceNode(size_t n, std::vector<bool>& has_data, Lifetimes& lifetimes) const {
  const Node& node = nodes_[n];
  for (const Tensor* t : node.inputs) {
    if (!t) continue;
    if (!has_data[static_cast<size_t>(t->index)])
      throw ModelError("model '" + model_.label() + "': " + nodeLabel(node) + ": input tensor " +
                       std::to_string(t->index) + " ('" + t->name +
                       "') has no data: it is not a model input, not produced by an "
                       "earlier operator, and its buffer is empty");
    lifetimes.touch(t, static_cast<int>(n));
  }
  for (const Tensor* t : node.outputs) {
    if (t->is_constant)
      throw ModelError("model '" + model_.label() + "': " + nodeLabel(node) + ": output tensor " +
                       std::to_string(t->index) + " ('" + t->name + "') is a constant");
    has_data[static_cast<size_t>(t->index)] = true;
    lifetimes.touch(t, static_cast<int>(n));
  }
}

void Interpreter::prepareNodes() {
  const size_t num_nodes = nodes_.size();
  kernels_.clear();
  work_.assign(num_nodes, OpWork{});
  ref_cycles_.assign(num_nodes, 0);
  first_call_cycles_.assign(num_nodes, 0);
  conv_shapes_.assign(num_nodes, std::nullopt);
  scratch_sizes_.assign(num_nodes, {});
  scratch_offsets_.assign(num_nodes, {});
  std::vector<std::pair<int, std::string>> missing;
  for (const Node& node : nodes_)
    if (node.op == tflite::BuiltinOperator::CUSTOM || !resolver_.find(node.op))
      missing.emplace_back(node.index, model_.operatorLabel(*node.op_fb));
  if (!missing.empty()) throw unsupportedOperatorsError(model_, missing);
  for (size_t n = 0; n < num_nodes; ++n) prepareNode(n);
}

void Interpreter::prepareNode(size_t n) {
  Node& node = nodes_[n];
  const KernelFactory* factory =
      node.op == tflite::BuiltinOperator::CUSTOM ? nullptr : resolver_.find(node.op);
  if (!factory)
    throw unsupportedOperatorsError(model_, {{node.index, model_.operatorLabel(*node.op_fb)}});
  try {
    kernels_.push_back((*factory)());
    NodeContext ctx(*this, n);
    work_[n] = kernels_.back()->prepare(ctx, node);
    if (const std::optional<ConvLayer> conv = describeConvLayer(node))
      conv_shapes_[n] = conv->shape;
  } catch (...) {
    rethrowForNode(model_, node);
  }
  // The first node of an operator run by the same kernel (a float32 FULLY_CONNECTED has its own).
  // A later one pays for the code paths of its kernel none of them ran (int8 FULLY_CONNECTED).
  const auto coefficient = timing::firstCallCoefficient(node.op, work_[n]);
  bool first = true;
  uint8_t earlier_paths = 0;
  for (size_t e = 0; e < n; ++e)
    if (nodes_[e].op == node.op && timing::firstCallCoefficient(node.op, work_[e]) == coefficient) {
      first = false;
      earlier_paths |= work_[e].fc_paths;
    }
  first_call_cycles_[n] = first ? options_.cost_model.firstCallCycles(node.op, work_[n])
                                : options_.cost_model.newPathCycles(work_[n], earlier_paths);
  ref_cycles_[n] = priceNode(n, work_[n]);
}

uint64_t Interpreter::priceNode(size_t n, const OpWork& work) const {
  return options_.cost_model.cycles(nodes_[n].op, work) + first_call_cycles_[n];
}

void Interpreter::planMemory(const Lifetimes& lifetimes) {
  std::vector<Tensor*> arena_tensors;
  const std::vector<ArenaRequest> requests = arenaRequests(lifetimes, arena_tensors);
  plan_ = planArena(requests);
  if (plan_.total_bytes > options_.max_arena_bytes)
    throw arenaTooLarge(model_, options_.max_arena_bytes, plan_.total_bytes, "the tensor arena");
  arena_ = PageMemory(plan_.total_bytes);
  for (size_t r = 0; r < arena_tensors.size(); ++r)
    arena_tensors[r]->data = arena_.data() + plan_.offsets[r];
  size_t r = arena_tensors.size();
  for (size_t n = 0; n < nodes_.size(); ++n)
    for (size_t s = 0; s < scratch_sizes_[n].size(); ++s)
      scratch_offsets_[n].push_back(plan_.offsets[r++]);
}

std::vector<ArenaRequest> Interpreter::arenaRequests(const Lifetimes& lifetimes,
                                                     std::vector<Tensor*>& arena_tensors) {
  const uint64_t max_bytes = options_.max_arena_bytes;
  std::vector<ArenaRequest> requests;
  for (size_t i = 0; i < tensors_.size(); ++i) {
    if (lifetimes.first_use[i] < 0) continue;
    if (tensors_[i].bytes > max_bytes)
      throw arenaTooLarge(model_, max_bytes, tensors_[i].bytes,
                          "tensor " + std::to_string(i) + " ('" + tensors_[i].name + "')");
    requests.push_back({tensors_[i].bytes, lifetimes.first_use[i], lifetimes.last_use[i]});
    arena_tensors.push_back(&tensors_[i]);
  }
  for (size_t n = 0; n < nodes_.size(); ++n)
    for (size_t bytes : scratch_sizes_[n]) {
      if (bytes > max_bytes)
        throw arenaTooLarge(model_, max_bytes, bytes,
                            "a scratch buffer of operator " + std::to_string(n));
      requests.push_back({bytes, static_cast<int>(n), static_cast<int>(n)});
    }
  return requests;
}

// Variable tensors start at their zero point, as in TensorFlow Lite Micro.
void Interpreter::initVariableTensors() {
  for (Tensor& t : tensors_)
    if (t.is_variable && !t.is_constant && t.data) {
      const int fill = t.type == TensorType::INT8 ? t.quant.zero_point0() : 0;
      std::memset(t.data, fill, t.bytes);
    }
}

void Interpreter::mapIntoTarget() {
  CpuTarget* target = options_.cpu_target;
  if (!target) return;
  target->mapArena(arena_.data(), arena_.bytes());
  for (const PageMemory& block : persistent_.blocks())
    target->mapPersistent(block.data(), block.bytes());
  target->mapModel(model_.bytes().data(), model_.bytes().size());
}

ArenaFootprint Interpreter::arenaFootprint() const {
  // Sizes of TensorFlow Lite Micro's structures with 4-byte pointers, int and enums:
  // TfLiteEvalTensor {data, dims, type}; TfLiteNode {inputs, outputs, intermediates, user_data,
  // builtin_data, custom_initial_data, custom_initial_data_size} plus the registration pointer;
  // TfLiteTensor {type, data, dims, params {scale, zero_point}, allocation_type, bytes,
  // quantization {type, params}}; TfLiteAffineQuantization {scale, zero_point,
  // quantized_dimension} with a TfLiteIntArray of zero points (the scales stay in the model).
  constexpr uint64_t kEvalTensorBytes = 12;
  constexpr uint64_t kNodeAndRegistrationBytes = 32;
  constexpr uint64_t kPersistentTensorBytes = 36;
  constexpr uint64_t kAffineQuantizationBytes = 12;
  constexpr uint64_t kIntArrayHeaderBytes = 4;
  ArenaFootprint f;
  f.activation_bytes = plan_.total_bytes;
  f.persistent_bytes = persistent_.usedBytes();
  f.runtime_bytes = kEvalTensorBytes * tensors_.size() + kNodeAndRegistrationBytes * nodes_.size() +
                    kPersistentTensorBytes * (inputs_.size() + outputs_.size());
  for (const std::vector<Tensor*>* io : {&inputs_, &outputs_})
    for (const Tensor* t : *io)
      if (!t->quant.empty())
        f.quantization_bytes +=
            kAffineQuantizationBytes + kIntArrayHeaderBytes + 4 * t->quant.zero_point.size();
  return f;
}

std::optional<GemmShape> Interpreter::gemm(size_t node) const {
  if (node >= kernels_.size()) return std::nullopt;
  return kernels_[node]->gemm();
}

void Interpreter::invoke() {
  if (!allocated_) allocate();
  for (size_t n = 0; n < nodes_.size(); ++n) {
    Node& node = nodes_[n];
    NodeContext ctx(*this, n);
    LayerRecord& rec = ctx.record();
    rec.invocation = invocations_;
    rec.index = node.index;
    rec.op = node.op;
    rec.gemm = kernels_[n]->gemm();
    rec.conv = conv_shapes_[n];
    if (options_.profiler) {  // names and shapes are only for whoever reads the records
      rec.name = node.outputs.empty() ? std::string() : node.outputs[0]->name;
      for (const Tensor* t : node.inputs)
        if (t && !t->is_constant) rec.input_shapes.push_back(t->shape);
      for (const Tensor* t : node.outputs) rec.output_shapes.push_back(t->shape);
    }
    rec.macs = work_[n].macs;
    rec.ref_cycles = ref_cycles_[n];
    rec.path = ExecPath::kRef;
    if (options_.profiler) options_.profiler->beginLayer(invocations_, node.index);
    rec.start_cycle = clock_->now();
    const std::optional<iss::FlashStats> flash_before =
        options_.cpu_target ? options_.cpu_target->flashCounts() : std::nullopt;
    try {
      kernels_[n]->invoke(ctx, node);
    } catch (...) {
      rethrowForNode(model_, node);
    }
    if (rec.path == ExecPath::kRef && !ctx.charged()) ctx.chargeReference();
    if (ctx.ranOnTarget()) {
      rec.ref_cycles = ctx.targetCycles();
      rec.ref_cycles_source = RefCyclesSource::kExecuted;
    }
    if (flash_before) {
      const iss::FlashStats used = *options_.cpu_target->flashCounts() - *flash_before;
      if (ctx.ranOnTarget() || used.line_reads + used.icache_hits + used.dcache_hits != 0)
        rec.flash = used;
    }
    if (rec.reason.empty()) rec.reason = referenceReason(rec.op);
    rec.cycles = rec.path_cycles.value_or(clock_->now() - rec.start_cycle);
    if (options_.profiler) options_.profiler->endLayer(rec);
  }
  ++invocations_;
}

}  // namespace hilsim::rt
