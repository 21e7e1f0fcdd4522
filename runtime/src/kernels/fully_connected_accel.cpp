#include "hilsim/rt/kernels/fully_connected_accel.h"

#include <algorithm>
#include <cstring>

#include "hilsim/drv/regs.h"
#include "hilsim/errors.h"
#include "hilsim/rt/kernels/fully_connected_common.h"
#include "hilsim/rt/plan/layer_image.h"
#include "hilsim/rt/plan/plan_codec.h"

namespace hilsim::rt {

AccelContext::AccelContext(drv::Driver& driver, plan::Hardware hardware,
                           timing::PlatformTiming timing, CpuCostModel cpu, OffloadMode mode)
    : driver_(driver), hardware_(hardware), timing_(timing), cpu_(std::move(cpu)), mode_(mode) {}

void AccelContext::loadMetadataPlans(const Model& model) {
  const tflite::Model& m = model.fb();
  if (!m.metadata()) return;
  for (const tflite::Metadata* md : *m.metadata()) {
    if (!md->name() || md->name()->str() != plan::kMetadataName) continue;
    const ConstBytes data = model.bufferData(md->buffer());
    for (plan::PlanEntry& e : plan::decodePlanSet(data.data, data.size))
      if (e.subgraph == 0) metadata_plans_[static_cast<int>(e.operator_index)] = std::move(e.plan);
  }
}

void AccelContext::recordFailure(const std::string& message) {
  failures_.push_back(failure_context_ ? message + "; " + failure_context_() : message);
}

const std::vector<uint8_t>* AccelContext::metadataPlan(int index) const {
  const auto it = metadata_plans_.find(index);
  return it == metadata_plans_.end() ? nullptr : &it->second;
}

void AccelContext::note(const std::string& message) {
  if (std::find(notes_.begin(), notes_.end(), message) == notes_.end()) notes_.push_back(message);
}

namespace {

std::string hardwareText(const plan::Hardware& hw) {
  return std::to_string(hw.num_cores) + " cores, " + std::to_string(hw.array_rows) + "x" +
         std::to_string(hw.array_cols) + " arrays, " + std::to_string(hw.sram_bytes) +
         " bytes of SRAM";
}

std::string cyclesText(uint64_t accel, uint64_t ref) {
  return "accel " + std::to_string(accel) + (accel < ref ? " < " : " >= ") + "ref " +
         std::to_string(ref) + " cycles";
}

class FullyConnectedAccel final : public Kernel {
 public:
  explicit FullyConnectedAccel(AccelContext& context) : ctx_(context) {}

  OpWork prepare(PrepareContext&, Node& node) override {
    params_ = prepareFullyConnected(node);
    index_ = node.index;
    const GemmShape& shape = params_.shape;
    const CpuCostModel& cpu = ctx_.cpu();
    ref_cycles_ = cpu.fullyConnectedCycles(shape.rows, shape.k, shape.n);
    break_even_ = plan::breakEvenMacs(shape, ctx_.hardware(), ctx_.timing(), cpu);

    // The plan this layer carries, if any; a corrupt one is an error.
    std::optional<plan::AnnotatedPlan> annotated;
    const auto* custom = node.op_fb->custom_options();
    if (custom && custom->size() > 0) {
      if (!plan::hasPlanIdentifier(custom->data(), custom->size()))
        throw ModelError("custom_options (" + std::to_string(custom->size()) +
                         " bytes) are not a hilsim chunk plan");
      annotated = plan::decodePlan(custom->data(), custom->size());
    } else if (const std::vector<uint8_t>* md = ctx_.metadataPlan(node.index)) {
      annotated = plan::decodePlan(md->data(), md->size());
    }
    if (annotated) {
      const std::string problem = plan::validatePlan(annotated->plan, shape);
      if (!problem.empty()) throw ModelError("chunk plan is inconsistent: " + problem);
    }

    if (params_.type == TensorType::FLOAT32) {
      reason_ = "float32 layer: the accelerator computes int8";
      return fullyConnectedWork(params_);
    }
    std::string origin;
    if (annotated && annotated->plan.hardware == ctx_.hardware()) {
      plan_ = annotated->plan;
      origin = "annotated";
    } else {
      if (annotated)
        ctx_.note("warning: chunk plans in the model were made for other hardware (" +
                  hardwareText(annotated->plan.hardware) + "); re-planned in memory for " +
                  hardwareText(ctx_.hardware()));
      else
        ctx_.note(
            "note: model has no hilsim annotations: FULLY_CONNECTED layers planned in memory");
      origin = annotated ? "re-planned" : "not annotated";
      try {
        plan_ = plan::makePlan(ctx_.hardware(), shape);
      } catch (const ModelError& e) {
        reason_ = std::string("plan does not fit this hardware: ") + e.what();
        return fullyConnectedWork(params_);
      }
    }
    fits_ = true;
    predicted_ = plan::predictAccelerated(*plan_, ctx_.timing()).cycles;

    switch (ctx_.mode()) {
      case OffloadMode::kAccel:
        offload_ = true;
        reason_ = "mode accel (" + origin + ")";
        break;
      case OffloadMode::kCompare:
        offload_ = true;
        reason_ = "mode compare (" + origin + ")";
        break;
      case OffloadMode::kAuto:
        if (origin == "annotated") {
          offload_ = annotated->decision.offload;
          reason_ = "annotated: " + annotated->decision.reason;
        } else {
          offload_ = predicted_ < ref_cycles_;
          reason_ = origin + ": " + (offload_ ? "offload pays (" : "below break-even (") +
                    cyclesText(predicted_, ref_cycles_) + ")";
        }
        break;
    }
    return fullyConnectedWork(params_);
  }

  std::optional<GemmShape> gemm() const override { return params_.shape; }

  void invoke(InvokeContext& ctx, Node&) override {
    LayerRecord& rec = ctx.record();
    rec.reason = reason_;
    rec.break_even_macs = break_even_;
    if (!offload_) {
      computeReference();
      return;  // the interpreter charges the reference cycles
    }
    std::vector<int8_t> reference;
    if (ctx_.mode() == OffloadMode::kCompare) {
      computeReference();
      ctx.chargeReference();
      const int8_t* out = params_.output->as<int8_t>();
      reference.assign(out, out + params_.output->bytes);
    }
    const uint64_t start = ctx.clock().now();
    std::string failure;
    rec.accel = runAccelerated(ctx.clock(), &failure);
    if (!failure.empty()) {
      // The driver has soft-reset the device; keep the output right and go on.
      ctx_.recordFailure("operator " + std::to_string(index_) + " (FULLY_CONNECTED): " + failure);
      rec.reason = "accelerator job failed (" + failure + "); computed on the CPU";
      rec.accel.reset();
      computeReference();
      ctx.chargeReference();
      return;
    }
    rec.path = ExecPath::kAccel;
    rec.path_cycles = ctx.clock().now() - start;
    if (!reference.empty()) {
      const int8_t* out = params_.output->as<int8_t>();
      for (size_t i = 0; i < reference.size(); ++i)
        if (out[i] != reference[i])
          throw SimulationError(
              "mode compare: the accelerated output differs from the "
              "reference kernel at byte " +
              std::to_string(i) + " (" + std::to_string(out[i]) + " vs " +
              std::to_string(reference[i]) + ")");
    }
  }

 private:
  void computeReference() {
    if (params_.type == TensorType::FLOAT32)
      fullyConnectedFloat(params_);
    else
      fullyConnectedInt8(params_);
  }

  uint64_t toHost(uint64_t cycles, double mhz) const {
    return static_cast<uint64_t>(static_cast<double>(cycles) * ctx_.timing().clocks.cpu_mhz / mhz +
                                 0.5);
  }

  // Places the layer in device memory: tile blocks, descriptor table, input and output buffers.
  bool upload(std::string* failure) {
    drv::Driver& d = ctx_.driver();
    const plan::Plan& p = *plan_;
    plan::LayerArithmetic arith;
    arith.weights = params_.filter->as<int8_t>();
    arith.bias.assign(p.shape.n, 0);
    if (params_.bias)
      std::memcpy(arith.bias.data(), params_.bias->data, p.shape.n * sizeof(int32_t));
    arith.multipliers = params_.multipliers;
    arith.shifts = params_.shifts;
    arith.input_zero_point = params_.input_zero_point;
    arith.output_zero_point = params_.output_zero_point;
    arith.act_min = params_.act_min;
    arith.act_max = params_.act_max;
    const plan::LayerImage image = plan::buildTiles(p, arith);
    drv::Status s = d.allocate(image.tiles.size(), 64, &tiles_);
    if (s == drv::Status::kOk) s = d.allocate(uint64_t{p.shape.rows} * p.shape.k, 64, &input_);
    if (s == drv::Status::kOk) s = d.allocate(uint64_t{p.shape.rows} * p.shape.n, 64, &output_);
    if (s == drv::Status::kOk)
      s = d.allocate(uint64_t{p.hardware.num_cores} * drv::regs::kDescriptorBytes, 64, &table_);
    if (s != drv::Status::kOk) {
      *failure = std::string(drv::statusName(s)) + ": " + d.lastError();
      return false;
    }
    const std::vector<uint8_t> table =
        plan::buildDescriptorTable(p, arith, image, {tiles_.addr, input_.addr, output_.addr});
    s = d.write(tiles_, 0, image.tiles.data(), image.tiles.size());
    if (s == drv::Status::kOk) s = d.write(table_, 0, table.data(), table.size());
    if (s != drv::Status::kOk) {
      *failure = std::string(drv::statusName(s)) + ": " + d.lastError();
      return false;
    }
    upload_bytes_ = image.tiles.size() + table.size();
    job_.table_addr = table_.addr;
    job_.core_mask = plan::coreMask(p);
    uploaded_ = true;
    return true;
  }

  AccelBreakdown runAccelerated(HostClock& clock, std::string* failure) {
    drv::Driver& d = ctx_.driver();
    const timing::PlatformTiming& t = ctx_.timing();
    const GemmShape& shape = params_.shape;
    AccelBreakdown b;
    const uint64_t t0 = clock.now();
    clock.advance(t.host.dispatch_cycles, CpuActivity::kKernel);
    const uint64_t t_dispatched = clock.now();
    if (!uploaded_ && !upload(failure)) return b;
    const uint64_t t_uploaded = clock.now();
    drv::Status s = d.write(input_, 0, params_.input->data, input_.bytes);
    const uint64_t t_input = clock.now();
    if (s == drv::Status::kOk) s = d.submit(job_);
    const uint64_t t_started = clock.now();
    if (s == drv::Status::kOk) s = d.wait(d.timeoutCycles());
    const uint64_t t_done = clock.now();
    if (s == drv::Status::kOk) s = d.read(output_, 0, params_.output->data, output_.bytes);
    const uint64_t t_end = clock.now();
    if (s != drv::Status::kOk) {
      *failure = std::string(drv::statusName(s)) + ": " + d.lastError();
      return b;
    }

    // Critical core: the one that finished last.
    uint64_t busy = 0, startup = 0, load_wait = 0, compute = 0, store_wait = 0,
             stall = 0;  // critical core
    const plan::Plan& p = *plan_;
    const uint64_t cycles = t_end - t0;
    for (const plan::Chunk& c : p.chunks) {
      const drv::CoreCounters k = d.counters(c.core);
      const uint64_t core_busy = toHost(k.busy_cycles, t.clocks.accel_mhz);
      b.per_core.push_back({c.core, core_busy, cycles ? double(core_busy) / double(cycles) : 0.0});
      if (core_busy >= busy) {
        busy = core_busy;
        startup = toHost(k.startup_cycles, t.clocks.accel_mhz);
        load_wait = toHost(k.load_wait_cycles, t.clocks.accel_mhz);
        compute = toHost(k.compute_cycles, t.clocks.accel_mhz);
        store_wait = toHost(k.store_wait_cycles, t.clocks.accel_mhz);
        stall = k.stall_cycles;
      }
    }
    const uint64_t run = t_done - t_started;
    const uint64_t sync = run > busy ? run - busy : 0;
    b.upload_cycles = t_uploaded - t_dispatched;
    b.fixed_cycles = std::min<uint64_t>(
        cycles, (t_dispatched - t0) + b.upload_cycles + (t_started - t_input) + startup + sync);
    b.variable_cycles = cycles - b.fixed_cycles;
    b.dma_in_cycles = (t_input - t_uploaded) + load_wait;
    b.compute_cycles = compute;
    b.dma_out_cycles = store_wait + (t_end - t_done);
    b.sync_cycles = sync;
    b.bus_stall_cycles = toHost(stall, t.clocks.bus_mhz);
    b.bytes_moved =
        input_.bytes + output_.bytes +
        p.chunks.size() * (drv::regs::kDescriptorBytes + uint64_t{shape.rows} * shape.k);
    for (const plan::Chunk& c : p.chunks)
      b.bytes_moved += uint64_t{c.n_count} * (uint64_t{shape.k} + plan::kParamBytesPerFeature) +
                       uint64_t{shape.rows} * c.n_count;
    if (b.upload_cycles) b.bytes_moved += upload_bytes_;
    const double accel_cycles = double(cycles) * t.clocks.accel_mhz / t.clocks.cpu_mhz;
    const double slots =
        double(p.hardware.num_cores) * p.hardware.array_rows * p.hardware.array_cols;
    b.mac_utilization = accel_cycles > 0 ? double(shape.macs()) / (slots * accel_cycles) : 0.0;
    return b;
  }

  AccelContext& ctx_;
  FullyConnectedParams params_;
  int index_ = -1;
  std::optional<plan::Plan> plan_;
  bool fits_ = false;
  bool offload_ = false;
  std::string reason_;
  uint64_t predicted_ = 0;
  uint64_t ref_cycles_ = 0;
  std::optional<uint64_t> break_even_;
  bool uploaded_ = false;
  uint64_t upload_bytes_ = 0;
  drv::Buffer tiles_, input_, output_, table_;
  drv::Job job_;
};

}  // namespace

std::unique_ptr<Kernel> makeFullyConnectedAccel(AccelContext& context) {
  return std::make_unique<FullyConnectedAccel>(context);
}

}  // namespace hilsim::rt
