#include "hilsim/planner/layer_energy.h"

#include <algorithm>

#include "hilsim/planner/predict.h"

namespace hilsim::planner {
namespace {

uint64_t ceilDiv(uint64_t a, uint64_t b) {
  return b ? (a + b - 1) / b : 0;
}

// Bytes the array reads from SRAM as operands: every weight once, and the input once per fold
// of the output features over the array's columns (a depthwise convolution's channels are one
// feature each, so each input value is read once per MAC it feeds).
uint64_t operandReadBytes(const LayerWork& w, uint32_t array_cols) {
  if (!w.gemm) return 0;
  const GemmShape& g = *w.gemm;
  const uint64_t weights = uint64_t{g.k} * g.n;
  if (w.depthwise) return weights + w.macs;
  const uint64_t folds = ceilDiv(g.n, array_cols);
  return weights + uint64_t{g.rows} * g.k * folds;
}

}  // namespace

void LayerActions::add(const LayerActions& o) {
  macs += o.macs;
  sram_read_bytes += o.sram_read_bytes;
  sram_write_bytes += o.sram_write_bytes;
  dma_bytes += o.dma_bytes;
  bus_beats += o.bus_beats;
  system_memory_read_bytes += o.system_memory_read_bytes;
  system_memory_write_bytes += o.system_memory_write_bytes;
  register_accesses += o.register_accesses;
  cpu_active_cycles += o.cpu_active_cycles;
  cpu_sleep_cycles += o.cpu_sleep_cycles;
  flash_line_reads += o.flash_line_reads;
  ref_flash_line_reads += o.ref_flash_line_reads;
  simulated_ps += o.simulated_ps;
  if (core_busy_ps.size() < o.core_busy_ps.size()) core_busy_ps.resize(o.core_busy_ps.size());
  for (size_t c = 0; c < o.core_busy_ps.size(); ++c) core_busy_ps[c] += o.core_busy_ps[c];
}

LayerActions layerActions(const LayerWork& w, const timing::PlatformTiming& t,
                          bool with_accelerator) {
  const uint64_t cpu_ps = t.clocks.cpu_ps;
  LayerActions a;
  a.simulated_ps = w.cycles * cpu_ps;
  if (with_accelerator) a.core_busy_ps.assign(t.geometry.num_cores, 0);
  a.flash_line_reads = w.flash_line_reads;
  a.ref_flash_line_reads = w.ref_flash_line_reads;
  if (!w.accel) {
    a.cpu_active_cycles = w.cycles;
    return a;
  }
  const AccelBreakdown& b = *w.accel;
  a.cpu_sleep_cycles = std::min(b.sleep_cycles, w.cycles);
  a.cpu_active_cycles = w.cycles - a.cpu_sleep_cycles;
  a.macs = w.macs;
  const uint64_t host_bytes = b.host_input_bytes + b.host_output_bytes + b.upload_bytes;
  a.dma_bytes = b.bytes_moved > host_bytes ? b.bytes_moved - host_bytes : 0;
  const uint64_t stores = std::min(b.host_output_bytes, a.dma_bytes);  // the cores' outputs
  const uint64_t loads = a.dma_bytes - stores;  // input, weights, parameters, descriptors
  a.sram_write_bytes = loads + stores;          // DMA loads in, the array's results
  a.sram_read_bytes = operandReadBytes(w, t.geometry.array_cols) + stores;
  a.system_memory_read_bytes = loads + b.host_output_bytes;
  a.system_memory_write_bytes = stores + b.host_input_bytes + b.upload_bytes;
  a.register_accesses = b.register_accesses;
  a.bus_beats = ceilDiv(b.bytes_moved, t.bus.arbitration.bytes_per_cycle) + b.register_accesses;
  for (const CoreBusy& c : b.per_core)
    if (c.core < a.core_busy_ps.size())
      a.core_busy_ps[c.core] = std::min(c.busy_cycles * cpu_ps, a.simulated_ps);
  return a;
}

energy::ActionCounts actionCounts(const LayerActions& a, const timing::AccelGeometry& g) {
  energy::ActionCounts c;
  for (uint64_t busy : a.core_busy_ps) {
    energy::CoreActions core;
    core.sram_bytes = g.sram_bytes;
    core.pes = g.array_rows * g.array_cols;
    core.busy_ps = busy;
    c.cores.push_back(core);
  }
  if (!c.cores.empty()) {
    c.cores[0].macs = a.macs;
    c.cores[0].sram_read_bytes = a.sram_read_bytes;
    c.cores[0].sram_write_bytes = a.sram_write_bytes;
  }
  c.dma_bytes = a.dma_bytes;
  c.bus_beats = a.bus_beats;
  c.system_memory_read_bytes = a.system_memory_read_bytes;
  c.system_memory_write_bytes = a.system_memory_write_bytes;
  c.register_accesses = a.register_accesses;
  c.cpu_kernel_cycles = a.cpu_active_cycles;
  c.cpu_sleep_cycles = a.cpu_sleep_cycles;
  c.host_flash_line_reads = a.flash_line_reads;
  c.simulated_ps = a.simulated_ps;
  return c;
}

double refEnergyUj(uint64_t ref_cycles, uint64_t ref_flash_line_reads,
                   const energy::EnergyParams& params) {
  return static_cast<double>(ref_cycles) * params.host.runPjPerCycle() * 1e-6 +
         static_cast<double>(ref_flash_line_reads) * params.host.flash_line_read_pj * 1e-6;
}

energy::EnergyBreakdown accelEnergy(const Plan& plan, const AccelBreakdown& predicted,
                                    const timing::PlatformTiming& t,
                                    const energy::EnergyParams& params) {
  timing::PlatformTiming on_plan = t;
  on_plan.geometry = plan.hardware;
  LayerWork work;
  work.cycles = predicted.cycles();
  work.macs = plan.shape.macs();
  work.gemm = &plan.shape;
  work.depthwise = plan.kind == PlanKind::kDepthwiseConv2D;
  work.accel = &predicted;
  return energy::energyOf(actionCounts(layerActions(work, on_plan, true), plan.hardware), params);
}

EnergyPrediction predictEnergy(const Plan& plan, const timing::PlatformTiming& t,
                               uint64_t ref_cycles, const energy::EnergyParams& params) {
  EnergyPrediction e;
  e.accel = accelEnergy(plan, predictAccelerated(plan, t).breakdown, t, params);
  e.accel_uj = e.accel.totalUj();
  e.ref_uj = refEnergyUj(ref_cycles, 0, params);
  return e;
}

}  // namespace hilsim::planner
