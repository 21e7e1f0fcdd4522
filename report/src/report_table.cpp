// The printed per-layer table, its totals, compare and idle-core lines and the summary by op
// type.

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>

#include "hilsim/report/report.h"
#include "hilsim/rt/model.h"

namespace hilsim::report {
namespace {

std::string withCommas(uint64_t v) {
  std::string digits = std::to_string(v);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// The reason text cut to `width` columns ("..." marks the cut); whole when width is 0.
std::string fitted(const std::string& text, size_t width) {
  if (width == 0 || text.size() <= width) return text;
  constexpr size_t kMinimum = 24;  // a cut reason still says what it is about
  width = std::max(width, kMinimum);
  return text.substr(0, width - 3) + "...";
}

// Where the CPU cycles in the table come from.
std::string cpuCyclesSource(const RunReport& report) {
  const config::CpuConfig& cpu = report.config.cpu;
  if (cpu.model == config::CpuModel::kIss)
    return "CPU cycles executed on the ISS, flash " + std::to_string(cpu.memory.flash_wait_states) +
           " / SRAM " + std::to_string(cpu.memory.sram_wait_states) + " wait states, firmware -" +
           config::toString(cpu.firmware_opt);
  return "CPU cycles from the cost model (" + cpu.preset + " coefficients, driver " +
         std::to_string(cpu.driver_job_cycles) + " cycles per job)";
}

// "memory: ..." and, when layers could not get device memory, one line that says how many.
void printMemory(std::ostream& out, const RunReport& report) {
  const MemoryFootprint& m = report.memory;
  const rt::ArenaFootprint& a = m.arena;
  const config::McuConfig& budget = report.config.mcu;
  out << "memory: arena " << withCommas(a.totalBytes()) << " bytes (activations "
      << withCommas(a.activation_bytes) << ", persistent " << withCommas(a.persistent_bytes)
      << ", runtime " << withCommas(a.runtime_bytes) << ", quantization "
      << withCommas(a.quantization_bytes) << ")";
  if (budget.sram_bytes) out << " of " << withCommas(budget.sram_bytes) << " SRAM";
  out << ", flash " << withCommas(m.flashBytes()) << " bytes (model " << withCommas(m.model_bytes);
  if (m.firmware_bytes) out << ", firmware " << withCommas(*m.firmware_bytes);
  out << ")";
  if (budget.flash_bytes) out << " of " << withCommas(budget.flash_bytes);
  if (m.device_memory_bytes) {
    out << ", device memory peak " << withCommas(m.device_memory_peak_bytes) << " of "
        << withCommas(m.device_memory_bytes) << " bytes, core SRAM peak ";
    for (size_t c = 0; c < m.core_sram_peak_bytes.size(); ++c)
      out << (c ? " / " : "") << withCommas(m.core_sram_peak_bytes[c]);
    out << " of " << withCommas(report.config.accel.core.sram_bytes) << " bytes";
  }
  out << "\n";
  if (const uint32_t full = report.layersWithoutDeviceMemory())
    out << "device memory full: " << full << (full == 1 ? " layer" : " layers")
        << " ran on the CPU because the device memory left could not hold "
        << (full == 1 ? "its" : "their") << " buffers\n";
}

}  // namespace

void printReport(std::ostream& out, const RunReport& report, const TableOptions& options) {
  const uint32_t runs = std::max<uint32_t>(report.invocations, 1);
  // Per layer: mean over invocations.
  struct Row {
    const rt::LayerRecord* first = nullptr;
    uint64_t cycles = 0, ref_cycles = 0;
    uint32_t accel_runs = 0;
    double percent = 0.0;                     // of the run's cycles
    double energy_uj = 0, ref_energy_uj = 0;  // summed over the invocations
  };
  std::map<int, Row> rows;
  for (const LayerStats& s : report.layer_stats)
    rows[s.first.index] = {
        &s.first,
        s.cycles_sum,
        s.ref_cycles_sum,
        s.accel_invocations,
        report.cyclesPercent(s),
        energyOf(s.actions_sum, report.config).totalUj(),
        refEnergyUj(s.ref_cycles_sum, s.actions_sum.ref_flash_line_reads, report.config)};
  // --wide adds each layer's energy and its reference path's, in uJ.
  const bool energy_columns = options.max_columns == 0;
  size_t shape_width = 5, op_width = 2;
  for (const auto& [index, row] : rows) {
    shape_width = std::max(shape_width, shapeText(*row.first).size());
    op_width = std::max(op_width, std::string(rt::opName(row.first->op)).size());
  }
  char line[512];
  out << "model " << report.model_path << "  mode " << report.mode << "  config "
      << report.config_source << "  cpu " << report.config.cpu.preset << " @ "
      << fixed(report.config.cpu.clock_mhz, 0) << " MHz, "
      << config::toString(report.config.cpu.kernels) << " kernels  accel "
      << report.config.accel.num_cores << " cores\n"
      << cpuCyclesSource(report) << "\n";
  if (runs > 1) out << "per-layer cycles are the mean of " << runs << " invocations\n";
  std::snprintf(line, sizeof line, "%4s  %-*s  %-*s  %12s  %-5s  %12s  %6s  %12s  %7s  ", "#",
                static_cast<int>(op_width), "op", static_cast<int>(shape_width), "shape", "MACs",
                "path", "cycles", "cyc%", "ref_cycles", "speedup");
  out << line;
  if (energy_columns) {
    std::snprintf(line, sizeof line, "%11s  %11s  ", "energy_uJ", "ref_uJ");
    out << line;
  }
  out << "reason\n";
  // Columns before the reason: index, op, shape, MACs, path, cycles, share of the cycles,
  // ref_cycles and speed-up with their two-space separators.
  const size_t reason_column =
      4 + 2 + op_width + 2 + shape_width + 2 + 12 + 2 + 5 + 2 + 12 + 2 + 6 + 2 + 12 + 2 + 7 + 2;
  const size_t reason_width =
      options.max_columns == 0
          ? 0
          : (options.max_columns > reason_column ? options.max_columns - reason_column : 1);
  for (const auto& [index, row] : rows) {
    const rt::LayerRecord& r = *row.first;
    const uint64_t cycles = (row.cycles + runs / 2) / runs;
    const uint64_t ref = (row.ref_cycles + runs / 2) / runs;
    const std::string path = row.accel_runs == 0      ? "ref"
                             : row.accel_runs == runs ? "accel"
                                                      : "mixed";
    std::snprintf(
        line, sizeof line, "%4d  %-*s  %-*s  %12s  %-5s  %12s  %5s%%  %12s  %6sx  ", index,
        static_cast<int>(op_width), rt::opName(r.op), static_cast<int>(shape_width),
        shapeText(r).c_str(), withCommas(r.macs).c_str(), path.c_str(), withCommas(cycles).c_str(),
        fixed(row.percent, 1).c_str(), withCommas(ref).c_str(),
        fixed(cycles ? static_cast<double>(ref) / static_cast<double>(cycles) : 0.0, 2).c_str());
    out << line;
    if (energy_columns) {
      std::snprintf(line, sizeof line, "%11s  %11s  ", fixed(row.energy_uj / runs, 3).c_str(),
                    fixed(row.ref_energy_uj / runs, 3).c_str());
      out << line;
    }
    out << fitted(r.reason, reason_width) << "\n";
  }
  const Totals t = report.totals();
  const uint64_t total_per_run = t.cycles;
  const uint64_t ref_per_run = t.ref_cycles;
  out << "total: " << withCommas(total_per_run) << " cycles per invocation ("
      << fixed(t.seconds * 1e3, 3) << " ms at " << fixed(report.config.cpu.clock_mhz, 0)
      << " MHz), reference path " << withCommas(ref_per_run) << " cycles, speed-up "
      << fixed(total_per_run ? static_cast<double>(ref_per_run) / static_cast<double>(total_per_run)
                             : 0.0,
               2)
      << "x over ref, " << withCommas(t.macs) << " MACs\n";
  printMemory(out, report);
  // Two lines, each within the default 160 columns.
  out << "energy: " << fixed(t.energy_uj, 3) << " uJ per invocation, reference path "
      << fixed(t.ref_energy_uj, 3) << " uJ, average power "
      << fixed(t.seconds > 0 ? t.energy_uj / t.seconds * 1e-3 : 0.0, 2) << " mW";
  if (report.with_accelerator)
    out << ", accelerator " << fixed(acceleratorArea(report.config).totalMm2(), 3) << " mm2 at "
        << energy::techNodeName(report.config.energy.preset);
  out << "\nenergy by component (uJ):";
  for (const auto& component : t.energy.components())
    if (component.second != 0.0) out << " " << component.first << " " << fixed(component.second, 3);
  out << "\n";
  if (const std::optional<CompareSummary> compare = report.compareSummary()) {
    if (compare->checks == 0)
      out << "compare: no layer ran on the accelerator, nothing was compared\n";
    else
      out << "compare: the accelerated and reference outputs matched byte for byte: "
          << compare->layers << (compare->layers == 1 ? " layer, " : " layers, ")
          << withCommas(compare->checks) << " layer invocations, " << withCommas(compare->bytes)
          << " bytes compared\n";
  }
  for (const auto& [index, row] : rows) {
    const IdleCores idle = idleCores(*row.first, report.config);
    if (idle.cores.empty()) continue;
    out << "idle cores: layer " << index << " (" << shapeText(*row.first) << "): core"
        << (idle.cores.size() == 1 ? " " : "s ") << coreList(idle.cores) << ": " << idle.why
        << "\n";
  }

  // Summary by op type, in the manner of TFLite's benchmark_model.
  struct OpSum {
    uint64_t count = 0, cycles = 0;
  };
  std::map<std::string, OpSum> by_op;
  for (const auto& [index, row] : rows) {
    OpSum& s = by_op[rt::opName(row.first->op)];
    ++s.count;
    s.cycles += row.cycles;
  }
  std::vector<std::pair<std::string, OpSum>> sorted(by_op.begin(), by_op.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second.cycles > b.second.cycles; });
  out << "summary by op type:\n";
  std::snprintf(line, sizeof line, "  %-*s  %5s  %12s  %7s  %7s\n", static_cast<int>(op_width),
                "op", "count", "cycles", "%", "cdf%");
  out << line;
  double cumulative = 0.0;
  const uint64_t run_cycles = report.runTotals().cycles;  // the op sums are over the run too
  for (const auto& [name, s] : sorted) {
    const double share =
        run_cycles ? 100.0 * static_cast<double>(s.cycles) / static_cast<double>(run_cycles) : 0.0;
    cumulative += share;
    std::snprintf(line, sizeof line, "  %-*s  %5" PRIu64 "  %12s  %6s%%  %6s%%\n",
                  static_cast<int>(op_width), name.c_str(), s.count,
                  withCommas((s.cycles + runs / 2) / runs).c_str(), fixed(share, 1).c_str(),
                  fixed(cumulative, 1).c_str());
    out << line;
  }
}

}  // namespace hilsim::report
