#include "hilsim/rt/kernels/fully_connected_accel.h"

#include <algorithm>
#include <cstring>

#include "hilsim/planner/predict.h"
#include "hilsim/rt/kernels/fully_connected_common.h"
#include "kernels/accel_kernel.h"

namespace hilsim::rt {

std::string JobFailure::cause() const {
  return std::string(drv::statusName(status)) + ": " + detail;
}

std::string JobFailure::describe() const {
  return "operator " + std::to_string(op_index) + " (" + op + "): " + cause() +
         (transaction.empty() ? std::string() : "; last transaction: " + transaction);
}

AccelContext::AccelContext(drv::Driver& driver, planner::Hardware hardware,
                           timing::PlatformTiming timing, timing::CpuCostModel cpu,
                           planner::CpuAssumptions cpu_assumptions, OffloadMode mode)
    : driver_(driver),
      hardware_(hardware),
      timing_(timing),
      cpu_(std::move(cpu)),
      cpu_assumptions_(std::move(cpu_assumptions)),
      mode_(mode),
      core_sram_peak_(hardware.num_cores, 0) {}

void AccelContext::loadMetadataPlans(const Model& model) {
  metadata_plans_ = MetadataPlans::read(model);
}

void AccelContext::recordFailure(JobFailure failure) {
  if (describe_transaction_) failure.transaction = describe_transaction_();
  failures_.push_back(std::move(failure));
}

bool AccelContext::reserveDeviceMemory(uint64_t bytes) {
  if (bytes > deviceMemoryLeft()) return false;
  reserved_bytes_ += bytes;
  return true;
}

void AccelContext::recordCoreSram(uint32_t core, uint64_t bytes) {
  if (core_sram_peak_.size() <= core) core_sram_peak_.resize(core + 1, 0);
  core_sram_peak_[core] = std::max(core_sram_peak_[core], bytes);
}

uint64_t AccelContext::deviceMemoryLeft() const {
  const uint64_t free = driver_.freeBytes();
  return free > reserved_bytes_ ? free - reserved_bytes_ : 0;
}

void AccelContext::note(const std::string& message) {
  if (std::find(notes_.begin(), notes_.end(), message) == notes_.end()) notes_.push_back(message);
}

namespace {

class FullyConnectedAccel final : public AcceleratedKernel {
 public:
  explicit FullyConnectedAccel(AccelContext& context)
      : AcceleratedKernel(context, "FULLY_CONNECTED") {}

  OpWork prepare(PrepareContext& prepare_ctx, Node& node) override {
    params_ = prepareFullyConnected(prepare_ctx, node);
    index_ = node.index;
    const GemmShape& shape = params_.shape;
    ref_cycles_ = ctx_.cpu().fullyConnectedCycles(shape.rows, shape.k, shape.n);
    const std::optional<planner::AnnotatedPlan> annotated =
        findAnnotation(node, ctx_.metadataPlans(), shape);
    if (params_.type == TensorType::FLOAT32) {
      decision_.reason = PathReason::kFloatLayer;
      break_even_ = familyBreakEven({});
      break_even_energy_ = familyEnergyBreakEven();
      return fullyConnectedWork(params_);
    }
    planAndDecide(annotated);
    return fullyConnectedWork(params_);
  }

  std::optional<GemmShape> gemm() const override { return params_.shape; }

  void invoke(InvokeContext& ctx, Node& node) override { invokeLayer(ctx, node); }

 private:
  planner::Plan planLayer() const override {
    return planner::makePlan(ctx_.hardware(), params_.shape);
  }

  std::optional<uint64_t> familyBreakEven(
      const planner::ObjectiveSetting& objective) const override {
    return planner::breakEvenMacs(params_.shape, ctx_.hardware(), ctx_.timing(), ctx_.cpu(),
                                  objective);
  }

  const Tensor& inputTensor() const override { return *params_.input; }
  Tensor& outputTensor() const override { return *params_.output; }

  void runReference(InvokeContext& ctx, Node&) override {
    runFullyConnectedReference(ctx, params_);
  }

  planner::LayerArithmetic arithmetic() const override {
    planner::LayerArithmetic arith;
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

  FullyConnectedParams params_;
};

}  // namespace

std::unique_ptr<Kernel> makeFullyConnectedAccel(AccelContext& context) {
  return std::make_unique<FullyConnectedAccel>(context);
}

}  // namespace hilsim::rt
