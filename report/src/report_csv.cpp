// The report as CSV (--csv): one row per kept layer record, one busy/utilization column pair
// per core. Every numeric column's name ends in its unit (_cycles, _bytes, _uj, _macs, _percent,
// _fraction for 0..1).

#include <map>
#include <sstream>

#include "hilsim/report/csv.h"
#include "hilsim/report/report.h"
#include "hilsim/rt/model.h"

namespace hilsim::report {

std::string reportCsv(const RunReport& report) {
  const uint32_t num_cores = report.config.accel.num_cores;
  std::ostringstream out;
  out << "invocation,index,op,name,shape,macs,path,reason,cycles,ref_cycles,fixed_cycles,"
         "variable_cycles,upload_cycles,dma_in_cycles,compute_cycles,dma_out_cycles,sync_cycles,"
         "bus_stall_cycles,bytes_moved,mac_utilization_fraction,break_even_macs,cycles_percent";
  for (uint32_t c = 0; c < num_cores; ++c)
    out << ",core" << c << "_busy_cycles,core" << c << "_utilization_fraction";
  out << ",energy_uj,ref_energy_uj";
  for (const auto& component : energy::EnergyBreakdown{}.components())
    out << ",energy_" << component.first << "_uj";
  // The run's memory figures, the same on every row (JSON simulation.memory).
  out << ",arena_bytes,flash_bytes,device_memory_peak_bytes";
  for (uint32_t c = 0; c < num_cores; ++c) out << ",core" << c << "_sram_peak_bytes";
  out << '\n';
  const MemoryFootprint& memory = report.memory;
  std::ostringstream memory_columns;
  memory_columns << ',' << memory.arena.totalBytes() << ',' << memory.flashBytes() << ','
                 << memory.device_memory_peak_bytes;
  for (uint32_t c = 0; c < num_cores; ++c)
    memory_columns << ','
                   << (c < memory.core_sram_peak_bytes.size() ? memory.core_sram_peak_bytes[c] : 0);
  // Each layer's share of the run's cycles, from its figures over every invocation.
  std::map<int, double> percent;
  for (const LayerStats& s : report.layer_stats) percent[s.first.index] = report.cyclesPercent(s);
  for (const rt::LayerRecord& r : report.layers) {
    out << r.invocation << ',' << r.index << ',' << rt::opName(r.op) << ',' << csvField(r.name)
        << ',' << csvField(shapeText(r)) << ',' << r.macs << ',' << rt::pathName(r.path) << ','
        << csvField(r.reason) << ',' << r.cycles << ',' << r.ref_cycles << ',';
    if (r.accel) {
      const rt::AccelBreakdown& a = *r.accel;
      out << a.fixed_cycles << ',' << a.variable_cycles << ',' << a.upload_cycles << ','
          << a.dma_in_cycles << ',' << a.compute_cycles << ',' << a.dma_out_cycles << ','
          << a.sync_cycles << ',' << a.bus_stall_cycles << ',' << a.bytes_moved << ','
          << csvNumber(a.mac_utilization) << ',';
    } else {
      out << ",,,,,,,,,,";
    }
    if (r.break_even_macs) out << *r.break_even_macs;
    out << ',' << csvNumber(percent[r.index]);
    // Every core of the accelerator: a core without a chunk of this layer was idle (0).
    for (uint32_t c = 0; c < num_cores; ++c) {
      out << ',';
      if (!r.accel) {
        out << ',';
        continue;
      }
      rt::CoreBusy busy;
      for (const rt::CoreBusy& b : r.accel->per_core)
        if (b.core == c) busy = b;
      out << busy.busy_cycles << ',' << csvNumber(busy.utilization);
    }
    const energy::EnergyBreakdown e =
        energyOf(layerActions(r, report.config, report.with_accelerator), report.config);
    out << ',' << csvNumber(e.totalUj()) << ','
        << csvNumber(refEnergyUj(r.ref_cycles, report.config));
    for (const auto& component : e.components()) out << ',' << csvNumber(component.second);
    out << memory_columns.str() << '\n';
  }
  return out.str();
}

}  // namespace hilsim::report
