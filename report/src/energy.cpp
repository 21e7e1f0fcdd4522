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
  // The model data the instruction-set simulator read from flash while the layer ran: its
  // reference kernel's or, on the accelerated path, the driver's job path's. In compare mode the
  // reference kernel ran beside the accelerated path too, and the reads are the reference
  // path's (the driver's job path reads no model data).
  const uint64_t model_reads = r.flash ? r.flash->model_line_reads : 0;
  const bool ref_executed = r.ref_cycles_source == rt::RefCyclesSource::kExecuted;
  if (ref_executed) work.ref_flash_line_reads = model_reads;
  work.flash_line_reads = r.accel && ref_executed ? 0 : model_reads;
  return planner::layerActions(work, config::platformTiming(config), with_accelerator);
}

energy::ActionCounts actionCounts(const LayerActions& a, const config::HardwareConfig& config) {
  return planner::actionCounts(a, config::accelGeometry(config));
}

energy::EnergyBreakdown energyOf(const LayerActions& a, const config::HardwareConfig& config) {
  return energy::energyOf(actionCounts(a, config), config.energy.params());
}

double refEnergyUj(uint64_t ref_cycles, uint64_t ref_flash_line_reads,
                   const config::HardwareConfig& config) {
  return planner::refEnergyUj(ref_cycles, ref_flash_line_reads, config.energy.params());
}

energy::AcceleratorArea acceleratorArea(const config::HardwareConfig& config) {
  return energy::acceleratorArea(config::technology(config), config::acceleratorGeometry(config));
}

}  // namespace hilsim::report
