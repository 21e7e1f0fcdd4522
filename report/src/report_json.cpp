// The report as JSON (--report): README.md "The per-layer report".

#include <algorithm>
#include <map>
#include <sstream>

#include "hilsim/base/io.h"
#include "hilsim/base/json.h"
#include "hilsim/config/loader.h"
#include "hilsim/report/per_invocation.h"
#include "hilsim/report/report.h"
#include "hilsim/rt/model.h"

namespace hilsim::report {
namespace {

template <class T>
Json orNull(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

// The resolved config as nested objects following the dotted keys.
Json configJson(const std::vector<config::ConfigEntry>& entries) {
  Json out = Json::object();
  for (const config::ConfigEntry& e : entries) {
    Json* at = &out;
    std::stringstream parts(e.key);
    std::string part, next;
    std::getline(parts, part, '.');
    while (std::getline(parts, next, '.')) {
      at = &(*at)[part];
      part = next;
    }
    // Other kinds are YAML scalars that read as JSON: integers, numbers, true and false.
    (*at)[part] =
        e.kind == config::ConfigEntry::Kind::kString ? Json(e.value) : Json::parse(e.value);
  }
  return out;
}

Json flashJson(const std::optional<iss::FlashStats>& f) {
  if (!f) return nullptr;
  return {{"line_reads", f->line_reads},       {"icache_hits", f->icache_hits},
          {"icache_misses", f->icache_misses}, {"dcache_hits", f->dcache_hits},
          {"dcache_misses", f->dcache_misses}, {"model_line_reads", f->model_line_reads}};
}

Json actionsJson(const LayerActions& a) {
  Json j;
  j["macs"] = a.macs;
  j["sram_read_bytes"] = a.sram_read_bytes;
  j["sram_write_bytes"] = a.sram_write_bytes;
  j["dma_bytes"] = a.dma_bytes;
  j["bus_beats"] = a.bus_beats;
  j["system_memory_read_bytes"] = a.system_memory_read_bytes;
  j["system_memory_write_bytes"] = a.system_memory_write_bytes;
  j["register_accesses"] = a.register_accesses;
  j["cpu_active_cycles"] = a.cpu_active_cycles;
  j["cpu_sleep_cycles"] = a.cpu_sleep_cycles;
  j["flash_line_reads"] = a.flash_line_reads;
  j["ref_flash_line_reads"] = a.ref_flash_line_reads;
  j["simulated_ps"] = a.simulated_ps;
  j["core_busy_ps"] = a.core_busy_ps;
  return j;
}

Json energyJson(const energy::EnergyBreakdown& e) {
  Json j = Json::object();
  for (const auto& component : e.components()) j[component.first] = component.second;
  return j;
}

// energy_uj, its components and the action counts they come from.
void putEnergy(Json& at, const LayerActions& actions, const config::HardwareConfig& config,
               uint64_t ref_cycles) {
  const energy::EnergyBreakdown e = energyOf(actions, config);
  at["energy_uj"] = e.totalUj();
  at["energy"] = energyJson(e);
  at["ref_energy_uj"] = refEnergyUj(ref_cycles, actions.ref_flash_line_reads, config);
  at["actions"] = actionsJson(actions);
}

Json layerJson(const rt::LayerRecord& r, const config::HardwareConfig& config,
               bool with_accelerator) {
  Json layer;
  layer["invocation"] = r.invocation;
  layer["index"] = r.index;
  layer["op"] = rt::opName(r.op);
  layer["name"] = r.name;
  Json& shape = layer["shape"] = Json::object();
  if (r.conv) {
    const rt::ConvShape& c = *r.conv;
    shape["input"] = c.input;
    shape["filter"] = c.filter;
    shape["output"] = c.output;
    shape["stride"] = {c.stride_h, c.stride_w};
    shape["dilation"] = {c.dilation_h, c.dilation_w};
    shape["padding"] = c.padding;
    shape["pad"] = {c.pad_top, c.pad_left};
    if (c.depth_multiplier) shape["depth_multiplier"] = c.depth_multiplier;
    shape["m"] = c.gemm.rows;
    shape["k"] = c.gemm.k;
    shape["n"] = c.gemm.n;
  } else if (r.gemm) {
    shape["rows"] = r.gemm->rows;
    shape["k"] = r.gemm->k;
    shape["n"] = r.gemm->n;
  } else {
    shape["inputs"] = r.input_shapes;
    shape["outputs"] = r.output_shapes;
  }
  layer["macs"] = r.macs;
  layer["path"] = rt::pathName(r.path);
  layer["reason"] = r.reason;
  layer["cycles"] = r.cycles;
  layer["ref_cycles"] = r.ref_cycles;
  layer["ref_cycles_source"] =
      r.ref_cycles_source == rt::RefCyclesSource::kExecuted ? "iss" : "cost";
  if (r.accel) {
    const rt::AccelBreakdown& a = *r.accel;
    Json& accel = layer["accel"];
    accel["fixed_cycles"] = a.fixed_cycles;
    accel["variable_cycles"] = a.variable_cycles;
    accel["upload_cycles"] = a.upload_cycles;
    accel["dma_in_cycles"] = a.dma_in_cycles;
    accel["compute_cycles"] = a.compute_cycles;
    accel["dma_out_cycles"] = a.dma_out_cycles;
    accel["sync_cycles"] = a.sync_cycles;
    accel["bus_stall_cycles"] = a.bus_stall_cycles;
    accel["bytes_moved"] = a.bytes_moved;
    accel["driver_cycles"] = a.driver_cycles;
    accel["driver_instructions"] = orNull(a.driver_instructions);
    Json& per_core = accel["per_core"] = Json::array();
    for (const rt::CoreBusy& c : a.per_core)
      per_core.push_back(
          {{"core", c.core}, {"busy_cycles", c.busy_cycles}, {"utilization", c.utilization}});
    const IdleCores idle = idleCores(r, config);
    accel["idle_cores"] = idle.cores;
    accel["idle_reason"] = idle.cores.empty() ? Json(nullptr) : Json(idle.why);
    accel["mac_utilization"] = a.mac_utilization;
    accel["predicted_cycles"] = a.predicted_cycles;
  }
  layer["break_even_macs"] = orNull(r.break_even_macs);
  layer["break_even_energy_macs"] = orNull(r.break_even_energy_macs);
  layer["flash"] = flashJson(r.flash);
  putEnergy(layer, layerActions(r, config, with_accelerator), config, r.ref_cycles);
  return layer;
}

Json totalsJson(const Totals& t) {
  Json totals;
  totals["cycles"] = t.cycles;
  totals["accel_cycles"] = t.accel_cycles;
  totals["cpu_cycles"] = t.cpu_cycles;
  totals["ref_cycles"] = t.ref_cycles;
  totals["seconds"] = t.seconds;
  totals["macs"] = t.macs;
  totals["speedup_over_ref"] =
      t.cycles ? static_cast<double>(t.ref_cycles) / static_cast<double>(t.cycles) : 0.0;
  totals["energy_uj"] = t.energy_uj;
  totals["energy"] = energyJson(t.energy);
  totals["ref_energy_uj"] = t.ref_energy_uj;
  totals["average_power_mw"] = t.seconds > 0 ? t.energy_uj / t.seconds * 1e-3 : 0.0;
  return totals;
}

// Sum, extremes and mean (rounded to the nearest) of one figure over a layer's invocations.
Json spreadJson(uint64_t sum, uint64_t min, uint64_t max, uint32_t count) {
  const uint64_t n = std::max<uint32_t>(count, 1);
  return {{"sum", sum}, {"min", min}, {"max", max}, {"mean", (sum + n / 2) / n}};
}

Json layerStatsJson(const LayerStats& s, const RunReport& report) {
  Json stats;
  stats["index"] = s.first.index;
  stats["op"] = rt::opName(s.first.op);
  stats["name"] = s.first.name;
  stats["invocations"] = s.invocations;
  stats["accel_invocations"] = s.accel_invocations;
  stats["cycles"] = spreadJson(s.cycles_sum, s.cycles_min, s.cycles_max, s.invocations);
  stats["ref_cycles"] =
      spreadJson(s.ref_cycles_sum, s.ref_cycles_min, s.ref_cycles_max, s.invocations);
  stats["cycles_percent"] = report.cyclesPercent(s);
  // Summed over the invocations.
  putEnergy(stats, s.actions_sum, report.config, s.ref_cycles_sum);
  return stats;
}

Json memoryJson(const RunReport& report) {
  const MemoryFootprint& m = report.memory;
  Json memory;
  memory["arena_bytes"] = m.arena.totalBytes();
  memory["arena"] = {{"activation_bytes", m.arena.activation_bytes},
                     {"persistent_bytes", m.arena.persistent_bytes},
                     {"runtime_bytes", m.arena.runtime_bytes},
                     {"quantization_bytes", m.arena.quantization_bytes}};
  memory["flash_bytes"] = m.flashBytes();
  memory["model_bytes"] = m.model_bytes;
  memory["firmware_bytes"] = orNull(m.firmware_bytes);
  memory["device_memory_bytes"] = m.device_memory_bytes;
  memory["device_memory_peak_bytes"] = m.device_memory_peak_bytes;
  memory["core_sram_peak_bytes"] = m.core_sram_peak_bytes;
  memory["layers_without_device_memory"] = report.layersWithoutDeviceMemory();
  const config::McuConfig& budget = report.config.mcu;
  memory["flash_budget_bytes"] = budget.flash_bytes ? Json(budget.flash_bytes) : Json(nullptr);
  memory["sram_budget_bytes"] = budget.sram_bytes ? Json(budget.sram_bytes) : Json(nullptr);
  memory["fits"] = report.budgetWarnings().empty();
  return memory;
}

Json simulationJson(const RunReport& report) {
  Json simulation;
  simulation["host_seconds"] = report.host_seconds;
  simulation["simulated_cycles"] = report.simulated_cycles;
  simulation["simulated_cycles_per_host_second"] =
      report.host_seconds > 0 ? static_cast<double>(report.simulated_cycles) / report.host_seconds
                              : 0.0;
  simulation["invocations"] = report.invocations;
  simulation["memory"] = memoryJson(report);
  simulation["cpu_model"] = config::toString(report.config.cpu.model);
  // The firmware image's optimization level (cpu.firmware_opt); null without the ISS.
  simulation["firmware_opt"] = report.config.cpu.model == config::CpuModel::kIss
                                   ? Json(config::toString(report.config.cpu.firmware_opt))
                                   : Json(nullptr);
  simulation["cpu_kernels"] = config::toString(report.config.cpu.kernels);
  simulation["iss_instructions"] = orNull(report.iss_instructions);
  simulation["flash"] = flashJson(report.flash);
  if (report.with_accelerator) {
    const energy::AcceleratorArea area = acceleratorArea(report.config);
    simulation["area_mm2"] = {{"per_core",
                               {{"array", area.core.array_mm2},
                                {"sram", area.core.sram_mm2},
                                {"control", area.core.control_mm2},
                                {"total", area.core.totalMm2()}}},
                              {"cores", area.cores},
                              {"total", area.totalMm2()}};
  } else {
    simulation["area_mm2"] = nullptr;
  }
  if (const std::optional<CompareSummary> compare = report.compareSummary())
    simulation["compare"] = {{"layers", compare->layers},
                             {"layer_invocations", compare->checks},
                             {"bytes", compare->bytes},
                             {"matched", true}};
  else
    simulation["compare"] = nullptr;
  return simulation;
}

// The report's document; `layers` holds the report's own records.
Json reportDocument(const RunReport& report, const std::vector<config::ConfigEntry>& entries) {
  Json doc;
  doc["hilsim_version"] = HILSIM_VERSION;
  doc["model"] = {{"path", report.model_path}, {"sha256", report.model_sha256}};
  doc["config_source"] = report.config_source;
  doc["config"] = configJson(entries);
  doc["mode"] = report.mode;
  doc["totals"] = totalsJson(report.totals());
  doc["run_totals"] = totalsJson(report.runTotals());
  doc["simulation"] = simulationJson(report);
  doc["notes"] = report.notes;
  doc["failures"] = report.failures;
  Json& layers = doc["layers"] = Json::array();
  for (const rt::LayerRecord& r : report.layers)
    layers.push_back(layerJson(r, report.config, report.with_accelerator));
  Json& layer_stats = doc["layer_stats"] = Json::array();
  for (const LayerStats& s : report.layer_stats) layer_stats.push_back(layerStatsJson(s, report));
  return doc;
}

// The run's figures are the shortest text that reads back as the same double; the config's
// numbers keep the text `hilsim config` prints for them (`config_text`, which must outlive the
// layout).
JsonLayout reportLayout(const std::map<std::string, std::string, std::less<>>& config_text) {
  JsonLayout layout;
  layout.number = [&config_text](double value, const JsonPath& path) {
    if (path.size() < 2 || path.front() != "config") return shortestNumber(value);
    std::string key;
    for (size_t i = 1; i < path.size(); ++i) (key += i > 1 ? "." : "") += path[i];
    return config_text.at(key);
  };
  return layout;
}

std::map<std::string, std::string, std::less<>> configText(
    const std::vector<config::ConfigEntry>& entries) {
  std::map<std::string, std::string, std::less<>> config_text;
  for (const config::ConfigEntry& e : entries) config_text.emplace(e.key, e.value);
  return config_text;
}

// Stands for the spooled records in the document until they are written.
constexpr std::string_view kLayersPlaceholder = "\x01hilsim per-invocation layers\x01";

}  // namespace

std::string reportJson(const RunReport& report) {
  const std::vector<config::ConfigEntry> entries = config::describeConfig(report.config);
  const auto config_text = configText(entries);
  return formatJson(reportDocument(report, entries), reportLayout(config_text)) + "\n";
}

void PerInvocationWriter::addJson(const rt::LayerRecord& record) {
  // A record's numbers are the run's figures, whose text needs none of the config's layout.
  json_->putString(formatJson(layerJson(record, config_, with_accelerator_)));
  json_->endRecord();
}

void PerInvocationWriter::writeJson(const RunReport& report, const std::string& path) {
  const std::vector<config::ConfigEntry> entries = config::describeConfig(report.config);
  const auto config_text = configText(entries);
  Json doc = reportDocument(report, entries);
  doc["layers"] = std::string(kLayersPlaceholder);
  AtomicFileWriter file(path);
  json_->rewind();
  writeJsonWithArray(
      doc, reportLayout(config_text), kLayersPlaceholder,
      [this](const JsonEmit& emit) {
        for (uint64_t i = 0; i < json_->records(); ++i) emit(json_->getString());
      },
      [&file](std::string_view text) { file.write(text.data(), text.size()); });
  file.write("\n", 1);
  file.commit();
}

}  // namespace hilsim::report
