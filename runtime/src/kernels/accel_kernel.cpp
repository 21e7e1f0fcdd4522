#include "kernels/accel_kernel.h"

#include <cstring>
#include <vector>

#include "hilsim/base/log.h"
#include "hilsim/drv/regs.h"
#include "hilsim/errors.h"
#include "hilsim/planner/predict.h"

namespace hilsim::rt {
namespace {

spdlog::logger& logger() {
  static const std::shared_ptr<spdlog::logger> instance = log::get("runtime");
  return *instance;
}

std::string hardwareText(const planner::Hardware& hw) {
  return std::to_string(hw.num_cores) + " cores, " + std::to_string(hw.array_rows) + "x" +
         std::to_string(hw.array_cols) + " arrays, " + std::to_string(hw.sram_bytes) +
         " bytes of SRAM";
}

constexpr uint64_t kBufferAlignment = 64;

uint64_t aligned(uint64_t bytes) {
  return (bytes + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
}

void setReason(LayerRecord& rec, const planner::OffloadDecision& d) {
  rec.reason_code = d.reason;
  rec.reason = planner::reasonText(d);
}

}  // namespace

void AcceleratedKernel::keepOnCpu(PathReason reason, std::string detail) {
  decision_ = {};
  decision_.reason = reason;
  decision_.detail = std::move(detail);
}

std::optional<uint64_t> AcceleratedKernel::familyEnergyBreakEven() const {
  if (!ctx_.energyParams()) return std::nullopt;
  return familyBreakEven({planner::Objective::kEnergy, &*ctx_.energyParams()});
}

void AcceleratedKernel::planAndDecide(const std::optional<planner::AnnotatedPlan>& annotated) {
  const planner::PlanOrigin origin = resolvePlan(annotated);
  if (origin == planner::PlanOrigin::kAnnotated) {
    const uint64_t stored = annotated->decision.break_even_macs;
    if (stored) break_even_ = stored;
  } else {
    break_even_ = familyBreakEven({});
  }
  if (origin == planner::PlanOrigin::kAnnotated &&
      annotated->decision.objective != planner::Objective::kCycles) {
    const uint64_t stored = annotated->decision.break_even_energy_macs;
    if (stored) break_even_energy_ = stored;
  } else {
    break_even_energy_ = familyEnergyBreakEven();
  }
  if (!plan_) return;
  // A layer planned now is decided by the objective its annotation stored, else by the run's.
  const planner::Objective objective = annotated ? annotated->decision.objective : ctx_.objective();
  if (objective != planner::Objective::kCycles && !ctx_.energyParams())
    throw ConfigError(std::string("objective ") + planner::objectiveName(objective) +
                      " needs the energy model, which this run does not have");
  const planner::PathCosts costs =
      planner::predictCosts(*plan_, ctx_.timing(), ref_cycles_,
                            {objective, ctx_.energyParams() ? &*ctx_.energyParams() : nullptr});
  predicted_cycles_ = costs.accel_cycles;
  decision_ = planner::decideForMode(ctx_.mode(), origin, annotated && annotated->decision.offload,
                                     annotated ? annotated->decision.reason : std::string(),
                                     objective, costs);
  decision_.utilization = utilization();
  decision_.upload_bytes = planner::uploadBytes(*plan_);
  if (decision_.offload) {
    const uint64_t needed = deviceBytes(), left = ctx_.deviceMemoryLeft();
    if (!ctx_.reserveDeviceMemory(needed))
      fallBack(PathReason::kNoDeviceMemory, needed, left);
    else
      for (const planner::Chunk& c : plan_->chunks) ctx_.recordCoreSram(c.core, c.sram_used);
  }
  const GemmShape& shape = plan_->shape;
  logger().debug("operator {} ({} {}x{}x{}): {} on {} cores: {}", index_, op_name_, shape.rows,
                 shape.k, shape.n, decision_.offload ? "accelerated" : "reference",
                 plan_->chunks.size(), planner::reasonText(decision_));
}

// Why an annotation does not fit this run, as the warning says it; empty when it fits. The
// decision rests on the plan's hardware, the host CPU it was made for and the predicted cycles
// both ways: the last catch what the first two do not name (cost coefficients, bus and
// accelerator timing).
std::string AcceleratedKernel::annotationMismatch(const planner::AnnotatedPlan& annotated) const {
  std::vector<std::string> made_for, now;
  if (annotated.plan.hardware != ctx_.hardware()) {
    made_for.push_back("other hardware (" + hardwareText(annotated.plan.hardware) + ")");
    now.push_back(hardwareText(ctx_.hardware()));
  }
  const planner::CpuAssumptions& cpu = ctx_.cpuAssumptions();
  if (!annotated.cpu) {
    made_for.push_back("a CPU they do not record (written by an older hilsim)");
    now.push_back(planner::describeCpu(cpu));
  } else if (*annotated.cpu != cpu) {
    made_for.push_back("another CPU (" + planner::describeCpu(*annotated.cpu) + ")");
    now.push_back(planner::describeCpu(cpu));
  }
  if (made_for.empty()) {
    const planner::Decision& d = annotated.decision;
    const bool same_cycles = d.predicted_ref_cycles == ref_cycles_ &&
                             d.predicted_accel_cycles ==
                                 planner::predictAccelerated(annotated.plan, ctx_.timing()).cycles;
    if (!same_cycles)
      return "chunk plans in the model were made under other cost or timing figures "
             "(cpu.coefficients, cpu.weight_memory, bus or accelerator timing); re-planned in "
             "memory";
    if (d.objective == planner::Objective::kCycles) return {};
    // A decision by energy also rests on the energy figures it predicted with.
    if (ctx_.energyParams()) {
      const planner::PathCosts costs =
          planner::predictCosts(annotated.plan, ctx_.timing(), ref_cycles_,
                                {planner::Objective::kEnergy, &*ctx_.energyParams()});
      if (*costs.accel_uj == d.predicted_accel_energy_uj &&
          *costs.ref_uj == d.predicted_ref_energy_uj)
        return {};
    }
    return std::string("chunk plans in the model were decided by ") +
           planner::objectiveName(d.objective) +
           " under other energy figures (energy.*); re-planned in memory";
  }
  auto joined = [](const std::vector<std::string>& parts) {
    std::string text;
    for (const std::string& p : parts) text += (text.empty() ? "" : " and ") + p;
    return text;
  };
  return "chunk plans in the model were made for " + joined(made_for) +
         "; re-planned in memory for " + joined(now);
}

// The plan this run uses: the annotation when it was made for this hardware and host CPU, else
// one made now. Leaves plan_ empty (and the decision saying why) when no plan fits.
planner::PlanOrigin AcceleratedKernel::resolvePlan(
    const std::optional<planner::AnnotatedPlan>& annotated) {
  if (annotated) {
    const std::string mismatch = annotationMismatch(*annotated);
    if (mismatch.empty()) {
      plan_ = annotated->plan;
      return planner::PlanOrigin::kAnnotated;
    }
    ctx_.note("warning: " + mismatch);
  } else {
    ctx_.note(
        "note: model has no hilsim annotations: layers the accelerator takes are planned "
        "in memory");
  }
  try {
    plan_ = planLayer();
  } catch (const ModelError& e) {
    keepOnCpu(PathReason::kDoesNotFit, e.what());
    if (ctx_.mode() != OffloadMode::kAuto) noteOnCpu();
  }
  return annotated ? planner::PlanOrigin::kReplanned : planner::PlanOrigin::kNotAnnotated;
}

uint64_t AcceleratedKernel::deviceBytes() const {
  const timing::JobWork work = planner::jobWork(*plan_);
  return aligned(planner::tileImageBytes(*plan_)) + aligned(timing::hostInputBytes(work)) +
         aligned(timing::hostOutputBytes(work)) +
         aligned(uint64_t{plan_->hardware.num_cores} * drv::regs::kDescriptorBytes);
}

void AcceleratedKernel::fallBack(PathReason reason, uint64_t needed, uint64_t left) {
  decision_.offload = false;
  decision_.reason = reason;
  decision_.detail =
      "needs " + std::to_string(needed) + " bytes, " + std::to_string(left) + " free";
  if (ctx_.mode() != OffloadMode::kAuto) noteOnCpu();
}

void AcceleratedKernel::noteOnCpu() {
  ctx_.note("note: operator " + std::to_string(index_) + " (" + op_name_ +
            ") runs on the CPU: " + planner::reasonText(decision_));
}

void AcceleratedKernel::invokeLayer(InvokeContext& ctx, Node& node) {
  LayerRecord& rec = ctx.record();
  setReason(rec, decision_);
  rec.break_even_macs = break_even_;
  rec.break_even_energy_macs = break_even_energy_;
  if (!decision_.offload) {
    runReference(ctx, node);
    return;  // the interpreter charges the reference cycles
  }
  std::vector<int8_t> reference;
  if (ctx_.mode() == OffloadMode::kCompare) {
    runReference(ctx, node);
    ctx.chargeReference();
    const Tensor& out = outputTensor();
    reference.assign(out.as<int8_t>(), out.as<int8_t>() + out.bytes);
  }
  const uint64_t start = ctx.clock().now();
  drv::Status status = drv::Status::kOk;
  AccelBreakdown breakdown = runAccelerated(ctx.clock(), &status);
  if (status == drv::Status::kOutOfMemory) {
    // Only an allocation fails so (prepare reserves what the layer needs; this is the backstop).
    fallBack(PathReason::kNoDeviceMemory, unplaced_bytes_, ctx_.driver().freeBytes());
    setReason(rec, decision_);
    runReference(ctx, node);
    ctx.chargeReference();
    return;
  }
  if (status != drv::Status::kOk) {
    // The driver has soft-reset the device; keep the output right and go on.
    JobFailure failure{rec.invocation, index_, status, ctx_.driver().lastError(), {}, op_name_};
    planner::OffloadDecision failed = decision_;
    failed.reason = PathReason::kJobFailed;
    failed.detail = failure.cause();
    setReason(rec, failed);
    ctx_.recordFailure(std::move(failure));
    runReference(ctx, node);
    ctx.chargeReference();
    return;
  }
  rec.accel = std::move(breakdown);
  rec.path = ExecPath::kAccel;
  rec.path_cycles = ctx.clock().now() - start;
  if (!reference.empty()) checkAgainstReference(reference);
}

void AcceleratedKernel::checkAgainstReference(const std::vector<int8_t>& reference) const {
  const int8_t* out = outputTensor().as<int8_t>();
  for (size_t i = 0; i < reference.size(); ++i)
    if (out[i] != reference[i])
      throw SimulationError(
          "mode compare: the accelerated output differs from the reference kernel at byte " +
          std::to_string(i) + " (" + std::to_string(out[i]) + " vs " +
          std::to_string(reference[i]) + ")");
}

// Places the layer in device memory: tile blocks, descriptor table, input and output buffers.
drv::Status AcceleratedKernel::upload() {
  drv::Driver& d = ctx_.driver();
  const planner::Plan& p = *plan_;
  const planner::LayerArithmetic arith = arithmetic();
  const planner::LayerImage image = planner::buildTiles(p, arith);
  const timing::JobWork work = planner::jobWork(p);
  Placement& at = placement_;
  unplaced_bytes_ = deviceBytes();
  drv::Status s = d.allocate(image.tiles.size(), 64, &at.tiles);
  if (s == drv::Status::kOk) s = d.allocate(timing::hostInputBytes(work), 64, &at.input);
  if (s == drv::Status::kOk) s = d.allocate(timing::hostOutputBytes(work), 64, &at.output);
  if (s == drv::Status::kOk)
    s = d.allocate(uint64_t{p.hardware.num_cores} * drv::regs::kDescriptorBytes, 64, &at.table);
  if (s != drv::Status::kOk) return s;
  const std::vector<uint8_t> table = planner::buildDescriptorTable(
      p, arith, image, {at.tiles.addr, at.input.addr, at.output.addr});
  s = d.write(at.tiles, 0, image.tiles.data(), image.tiles.size());
  if (s == drv::Status::kOk) s = d.write(at.table, 0, table.data(), table.size());
  if (s != drv::Status::kOk) return s;
  at.upload_bytes = image.tiles.size() + table.size();
  at.job.table_addr = at.table.addr;
  at.job.core_mask = planner::coreMask(p);
  uploaded_ = true;
  return drv::Status::kOk;
}

AccelBreakdown AcceleratedKernel::runAccelerated(HostClock& clock, drv::Status* status) {
  drv::Driver& d = ctx_.driver();
  const uint64_t start = clock.now();
  const uint64_t sleep_start = clock.sleepCycles();
  const bool uploading = !uploaded_;
  timing::JobSteps at;  // host cycles from `start`
  clock.advance(ctx_.timing().host.dispatch_cycles, CpuActivity::kKernel);
  at.dispatched = clock.now() - start;
  drv::Status s = uploaded_ ? drv::Status::kOk : upload();
  at.uploaded = clock.now() - start;
  if (s == drv::Status::kOk)
    s = d.write(placement_.input, 0, inputTensor().data, placement_.input.bytes);
  at.input_sent = clock.now() - start;
  if (s == drv::Status::kOk) s = d.submit(placement_.job);
  at.job_started = clock.now() - start;
  if (s == drv::Status::kOk) s = d.wait(d.timeoutCycles());
  at.job_done = clock.now() - start;
  if (s == drv::Status::kOk)
    s = d.read(placement_.output, 0, outputTensor().data, placement_.output.bytes);
  at.end = clock.now() - start;
  *status = s;
  if (s != drv::Status::kOk) return {};
  std::vector<timing::CoreCounts> cores;
  for (const planner::Chunk& c : plan_->chunks) {
    const drv::CoreCounters k = d.counters(c.core);
    cores.push_back({c.core, k.busy_cycles, k.startup_cycles, k.compute_cycles, k.load_wait_cycles,
                     k.store_wait_cycles, k.stall_cycles});
  }
  AccelBreakdown b =
      planner::splitCycles(*plan_, ctx_.timing().clocks, at, cores, placement_.upload_bytes);
  b.predicted_cycles = predicted_cycles_;
  const drv::DriverWork work = d.lastJobWork();
  b.driver_cycles = work.cycles;
  b.host_input_bytes = placement_.input.bytes;
  b.host_output_bytes = placement_.output.bytes;
  b.upload_bytes = uploading ? placement_.upload_bytes : 0;
  const drv::JobRegisterTraffic regs = drv::jobRegisterTraffic(plan_->hardware.num_cores);
  b.register_accesses = regs.submit_writes + regs.completion_reads + regs.completion_writes;
  b.sleep_cycles = clock.sleepCycles() - sleep_start;
  if (work.instructions) b.driver_instructions = work.instructions;
  return b;
}

}  // namespace hilsim::rt
