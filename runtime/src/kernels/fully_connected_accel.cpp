#include "hilsim/rt/kernels/fully_connected_accel.h"

#include <algorithm>
#include <cstring>

#include "hilsim/base/log.h"
#include "hilsim/drv/regs.h"
#include "hilsim/errors.h"
#include "hilsim/rt/kernels/fully_connected_common.h"
#include "hilsim/rt/plan/layer_image.h"
#include "hilsim/rt/plan/predict.h"

namespace hilsim::rt {

std::string JobFailure::cause() const {
  return std::string(drv::statusName(status)) + ": " + detail;
}

std::string JobFailure::describe() const {
  return "operator " + std::to_string(op_index) + " (FULLY_CONNECTED): " + cause() +
         (transaction.empty() ? std::string() : "; last transaction: " + transaction);
}

AccelContext::AccelContext(drv::Driver& driver, plan::Hardware hardware,
                           timing::PlatformTiming timing, timing::CpuCostModel cpu,
                           OffloadMode mode)
    : driver_(driver), hardware_(hardware), timing_(timing), cpu_(std::move(cpu)), mode_(mode) {}

void AccelContext::loadMetadataPlans(const Model& model) {
  metadata_plans_ = plan::MetadataPlans::read(model);
}

void AccelContext::recordFailure(JobFailure failure) {
  if (describe_transaction_) failure.transaction = describe_transaction_();
  failures_.push_back(std::move(failure));
}

void AccelContext::note(const std::string& message) {
  if (std::find(notes_.begin(), notes_.end(), message) == notes_.end()) notes_.push_back(message);
}

namespace {

spdlog::logger& logger() {
  static const std::shared_ptr<spdlog::logger> instance = log::get("runtime");
  return *instance;
}

std::string hardwareText(const plan::Hardware& hw) {
  return std::to_string(hw.num_cores) + " cores, " + std::to_string(hw.array_rows) + "x" +
         std::to_string(hw.array_cols) + " arrays, " + std::to_string(hw.sram_bytes) +
         " bytes of SRAM";
}

// Device buffers of a placed layer.
struct Placement {
  drv::Buffer tiles, input, output, table;
  drv::Job job;
  uint64_t upload_bytes = 0;
};

class FullyConnectedAccel final : public Kernel {
 public:
  explicit FullyConnectedAccel(AccelContext& context) : ctx_(context) {}

  OpWork prepare(PrepareContext& prepare_ctx, Node& node) override {
    params_ = prepareFullyConnected(prepare_ctx, node);
    index_ = node.index;
    const GemmShape& shape = params_.shape;
    ref_cycles_ = ctx_.cpu().fullyConnectedCycles(shape.rows, shape.k, shape.n);
    const std::optional<plan::AnnotatedPlan> annotated =
        plan::findAnnotation(node, ctx_.metadataPlans(), shape);
    if (params_.type == TensorType::FLOAT32) {
      decision_.reason = PathReason::kFloatLayer;
      break_even_ = breakEven();
      return fullyConnectedWork(params_);
    }
    const plan::PlanOrigin origin = resolvePlan(annotated);
    if (origin == plan::PlanOrigin::kAnnotated) {
      const uint64_t stored = annotated->decision.break_even_macs;
      if (stored) break_even_ = stored;
    } else {
      break_even_ = breakEven();
    }
    if (!plan_) return fullyConnectedWork(params_);
    const uint64_t predicted = plan::predictAccelerated(*plan_, ctx_.timing()).cycles;
    decision_ = plan::decideForMode(ctx_.mode(), origin, annotated && annotated->decision.offload,
                                    annotated ? annotated->decision.reason : std::string(),
                                    predicted, ref_cycles_);
    logger().debug("operator {} ({}x{}x{}): {} on {} cores: {}", index_, shape.rows, shape.k,
                   shape.n, decision_.offload ? "accelerated" : "reference", plan_->chunks.size(),
                   plan::reasonText(decision_));
    return fullyConnectedWork(params_);
  }

  std::optional<GemmShape> gemm() const override { return params_.shape; }

  void invoke(InvokeContext& ctx, Node&) override {
    LayerRecord& rec = ctx.record();
    setReason(rec, decision_);
    rec.break_even_macs = break_even_;
    if (!decision_.offload) {
      runFullyConnectedReference(ctx, params_);
      return;  // the interpreter charges the reference cycles
    }
    std::vector<int8_t> reference;
    if (ctx_.mode() == OffloadMode::kCompare) {
      runFullyConnectedReference(ctx, params_);
      ctx.chargeReference();
      const int8_t* out = params_.output->as<int8_t>();
      reference.assign(out, out + params_.output->bytes);
    }
    const uint64_t start = ctx.clock().now();
    drv::Status status = drv::Status::kOk;
    AccelBreakdown breakdown = runAccelerated(ctx.clock(), &status);
    if (status != drv::Status::kOk) {
      // The driver has soft-reset the device; keep the output right and go on.
      JobFailure failure{rec.invocation, index_, status, ctx_.driver().lastError(), {}};
      plan::OffloadDecision failed = decision_;
      failed.reason = PathReason::kJobFailed;
      failed.detail = failure.cause();
      setReason(rec, failed);
      ctx_.recordFailure(std::move(failure));
      runFullyConnectedReference(ctx, params_);
      ctx.chargeReference();
      return;
    }
    rec.accel = std::move(breakdown);
    rec.path = ExecPath::kAccel;
    rec.path_cycles = ctx.clock().now() - start;
    if (!reference.empty()) checkAgainstReference(reference);
  }

 private:
  static void setReason(LayerRecord& rec, const plan::OffloadDecision& d) {
    rec.reason_code = d.reason;
    rec.reason = plan::reasonText(d);
  }

  std::optional<uint64_t> breakEven() const {
    return plan::breakEvenMacs(params_.shape, ctx_.hardware(), ctx_.timing(), ctx_.cpu());
  }

  // The plan this run uses: the annotation when it was made for this hardware, else one made now.
  // Leaves plan_ empty (and the decision saying why) when no plan fits.
  plan::PlanOrigin resolvePlan(const std::optional<plan::AnnotatedPlan>& annotated) {
    if (annotated && annotated->plan.hardware == ctx_.hardware()) {
      plan_ = annotated->plan;
      return plan::PlanOrigin::kAnnotated;
    }
    if (annotated)
      ctx_.note("warning: chunk plans in the model were made for other hardware (" +
                hardwareText(annotated->plan.hardware) + "); re-planned in memory for " +
                hardwareText(ctx_.hardware()));
    else
      ctx_.note("note: model has no hilsim annotations: FULLY_CONNECTED layers planned in memory");
    try {
      plan_ = plan::makePlan(ctx_.hardware(), params_.shape);
    } catch (const ModelError& e) {
      decision_.reason = PathReason::kDoesNotFit;
      decision_.detail = e.what();
    }
    return annotated ? plan::PlanOrigin::kReplanned : plan::PlanOrigin::kNotAnnotated;
  }

  void checkAgainstReference(const std::vector<int8_t>& reference) const {
    const int8_t* out = params_.output->as<int8_t>();
    for (size_t i = 0; i < reference.size(); ++i)
      if (out[i] != reference[i])
        throw SimulationError(
            "mode compare: the accelerated output differs from the reference kernel at byte " +
            std::to_string(i) + " (" + std::to_string(out[i]) + " vs " +
            std::to_string(reference[i]) + ")");
  }

  plan::LayerArithmetic arithmetic() const {
    plan::LayerArithmetic arith;
    arith.weights = params_.filter->as<int8_t>();
    arith.bias.assign(plan_->shape.n, 0);
    if (params_.bias)
      std::memcpy(arith.bias.data(), params_.bias->data, plan_->shape.n * sizeof(int32_t));
    arith.multipliers = params_.multipliers;
    arith.shifts = params_.shifts;
    arith.input_zero_point = params_.input_zero_point;
    arith.output_zero_point = params_.output_zero_point;
    arith.act_min = params_.act_min;
    arith.act_max = params_.act_max;
    return arith;
  }

  // Places the layer in device memory: tile blocks, descriptor table, input and output buffers.
  drv::Status upload() {
    drv::Driver& d = ctx_.driver();
    const plan::Plan& p = *plan_;
    const plan::LayerArithmetic arith = arithmetic();
    const plan::LayerImage image = plan::buildTiles(p, arith);
    Placement& at = placement_;
    drv::Status s = d.allocate(image.tiles.size(), 64, &at.tiles);
    if (s == drv::Status::kOk) s = d.allocate(uint64_t{p.shape.rows} * p.shape.k, 64, &at.input);
    if (s == drv::Status::kOk) s = d.allocate(uint64_t{p.shape.rows} * p.shape.n, 64, &at.output);
    if (s == drv::Status::kOk)
      s = d.allocate(uint64_t{p.hardware.num_cores} * drv::regs::kDescriptorBytes, 64, &at.table);
    if (s != drv::Status::kOk) return s;
    const std::vector<uint8_t> table =
        plan::buildDescriptorTable(p, arith, image, {at.tiles.addr, at.input.addr, at.output.addr});
    s = d.write(at.tiles, 0, image.tiles.data(), image.tiles.size());
    if (s == drv::Status::kOk) s = d.write(at.table, 0, table.data(), table.size());
    if (s != drv::Status::kOk) return s;
    at.upload_bytes = image.tiles.size() + table.size();
    at.job.table_addr = at.table.addr;
    at.job.core_mask = plan::coreMask(p);
    uploaded_ = true;
    return drv::Status::kOk;
  }

  AccelBreakdown runAccelerated(HostClock& clock, drv::Status* status) {
    drv::Driver& d = ctx_.driver();
    const uint64_t start = clock.now();
    timing::JobSteps at;  // host cycles from `start`
    clock.advance(ctx_.timing().host.dispatch_cycles, CpuActivity::kKernel);
    at.dispatched = clock.now() - start;
    drv::Status s = uploaded_ ? drv::Status::kOk : upload();
    at.uploaded = clock.now() - start;
    if (s == drv::Status::kOk)
      s = d.write(placement_.input, 0, params_.input->data, placement_.input.bytes);
    at.input_sent = clock.now() - start;
    if (s == drv::Status::kOk) s = d.submit(placement_.job);
    at.job_started = clock.now() - start;
    if (s == drv::Status::kOk) s = d.wait(d.timeoutCycles());
    at.job_done = clock.now() - start;
    if (s == drv::Status::kOk)
      s = d.read(placement_.output, 0, params_.output->data, placement_.output.bytes);
    at.end = clock.now() - start;
    *status = s;
    if (s != drv::Status::kOk) return {};
    std::vector<timing::CoreCounts> cores;
    for (const plan::Chunk& c : plan_->chunks) {
      const drv::CoreCounters k = d.counters(c.core);
      cores.push_back({c.core, k.busy_cycles, k.startup_cycles, k.compute_cycles,
                       k.load_wait_cycles, k.store_wait_cycles, k.stall_cycles});
    }
    AccelBreakdown b =
        plan::splitCycles(*plan_, ctx_.timing().clocks, at, cores, placement_.upload_bytes);
    const drv::DriverWork work = d.lastJobWork();
    b.driver_cycles = work.cycles;
    if (work.instructions) b.driver_instructions = work.instructions;
    return b;
  }

  AccelContext& ctx_;
  FullyConnectedParams params_;
  int index_ = -1;
  std::optional<plan::Plan> plan_;
  plan::OffloadDecision decision_;
  uint64_t ref_cycles_ = 0;
  std::optional<uint64_t> break_even_;
  bool uploaded_ = false;
  Placement placement_;
};

}  // namespace

std::unique_ptr<Kernel> makeFullyConnectedAccel(AccelContext& context) {
  return std::make_unique<FullyConnectedAccel>(context);
}

}  // namespace hilsim::rt
