#pragma once
// A layer's energy from what it does: its action counts (the accelerator's MACs, SRAM, DMA, bus,
// system memory and register traffic, the host's active and sleeping cycles) times the configured
// energy of each action (energy/energy.h). One source for the report, which counts what a run
// measured, and for the planner, which counts what it predicts; the objective of an offload
// decision (decision.h) compares the predicted energy of both paths.

#include <cstdint>
#include <vector>

#include "hilsim/energy/energy.h"
#include "hilsim/planner/chunk_plan.h"
#include "hilsim/planner/types.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::planner {

// The action counts of one layer invocation, or of several (they add up). Counts of the
// accelerator's cores are summed over the cores except the busy times, which static power with
// energy.power_gating needs per core.
struct LayerActions {
  uint64_t macs = 0;              // the accelerator's MACs (0 on the reference path)
  uint64_t sram_read_bytes = 0;   // the cores' SRAM: operand reads and DMA stores out
  uint64_t sram_write_bytes = 0;  // the cores' SRAM: DMA loads in and the array's results
  uint64_t dma_bytes = 0;         // bytes the cores' DMA moved
  uint64_t bus_beats = 0;         // beats of bus.width_bytes on the shared bus
  uint64_t system_memory_read_bytes = 0;
  uint64_t system_memory_write_bytes = 0;
  uint64_t register_accesses = 0;
  uint64_t cpu_active_cycles = 0;  // host cycles running kernels, the driver and copies
  uint64_t cpu_sleep_cycles = 0;   // host cycles asleep waiting for the accelerator
  // Host flash lines of model data the layer's path read (FlashStats::model_line_reads), where
  // the instruction-set simulator ran its reference kernel or the driver's job path; 0 under
  // the cost model and in predictions.
  uint64_t flash_line_reads = 0;
  // The same of the reference path (in ref_energy_uj, not in this layer's energy).
  uint64_t ref_flash_line_reads = 0;
  uint64_t simulated_ps = 0;           // the layer's time
  std::vector<uint64_t> core_busy_ps;  // per core; empty without an accelerator

  void add(const LayerActions& other);
};

// What a layer invocation did, measured or predicted.
struct LayerWork {
  uint64_t cycles = 0;  // host-clock cycles of the invocation
  uint64_t macs = 0;
  // The GEMM view (a convolution's: output pixels x window -> output channels); nullptr for an
  // operator without one.
  const GemmShape* gemm = nullptr;
  bool depthwise = false;  // a depthwise convolution: each input value feeds its MACs alone
  // The accelerated path's breakdown; nullptr on the reference path.
  const AccelBreakdown* accel = nullptr;
  // Model-data flash lines read by the layer's path and by its reference path (see LayerActions).
  uint64_t flash_line_reads = 0;
  uint64_t ref_flash_line_reads = 0;
};

// The counts of one layer invocation on a platform with `timing`'s clocks, bus and accelerator
// geometry. `with_accelerator`: the system has the accelerator, whose cores then leak over the
// layer's time.
LayerActions layerActions(const LayerWork& work, const timing::PlatformTiming& timing,
                          bool with_accelerator);
// The energy library's view of the counts: the summed counts on the first core.
energy::ActionCounts actionCounts(const LayerActions& actions,
                                  const timing::AccelGeometry& geometry);
// The reference path's energy: `ref_cycles` of the host running its kernel and the
// `ref_flash_line_reads` it made, on a system without the accelerator, in uJ.
double refEnergyUj(uint64_t ref_cycles, uint64_t ref_flash_line_reads,
                   const energy::EnergyParams& params);

// The predicted energy of both paths of a planned layer, in uJ: the accelerated invocation of
// predictAccelerated (weights in place) and the reference kernel's `ref_cycles`.
struct EnergyPrediction {
  double accel_uj = 0;
  double ref_uj = 0;
  energy::EnergyBreakdown accel;  // the accelerated invocation's components
};
EnergyPrediction predictEnergy(const Plan& plan, const timing::PlatformTiming& timing,
                               uint64_t ref_cycles, const energy::EnergyParams& params);
// The energy of a predicted accelerated invocation of `plan` (`predicted`: its breakdown, as
// predictAccelerated makes it) on a system with `timing`'s clocks and bus.
energy::EnergyBreakdown accelEnergy(const Plan& plan, const AccelBreakdown& predicted,
                                    const timing::PlatformTiming& timing,
                                    const energy::EnergyParams& params);

}  // namespace hilsim::planner
