#pragma once
// What every accelerated kernel (FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D) does the same way:
// use the layer's annotation or plan it now (one warning when the annotation was made for other
// hardware or another host CPU), decide the path, place the layer in device memory once, run one
// job through the driver per invocation, fall back to the reference kernel when the job fails, and
// in compare mode check the accelerated bytes against the reference kernel's. A kernel supplies the
// layer: its plan, arithmetic, tensors and reference computation.

#include <cstdint>
#include <optional>
#include <string>

#include "hilsim/planner/layer_image.h"
#include "hilsim/planner/predict.h"
#include "hilsim/rt/kernels/fully_connected_accel.h"

namespace hilsim::rt {

class AcceleratedKernel : public Kernel {
 protected:
  AcceleratedKernel(AccelContext& context, const char* op_name)
      : ctx_(context), op_name_(op_name) {}

  // The plan of this layer made now for the context's hardware; throws ModelError if none fits.
  virtual planner::Plan planLayer() const = 0;
  // The layer's weights (as planner::LayerArithmetic::weights wants them) and requantization.
  virtual planner::LayerArithmetic arithmetic() const = 0;
  virtual const Tensor& inputTensor() const = 0;
  virtual Tensor& outputTensor() const = 0;
  // Computes the output with the reference kernel (the clock is charged by the caller).
  virtual void runReference(InvokeContext& ctx, Node& node) = 0;
  // The break-even MACs of the layer's shape family under `objective` (plan/predict.h).
  virtual std::optional<uint64_t> familyBreakEven(
      const planner::ObjectiveSetting& objective) const = 0;
  // The energy break-even of the family; nullopt without the context's energy parameters.
  std::optional<uint64_t> familyEnergyBreakEven() const;
  // The predicted share of the arrays' MAC slots in use, shown in decisions; none by default.
  virtual std::optional<double> utilization() const { return std::nullopt; }

  // Uses the annotation (made for this hardware) or a plan made now, then decides the path for
  // the run mode; the break-even comes from the annotation, else from familyBreakEven().
  void planAndDecide(const std::optional<planner::AnnotatedPlan>& annotated);
  // The common invoke: the reference or accelerated path as decided.
  void invokeLayer(InvokeContext& ctx, Node& node);
  // Why the layer stays on the CPU when it cannot be planned at all.
  void keepOnCpu(PathReason reason, std::string detail);
  // The device memory the layer's buffers take (tile blocks, input, output, descriptor table),
  // each rounded up to the allocation alignment.
  uint64_t deviceBytes() const;
  // Keeps the layer on the CPU from now on because `needed` bytes do not fit the `left` ones.
  void fallBack(PathReason reason, uint64_t needed, uint64_t left);
  // In the modes that ask for the accelerator: tells the user once why the layer runs on the CPU.
  void noteOnCpu();

  AccelContext& ctx_;
  const char* op_name_;
  int index_ = -1;
  uint64_t ref_cycles_ = 0;
  std::optional<planner::Plan> plan_;
  planner::OffloadDecision decision_;
  std::optional<uint64_t> break_even_;
  std::optional<uint64_t> break_even_energy_;

 private:
  struct Placement {
    drv::Buffer tiles, input, output, table;
    drv::Job job;
    uint64_t upload_bytes = 0;
  };
  planner::PlanOrigin resolvePlan(const std::optional<planner::AnnotatedPlan>& annotated);
  std::string annotationMismatch(const planner::AnnotatedPlan& annotated) const;
  drv::Status upload();
  AccelBreakdown runAccelerated(HostClock& clock, drv::Status* status);
  void checkAgainstReference(const std::vector<int8_t>& reference) const;

  bool uploaded_ = false;
  uint64_t unplaced_bytes_ = 0;  // what upload() tried to allocate
  Placement placement_;
  uint64_t predicted_cycles_ = 0;
};

}  // namespace hilsim::rt
