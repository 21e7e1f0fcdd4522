#include "hilsim/report/energy.h"

#include <algorithm>

#include "hilsim/config/derived.h"

namespace hilsim::report {
namespace {

uint64_t ceilDiv(uint64_t a, uint64_t b) {
  return b ? (a + b - 1) / b : 0;
}

// Bytes the array reads from SRAM as operands: every weight once, and the input once per fold
// of the output features over the array's columns (a depthwise convolution's channels are one
// feature each, so each input value is read once per MAC it feeds).
uint64_t operandReadBytes(const rt::LayerRecord& r, const config::HardwareConfig& config) {
  const rt::GemmShape* g = r.conv ? &r.conv->gemm : (r.gemm ? &*r.gemm : nullptr);
  if (!g) return 0;
  const uint64_t weights = uint64_t{g->k} * g->n;
  if (r.conv && r.conv->depth_multiplier) return weights + r.macs;
  const uint64_t folds = ceilDiv(g->n, config.accel.core.array_cols);
  return weights + uint64_t{g->rows} * g->k * folds;
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

LayerActions layerActions(const rt::LayerRecord& r, const config::HardwareConfig& config,
                          bool with_accelerator) {
  const uint64_t cpu_ps = config::platformTiming(config).clocks.cpu_ps;
  LayerActions a;
  a.simulated_ps = r.cycles * cpu_ps;
  if (with_accelerator) a.core_busy_ps.assign(config.accel.num_cores, 0);
  // The model data the instruction-set simulator read from flash while the layer ran: its
  // reference kernel's or, on the accelerated path, the driver's job path's. In compare mode the
  // reference kernel ran beside the accelerated path too, and the reads are the reference
  // path's (the driver's job path reads no model data).
  const uint64_t model_reads = r.flash ? r.flash->model_line_reads : 0;
  const bool ref_executed = r.ref_cycles_source == rt::RefCyclesSource::kExecuted;
  if (ref_executed) a.ref_flash_line_reads = model_reads;
  a.flash_line_reads = r.accel && ref_executed ? 0 : model_reads;
  if (!r.accel) {
    a.cpu_active_cycles = r.cycles;
    return a;
  }
  const rt::AccelBreakdown& b = *r.accel;
  a.cpu_sleep_cycles = std::min(b.sleep_cycles, r.cycles);
  a.cpu_active_cycles = r.cycles - a.cpu_sleep_cycles;
  a.macs = r.macs;
  const uint64_t host_bytes = b.host_input_bytes + b.host_output_bytes + b.upload_bytes;
  a.dma_bytes = b.bytes_moved > host_bytes ? b.bytes_moved - host_bytes : 0;
  const uint64_t stores = std::min(b.host_output_bytes, a.dma_bytes);  // the cores' outputs
  const uint64_t loads = a.dma_bytes - stores;  // input, weights, parameters, descriptors
  a.sram_write_bytes = loads + stores;          // DMA loads in, the array's results
  a.sram_read_bytes = operandReadBytes(r, config) + stores;
  a.system_memory_read_bytes = loads + b.host_output_bytes;
  a.system_memory_write_bytes = stores + b.host_input_bytes + b.upload_bytes;
  a.register_accesses = b.register_accesses;
  const uint64_t beat_bytes =
      std::min<uint64_t>(config.bus.width_bytes, config.memory.bytes_per_cycle);
  a.bus_beats = ceilDiv(b.bytes_moved, beat_bytes) + b.register_accesses;
  for (const rt::CoreBusy& c : b.per_core)
    if (c.core < a.core_busy_ps.size())
      a.core_busy_ps[c.core] = std::min(c.busy_cycles * cpu_ps, a.simulated_ps);
  return a;
}

energy::ActionCounts actionCounts(const LayerActions& a, const config::HardwareConfig& config) {
  energy::ActionCounts c;
  for (uint64_t busy : a.core_busy_ps) {
    energy::CoreActions core;
    core.sram_bytes = config.accel.core.sram_bytes;
    core.pes = config.accel.core.array_rows * config.accel.core.array_cols;
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

energy::EnergyBreakdown energyOf(const LayerActions& a, const config::HardwareConfig& config) {
  return energy::energyOf(actionCounts(a, config), config.energy.params());
}

double refEnergyUj(uint64_t ref_cycles, uint64_t ref_flash_line_reads,
                   const config::HardwareConfig& config) {
  const energy::HostEnergyParams& host = config.energy.params().host;
  return static_cast<double>(ref_cycles) * host.runPjPerCycle() * 1e-6 +
         static_cast<double>(ref_flash_line_reads) * host.flash_line_read_pj * 1e-6;
}

energy::AcceleratorArea acceleratorArea(const config::HardwareConfig& config) {
  return energy::acceleratorArea(config::technology(config), config::acceleratorGeometry(config));
}

}  // namespace hilsim::report
