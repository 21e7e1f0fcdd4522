// The report as CSV (--csv): one row per kept layer record, one busy/utilization column pair
// per core. Every numeric column's name starts or ends with its unit (_cycles, _bytes, _uj,
// _macs, _percent, _fraction for 0..1).

#include <map>
#include <sstream>

#include "hilsim/base/io.h"
#include "hilsim/report/csv.h"
#include "hilsim/report/per_invocation.h"
#include "hilsim/report/report.h"
#include "hilsim/rt/model.h"

namespace hilsim::report {
namespace {

std::string header(uint32_t num_cores) {
  std::ostringstream out;
  out << "invocation,index,op,name,shape,macs,path,reason,cycles,ref_cycles,fixed_cycles,"
         "variable_cycles,upload_cycles,dma_in_cycles,compute_cycles,dma_out_cycles,sync_cycles,"
         "bus_stall_cycles,bytes_moved,mac_utilization_fraction,break_even_macs,cycles_percent";
  for (uint32_t c = 0; c < num_cores; ++c)
    out << ",core" << c << "_busy_cycles,core" << c << "_utilization_fraction";
  out << ",energy_uj,ref_energy_uj,break_even_energy_macs";
  for (const auto& component : energy::EnergyBreakdown{}.components())
    out << ",energy_" << component.first << "_uj";
  // The run's memory figures, the same on every row (JSON simulation.memory).
  out << ",arena_bytes,flash_bytes,device_memory_peak_bytes";
  for (uint32_t c = 0; c < num_cores; ++c) out << ",core" << c << "_sram_peak_bytes";
  out << ",area_mm2";  // the accelerator's (JSON simulation.area_mm2.total); empty in ref mode
  out << '\n';
  return out.str();
}

// The run's memory columns and the accelerator's area, each after a comma.
std::string memoryColumns(const RunReport& report) {
  const MemoryFootprint& memory = report.memory;
  std::ostringstream out;
  out << ',' << memory.arena.totalBytes() << ',' << memory.flashBytes() << ','
      << memory.device_memory_peak_bytes;
  for (uint32_t c = 0; c < report.config.accel.num_cores; ++c)
    out << ',' << (c < memory.core_sram_peak_bytes.size() ? memory.core_sram_peak_bytes[c] : 0);
  out << ',';
  if (report.with_accelerator) out << csvNumber(acceleratorArea(report.config).totalMm2());
  return out.str();
}

// A record's row without the run-wide columns: `head` up to break_even_macs, `tail` from the
// first core's columns to the energy components (the energy break-even among them), each column
// after a comma.
struct RowParts {
  std::string head, tail;
};

RowParts rowParts(const rt::LayerRecord& r, const config::HardwareConfig& config,
                  bool with_accelerator) {
  std::ostringstream out;
  out << r.invocation << ',' << r.index << ',' << rt::opName(r.op) << ',' << csvField(r.name) << ','
      << csvField(shapeText(r)) << ',' << r.macs << ',' << rt::pathName(r.path) << ','
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
  RowParts parts;
  parts.head = out.str();
  out.str("");
  // Every core of the accelerator: a core without a chunk of this layer was idle (0).
  for (uint32_t c = 0; c < config.accel.num_cores; ++c) {
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
  const LayerActions actions = layerActions(r, config, with_accelerator);
  const energy::EnergyBreakdown e = energyOf(actions, config);
  out << ',' << csvNumber(e.totalUj()) << ','
      << csvNumber(refEnergyUj(r.ref_cycles, actions.ref_flash_line_reads, config)) << ',';
  if (r.break_even_energy_macs) out << *r.break_even_energy_macs;
  for (const auto& component : e.components()) out << ',' << csvNumber(component.second);
  parts.tail = out.str();
  return parts;
}

// Each layer's share of the run's cycles, from its figures over every invocation.
std::map<int, double> cyclesPercentByLayer(const RunReport& report) {
  std::map<int, double> percent;
  for (const LayerStats& s : report.layer_stats) percent[s.first.index] = report.cyclesPercent(s);
  return percent;
}

}  // namespace

std::string reportCsv(const RunReport& report) {
  std::string out = header(report.config.accel.num_cores);
  const std::string memory = memoryColumns(report);
  std::map<int, double> percent = cyclesPercentByLayer(report);
  for (const rt::LayerRecord& r : report.layers) {
    const RowParts parts = rowParts(r, report.config, report.with_accelerator);
    out += parts.head + ',' + csvNumber(percent[r.index]) + parts.tail + memory + '\n';
  }
  return out;
}

PerInvocationWriter::PerInvocationWriter(const config::HardwareConfig& config,
                                         bool with_accelerator, bool json, bool csv)
    : config_(config), with_accelerator_(with_accelerator) {
  if (json) json_.emplace();
  if (csv) csv_.emplace();
}

void PerInvocationWriter::add(const rt::LayerRecord& record) {
  ++records_;
  if (json_) addJson(record);
  if (csv_) addCsv(record);
}

void PerInvocationWriter::addCsv(const rt::LayerRecord& record) {
  const RowParts parts = rowParts(record, config_, with_accelerator_);
  csv_->putU64(static_cast<uint64_t>(static_cast<int64_t>(record.index)));
  csv_->putString(parts.head);
  csv_->putString(parts.tail);
  csv_->endRecord();
}

void PerInvocationWriter::writeCsv(const RunReport& report, const std::string& path) {
  AtomicFileWriter file(path);
  const std::string head = header(report.config.accel.num_cores);
  file.write(head.data(), head.size());
  const std::string memory = memoryColumns(report);
  std::map<int, double> percent = cyclesPercentByLayer(report);
  csv_->rewind();
  for (uint64_t i = 0; i < csv_->records(); ++i) {
    const int index = static_cast<int>(static_cast<int64_t>(csv_->getU64()));
    std::string row = csv_->getString();
    row += ',' + csvNumber(percent[index]);
    row += csv_->getString();
    row += memory;
    row += '\n';
    file.write(row.data(), row.size());
  }
  file.commit();
}

}  // namespace hilsim::report
