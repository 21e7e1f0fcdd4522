// The report as CSV (--csv): one row per kept layer record, one busy/utilization column pair
// per core.

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
         "bus_stall_cycles,bytes_moved,mac_utilization,break_even_macs";
  for (uint32_t c = 0; c < num_cores; ++c)
    out << ",core" << c << "_busy_cycles,core" << c << "_utilization";
  out << ",energy_uj,ref_energy_uj";
  for (const auto& component : energy::EnergyBreakdown{}.components())
    out << ",energy_" << component.first << "_uj";
  out << '\n';
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
    out << '\n';
  }
  return out.str();
}

}  // namespace hilsim::report
