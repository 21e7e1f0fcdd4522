#include "hilsim/report/energy.h"

#include "hilsim/config/derived.h"

namespace hilsim::report {

LayerActions layerActions(const rt::LayerRecord& r, const config::HardwareConfig& config,
                          bool with_accelerator) {
  planner::LayerWork work;
  work.cycles = r.cycles;
  work.macs = r.macs;
  work.gemm = r.conv ? &r.conv->gemm : (r.gemm ? &*r.gemm : nullptr);
  work.depthwise = r.conv && r.conv->depth_multiplier;
  work.accel = r.accel ? &*r.accel : nullptr;
  return planner::layerActions(work, config::platformTiming(config), with_accelerator);
}

energy::ActionCounts actionCounts(const LayerActions& a, const config::HardwareConfig& config) {
  return planner::actionCounts(a, config::accelGeometry(config));
}

energy::EnergyBreakdown energyOf(const LayerActions& a, const config::HardwareConfig& config) {
  return energy::energyOf(actionCounts(a, config), config.energy.params());
}

double refEnergyUj(uint64_t ref_cycles, const config::HardwareConfig& config) {
  return planner::refEnergyUj(ref_cycles, config.energy.params());
}

energy::AcceleratorArea acceleratorArea(const config::HardwareConfig& config) {
  return energy::acceleratorArea(config::technology(config), config::acceleratorGeometry(config));
}

}  // namespace hilsim::report
