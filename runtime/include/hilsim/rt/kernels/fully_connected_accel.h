#pragma once
// The accelerated FULLY_CONNECTED kernel, registered in the resolver in place of the reference
// one, and the context every accelerated kernel (this one, kernels/conv_accel.h) shares. Prepare
// reads the layer's chunk plan (plan/annotation.h), re-plans in memory for other hardware or
// another host CPU (one warning) or when the model has none, and decides the layer's path
// (plan/decision.h). Invoke places weights and parameters in device memory once, sends the input,
// runs one job over the planned cores through the driver, and reads the output.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hilsim/drv/driver.h"
#include "hilsim/energy/energy_params.h"
#include "hilsim/planner/chunk_plan.h"
#include "hilsim/planner/decision.h"
#include "hilsim/rt/annotation.h"
#include "hilsim/rt/kernel.h"
#include "hilsim/rt/model.h"
#include "hilsim/timing/cpu_cost_model.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::rt {

using planner::OffloadMode;

// An accelerator job that failed; the driver soft-reset the device and the layer was computed on
// the CPU instead.
struct JobFailure {
  uint32_t invocation = 0;
  int op_index = -1;
  drv::Status status = drv::Status::kOk;
  std::string detail;                  // the driver's account: the status registers
  std::string transaction;             // the bus transaction that explains the failure, if known
  std::string op = "FULLY_CONNECTED";  // the operator's builtin name
  // "<status>: <detail>", as the layer's reason says.
  std::string cause() const;
  // "operator 3 (FULLY_CONNECTED): timeout: ...; last transaction: ...".
  std::string describe() const;
};

// State shared by the accelerated kernels of one interpreter.
class AccelContext {
 public:
  // `cpu_assumptions`: the host CPU this run plans for; an annotation made for another one (or
  // that does not say) is re-planned.
  AccelContext(drv::Driver& driver, planner::Hardware hardware, timing::PlatformTiming timing,
               timing::CpuCostModel cpu, planner::CpuAssumptions cpu_assumptions, OffloadMode mode);

  // Reads the metadata carrier of `model` (if any). Throws ModelError if it is corrupt.
  void loadMetadataPlans(const Model& model);
  const MetadataPlans& metadataPlans() const { return metadata_plans_; }

  // Messages to show the user once per run, starting "note: " or "warning: ".
  void note(const std::string& message);
  const std::vector<std::string>& notes() const { return notes_; }
  // Reserves `bytes` of device memory for a layer at prepare (its buffers are allocated at its
  // first invocation); false, reserving nothing, when fewer than `bytes` are left.
  bool reserveDeviceMemory(uint64_t bytes);
  // Device memory not yet reserved by reserveDeviceMemory().
  uint64_t deviceMemoryLeft() const;
  // Device memory reserved so far: the layers' buffers stay for the interpreter's lifetime, so
  // this is also the peak.
  uint64_t deviceMemoryReserved() const { return reserved_bytes_; }
  // Records that an offloaded layer uses `bytes` of core `core`'s SRAM during its jobs.
  void recordCoreSram(uint32_t core, uint64_t bytes);
  // Per core, the most SRAM any offloaded layer used (one entry per accelerator core).
  const std::vector<uint64_t>& coreSramPeak() const { return core_sram_peak_; }
  // Accelerator jobs that failed, in order.
  void recordFailure(JobFailure failure);
  const std::vector<JobFailure>& failures() const { return failures_; }
  // Tells, at the moment of a failure, which bus transaction explains it (the platform knows).
  void setTransactionDescriber(std::function<std::string()> describer) {
    describe_transaction_ = std::move(describer);
  }

  drv::Driver& driver() { return driver_; }
  const planner::Hardware& hardware() const { return hardware_; }
  const timing::PlatformTiming& timing() const { return timing_; }
  const timing::CpuCostModel& cpu() const { return cpu_; }
  const planner::CpuAssumptions& cpuAssumptions() const { return cpu_assumptions_; }
  OffloadMode mode() const { return mode_; }

  // The energy model (the configured energy.* parameters) and the objective of layers planned at
  // run time without an annotation (an annotated layer re-planned for this run keeps the
  // objective its plan stored). Without energy parameters only the cycles objective decides, and
  // no energy break-even is reported.
  void setEnergy(const energy::EnergyParams& params, planner::Objective objective) {
    energy_params_ = params;
    objective_ = objective;
  }
  const std::optional<energy::EnergyParams>& energyParams() const { return energy_params_; }
  planner::Objective objective() const { return objective_; }

 private:
  drv::Driver& driver_;
  planner::Hardware hardware_;
  timing::PlatformTiming timing_;
  timing::CpuCostModel cpu_;
  planner::CpuAssumptions cpu_assumptions_;
  OffloadMode mode_;
  std::optional<energy::EnergyParams> energy_params_;
  planner::Objective objective_ = planner::Objective::kCycles;
  MetadataPlans metadata_plans_;
  std::vector<std::string> notes_;
  std::vector<JobFailure> failures_;
  uint64_t reserved_bytes_ = 0;
  std::vector<uint64_t> core_sram_peak_;
  std::function<std::string()> describe_transaction_;
};

std::unique_ptr<Kernel> makeFullyConnectedAccel(AccelContext& context);

}  // namespace hilsim::rt
