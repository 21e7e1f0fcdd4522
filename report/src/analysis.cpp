// What the report works out from the collected records: totals, the compare summary, idle cores
// and the shape text every writer shows.

#include <algorithm>
#include <set>

#include "hilsim/config/derived.h"
#include "hilsim/planner/chunk_plan.h"
#include "hilsim/report/report.h"
#include "hilsim/rt/model.h"

namespace hilsim::report {

std::string shapeText(const rt::LayerRecord& r) {
  if (r.gemm)
    return std::to_string(r.gemm->rows) + "x" + std::to_string(r.gemm->k) + "->" +
           std::to_string(r.gemm->n);
  std::string text;
  if (r.conv) {
    const rt::ConvShape& c = *r.conv;
    text = rt::shapeString(c.input) + "->" + rt::shapeString(c.output) + " " +
           std::to_string(c.filter.size() > 2 ? c.filter[1] : 0) + "x" +
           std::to_string(c.filter.size() > 2 ? c.filter[2] : 0) + " s" +
           std::to_string(c.stride_h) +
           (c.stride_w != c.stride_h ? "x" + std::to_string(c.stride_w) : std::string());
    if (c.dilation_h != 1 || c.dilation_w != 1)
      text += " d" + std::to_string(c.dilation_h) + "x" + std::to_string(c.dilation_w);
    return text + " " + c.padding + " " + std::to_string(c.gemm.rows) + "x" +
           std::to_string(c.gemm.k) + "->" + std::to_string(c.gemm.n);
  }
  for (const rt::Shape& s : r.input_shapes) text += (text.empty() ? "" : ",") + rt::shapeString(s);
  text += "->";
  for (size_t i = 0; i < r.output_shapes.size(); ++i)
    text += (i ? "," : "") + rt::shapeString(r.output_shapes[i]);
  return text;
}

Totals RunReport::totals() const {
  const uint64_t runs = std::max<uint32_t>(invocations, 1);
  auto mean = [runs](uint64_t sum) { return (sum + runs / 2) / runs; };
  const Totals sums = runTotals();
  Totals t;
  t.cycles = mean(sums.cycles);
  t.accel_cycles = mean(sums.accel_cycles);
  t.cpu_cycles = mean(sums.cpu_cycles);
  t.ref_cycles = mean(sums.ref_cycles);
  t.macs = mean(sums.macs);
  t.seconds = sums.seconds / static_cast<double>(runs);
  const double n = static_cast<double>(runs);
  energy::EnergyBreakdown& e = t.energy;
  e.cpu_active_uj = sums.energy.cpu_active_uj / n;
  e.cpu_sleep_uj = sums.energy.cpu_sleep_uj / n;
  e.flash_uj = sums.energy.flash_uj / n;
  e.cpu_sram_uj = sums.energy.cpu_sram_uj / n;
  e.mac_uj = sums.energy.mac_uj / n;
  e.sram_uj = sums.energy.sram_uj / n;
  e.dma_bus_uj = sums.energy.dma_bus_uj / n;
  e.system_memory_uj = sums.energy.system_memory_uj / n;
  e.static_uj = sums.energy.static_uj / n;
  t.energy_uj = e.totalUj();
  t.ref_energy_uj = sums.ref_energy_uj / n;
  return t;
}

std::optional<CompareSummary> RunReport::compareSummary() const {
  if (mode != "compare") return std::nullopt;
  CompareSummary s;
  std::set<int> compared;
  for (const LayerStats& l : layer_stats) {
    // In compare mode every invocation of an offloaded layer that completed on the accelerator
    // was checked; a layer that fell back to the CPU (no device memory, a failed job) has
    // another reason.
    const rt::LayerRecord& r = l.first;
    if (l.accel_invocations == 0 || r.reason_code != rt::PathReason::kModeCompare) continue;
    compared.insert(r.index);
    s.checks += l.accel_invocations;
    uint64_t elements = r.output_shapes.empty() ? 0 : 1;
    for (int32_t d : r.output_shapes.empty() ? rt::Shape{} : r.output_shapes[0])
      elements *= static_cast<uint64_t>(d);
    s.bytes += elements * l.accel_invocations;  // the accelerated kernels' outputs are int8
  }
  s.layers = static_cast<uint32_t>(compared.size());
  return s;
}

uint32_t RunReport::layersWithoutDeviceMemory() const {
  uint32_t count = 0;
  for (const LayerStats& l : layer_stats)
    if (l.first.reason_code == rt::PathReason::kNoDeviceMemory) ++count;
  return count;
}

std::vector<std::string> RunReport::budgetWarnings() const {
  std::vector<std::string> warnings;
  const uint64_t flash = memory.flashBytes();
  if (config.mcu.flash_bytes && flash > config.mcu.flash_bytes)
    warnings.push_back(
        "warning: the model" +
        std::string(memory.firmware_bytes ? " and the firmware need " : " needs ") +
        std::to_string(flash) + " bytes of flash, more than mcu.flash_bytes = " +
        std::to_string(config.mcu.flash_bytes) + " (model " + std::to_string(memory.model_bytes) +
        (memory.firmware_bytes ? ", firmware " + std::to_string(*memory.firmware_bytes)
                               : std::string()) +
        ")");
  const uint64_t arena = memory.arena.totalBytes();
  if (config.mcu.sram_bytes && arena > config.mcu.sram_bytes)
    warnings.push_back(
        "warning: the tensor arena needs " + std::to_string(arena) +
        " bytes, more than mcu.sram_bytes = " + std::to_string(config.mcu.sram_bytes));
  return warnings;
}

double RunReport::cyclesPercent(const LayerStats& stats) const {
  const uint64_t total = runTotals().cycles;
  return total ? 100.0 * static_cast<double>(stats.cycles_sum) / static_cast<double>(total) : 0.0;
}

std::string coreList(const std::vector<uint32_t>& cores) {
  std::string text;
  for (size_t i = 0; i < cores.size();) {
    size_t j = i;
    while (j + 1 < cores.size() && cores[j + 1] == cores[j] + 1) ++j;
    text += (text.empty() ? "" : ", ") + std::to_string(cores[i]);
    if (j > i) text += "-" + std::to_string(cores[j]);
    i = j + 1;
  }
  return text;
}

IdleCores idleCores(const rt::LayerRecord& r, const config::HardwareConfig& config) {
  IdleCores idle;
  if (!r.accel) return idle;
  const uint32_t num_cores = config.accel.num_cores;
  std::set<uint32_t> busy;
  for (const rt::CoreBusy& c : r.accel->per_core) busy.insert(c.core);
  for (uint32_t c = 0; c < num_cores; ++c)
    if (!busy.count(c)) idle.cores.push_back(c);
  if (idle.cores.empty()) return idle;
  const timing::AccelGeometry hw = config::accelGeometry(config);
  const std::string parts = std::to_string(busy.size()) + " of " + std::to_string(num_cores);
  if (r.conv) {
    const rt::ConvShape& c = *r.conv;
    const uint32_t g = c.depth_multiplier ? 1 : planner::splitGranularity(hw);
    const uint64_t groups = (uint64_t{c.gemm.n} + g - 1) / g;
    const int32_t rows = c.output.size() > 1 ? c.output[1] : 1;
    idle.why = "the split with the fewest predicted cycles of " + std::to_string(groups) +
               " output-channel group" + (groups == 1 ? "" : "s") + " x " + std::to_string(rows) +
               " output row" + (rows == 1 ? "" : "s") + " uses " + parts + " cores";
  } else if (r.gemm) {
    const uint32_t g = planner::splitGranularity(hw);
    const uint64_t groups = (uint64_t{r.gemm->n} + g - 1) / g;
    idle.why = std::to_string(r.gemm->n) + " output feature" + (r.gemm->n == 1 ? "" : "s");
    if (g > 1)
      idle.why += std::string(r.gemm->n == 1 ? " makes " : " make ") + std::to_string(groups) +
                  " tile" + (groups == 1 ? "" : "s") + " of the array's " + std::to_string(g) +
                  " columns";
    idle.why += ", fewer than the " + std::to_string(num_cores) + " cores";
  }
  return idle;
}

Totals RunReport::runTotals() const {
  Totals t;
  for (const LayerStats& s : layer_stats) {
    t.cycles += s.cycles_sum;
    t.accel_cycles += s.accel_cycles_sum;
    t.cpu_cycles += s.cycles_sum - s.accel_cycles_sum;
    t.ref_cycles += s.ref_cycles_sum;
    t.macs += s.macs_sum;
    t.actions.add(s.actions_sum);
    t.ref_energy_uj += refEnergyUj(s.ref_cycles_sum, s.actions_sum.ref_flash_line_reads, config);
  }
  t.energy = energyOf(t.actions, config);
  t.energy_uj = t.energy.totalUj();
  t.seconds = static_cast<double>(t.cycles) / (config.cpu.clock_mhz * 1e6);
  return t;
}

}  // namespace hilsim::report
