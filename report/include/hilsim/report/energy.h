#pragma once
// A layer's energy: its action counts (what the run did) times the configured energy of each
// action (energy.* config keys), through the energy library (energy/energy.h). The counts are in
// the report so that anyone can recompute every figure.

#include <cstdint>
#include <vector>

#include "hilsim/config/hardware_config.h"
#include "hilsim/energy/area.h"
#include "hilsim/energy/energy.h"
#include "hilsim/planner/layer_energy.h"
#include "hilsim/rt/layer_record.h"

namespace hilsim::report {

// The action counts of one layer invocation, or of several (they add up); the planner counts its
// predictions the same way (planner/layer_energy.h).
using planner::LayerActions;

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
