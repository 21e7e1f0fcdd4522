#pragma once
// The accelerated FULLY_CONNECTED kernel, registered in the resolver in place of the reference
// one. Prepare reads the layer's chunk plan (custom_options or Model.metadata), validates it, and
// re-plans in memory for other hardware (one warning) or when the model has no plans. Invoke
// places weights and parameters in device memory once, sends the input, runs one job over the
// planned cores through the driver, and reads the output.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "hilsim/drv/driver.h"
#include "hilsim/rt/kernel.h"
#include "hilsim/rt/model.h"
#include "hilsim/rt/plan/chunk_plan.h"
#include "hilsim/rt/plan/predict.h"
#include "hilsim/timing/cpu_cost_model.h"

namespace hilsim::rt {

enum class OffloadMode : uint8_t {
  kAccel,    // offload every int8 layer that fits the hardware
  kAuto,     // offload where the plan's decision says it pays
  kCompare,  // run both ways, report both, check the outputs agree
};

// State shared by the accelerated kernels of one interpreter.
class AccelContext {
 public:
  AccelContext(drv::Driver& driver, plan::Hardware hardware, timing::PlatformTiming timing,
               CpuCostModel cpu, OffloadMode mode);

  // Reads the metadata carrier of `model` (if any). Throws ModelError if it is corrupt.
  void loadMetadataPlans(const Model& model);
  // The metadata plan of operator `index` of the first subgraph, or nullptr.
  const std::vector<uint8_t>* metadataPlan(int index) const;

  // Messages to show the user once per run, starting "note: " or "warning: ".
  void note(const std::string& message);
  const std::vector<std::string>& notes() const { return notes_; }
  // Accelerator jobs that failed (the layer was then computed on the CPU). Each message ends
  // with what `failure_context` (if set) says at the moment of the failure.
  void recordFailure(const std::string& message);
  const std::vector<std::string>& failures() const { return failures_; }
  void setFailureContext(std::function<std::string()> failure_context) {
    failure_context_ = std::move(failure_context);
  }

  drv::Driver& driver() { return driver_; }
  const plan::Hardware& hardware() const { return hardware_; }
  const timing::PlatformTiming& timing() const { return timing_; }
  const CpuCostModel& cpu() const { return cpu_; }
  OffloadMode mode() const { return mode_; }

 private:
  drv::Driver& driver_;
  plan::Hardware hardware_;
  timing::PlatformTiming timing_;
  CpuCostModel cpu_;
  OffloadMode mode_;
  std::map<int, std::vector<uint8_t>> metadata_plans_;
  std::vector<std::string> notes_;
  std::vector<std::string> failures_;
  std::function<std::string()> failure_context_;
};

std::unique_ptr<Kernel> makeFullyConnectedAccel(AccelContext& context);

}  // namespace hilsim::rt
