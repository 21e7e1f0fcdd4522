#pragma once
// Chunk plans as flatbuffers (schema/chunk_plan.fbs): one plan per FULLY_CONNECTED, CONV_2D or
// DEPTHWISE_CONV_2D operator, carried in the operator's custom_options, or all plans in
// Model.metadata as a PlanSet. FULLY_CONNECTED plans are written as version 1, convolution plans
// as version 2; both are read.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hilsim/planner/chunk_plan.h"
#include "hilsim/planner/decision.h"

namespace hilsim::planner {

constexpr uint16_t kPlanVersion = 1;      // FULLY_CONNECTED plans, and plan sets
constexpr uint16_t kPlanVersionConv = 2;  // convolution plans
constexpr const char* kPlanIdentifier = "HSCP";
constexpr const char* kPlanSetIdentifier = "HSPS";
constexpr const char* kMetadataName = "hilsim.chunk_plans";

// Whether offloading pays, and why: what `annotate` decided.
struct Decision {
  bool offload = false;
  uint64_t predicted_accel_cycles = 0;
  uint64_t predicted_ref_cycles = 0;
  uint64_t break_even_macs = 0;  // 0: no size of this shape family pays
  std::string policy;            // auto | all | none
  std::string reason;
  // What the auto policy minimized; cycles in plans written before plans recorded it. Under
  // energy and edp: the predicted energy of both paths (uJ) and the family's energy break-even
  // (0: no size pays); 0 under cycles.
  Objective objective = Objective::kCycles;
  double predicted_accel_energy_uj = 0;
  double predicted_ref_energy_uj = 0;
  uint64_t break_even_energy_macs = 0;
};

// The host CPU a decision was made for (schema table Cpu): what the planner assumed of the CPU
// beyond the cost coefficients. Driver figures are host-CPU cycles as the planner used them.
struct CpuAssumptions {
  std::string preset;   // cpu.preset
  std::string kernels;  // cpu.kernels: reference | optimized
  std::string model;    // cpu.model: iss | cost
  double clock_mhz = 0;
  uint64_t driver_job_cycles = 0;
  uint64_t driver_reg_cycles = 0;
  uint64_t irq_handler_cycles = 0;
  // cpu.firmware_opt: the firmware image's optimization level (O2 | Os); O2 in plans written
  // before plans recorded it.
  std::string firmware_opt = "O2";

  bool operator==(const CpuAssumptions& o) const {
    return preset == o.preset && kernels == o.kernels && model == o.model &&
           clock_mhz == o.clock_mhz && driver_job_cycles == o.driver_job_cycles &&
           driver_reg_cycles == o.driver_reg_cycles && irq_handler_cycles == o.irq_handler_cycles &&
           firmware_opt == o.firmware_opt;
  }
  bool operator!=(const CpuAssumptions& o) const { return !(*this == o); }
};

// "cortex-m55 at 400 MHz, reference kernels, cpu.model cost, driver 8000 cycles per job + 10 per
// register access + 400 per interrupt, firmware -O2".
std::string describeCpu(const CpuAssumptions& cpu);

struct AnnotatedPlan {
  Plan plan;
  Decision decision;
  // The CPU the decision was made for; nullopt in plans written before plans recorded it.
  std::optional<CpuAssumptions> cpu;
};

std::vector<uint8_t> encodePlan(const AnnotatedPlan& annotated);
// True if the bytes carry hilsim's plan identifier (they may still be corrupt).
bool hasPlanIdentifier(const uint8_t* data, size_t size);
// Verifies and decodes a plan. Throws ModelError saying what is wrong (without naming the op).
AnnotatedPlan decodePlan(const uint8_t* data, size_t size);

struct PlanEntry {
  uint32_t subgraph = 0;
  uint32_t operator_index = 0;
  std::vector<uint8_t> plan;  // an encoded ChunkPlan
};

std::vector<uint8_t> encodePlanSet(const std::vector<PlanEntry>& entries);
// Verifies and decodes the metadata carrier. Throws ModelError.
std::vector<PlanEntry> decodePlanSet(const uint8_t* data, size_t size);

// One line describing a plan, for `inspect` and messages.
std::string describePlan(const AnnotatedPlan& annotated);

}  // namespace hilsim::planner
