#pragma once
// A layer's energy: its action counts (what the run did) times the configured energy of each
// action (energy.* config keys), through the energy library (energy/energy.h). The counts are in
// the report so that anyone can recompute every figure.

#include <cstdint>
#include <vector>

#include "hilsim/config/hardware_config.h"
#include "hilsim/energy/area.h"
#include "hilsim/energy/energy.h"
#include "hilsim/rt/layer_record.h"

namespace hilsim::report {

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
  // the cost model.
  uint64_t flash_line_reads = 0;
  // The same of the reference path (in ref_energy_uj, not in this layer's energy): counted where
  // the reference cycles were executed (ref_cycles_source iss), else 0.
  uint64_t ref_flash_line_reads = 0;
  uint64_t simulated_ps = 0;           // the layer's time
  std::vector<uint64_t> core_busy_ps;  // per core; empty without an accelerator

  void add(const LayerActions& other);
};

// The counts of one layer invocation. `with_accelerator`: the run's system has the accelerator
// (every mode but ref), whose cores then leak over the layer's time.
LayerActions layerActions(const rt::LayerRecord& record, const config::HardwareConfig& config,
                          bool with_accelerator);
// The energy library's view of the counts: the summed counts on the first core.
energy::ActionCounts actionCounts(const LayerActions& actions,
                                  const config::HardwareConfig& config);
energy::EnergyBreakdown energyOf(const LayerActions& actions, const config::HardwareConfig& config);
// The reference path's energy: `ref_cycles` of the host running its kernel and the
// `ref_flash_line_reads` it made, on a system without the accelerator, in uJ.
double refEnergyUj(uint64_t ref_cycles, uint64_t ref_flash_line_reads,
                   const config::HardwareConfig& config);
// The accelerator's area at the configured technology.
energy::AcceleratorArea acceleratorArea(const config::HardwareConfig& config);

}  // namespace hilsim::report
