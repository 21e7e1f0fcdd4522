// The report as JSON (--report): README.md "The per-layer report".

#include <algorithm>
#include <sstream>

#include "hilsim/config/loader.h"
#include "hilsim/report/json.h"
#include "hilsim/report/report.h"
#include "hilsim/rt/model.h"

namespace hilsim::report {
namespace {

// Writes the resolved config as nested JSON objects following the dotted keys.
void writeConfig(JsonWriter& json, const config::HardwareConfig& cfg) {
  std::vector<std::string> open;
  json.beginObject();
  for (const config::ConfigEntry& e : config::describeConfig(cfg)) {
    std::vector<std::string> parts;
    std::stringstream ss(e.key);
    for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
    const std::string leaf = parts.back();
    parts.pop_back();
    size_t common = 0;
    while (common < open.size() && common < parts.size() && open[common] == parts[common]) ++common;
    while (open.size() > common) {
      json.endObject();
      open.pop_back();
    }
    for (size_t i = common; i < parts.size(); ++i) {
      json.key(parts[i]).beginObject();
      open.push_back(parts[i]);
    }
    json.key(leaf);
    switch (e.kind) {
      case config::ConfigEntry::Kind::kString:
        json.value(e.value);
        break;
      default:
        json.raw(e.value);
        break;
    }
  }
  while (!open.empty()) {
    json.endObject();
    open.pop_back();
  }
  json.endObject();
}

void writeShape(JsonWriter& json, const rt::Shape& shape) {
  json.beginArray();
  for (int32_t d : shape) json.value(static_cast<int64_t>(d));
  json.endArray();
}

void writeLayer(JsonWriter& json, const rt::LayerRecord& r, const config::HardwareConfig& config) {
  json.beginObject();
  json.key("invocation").value(r.invocation);
  json.key("index").value(r.index);
  json.key("op").value(rt::opName(r.op));
  json.key("name").value(r.name);
  json.key("shape").beginObject();
  if (r.conv) {
    const rt::ConvShape& c = *r.conv;
    json.key("input");
    writeShape(json, c.input);
    json.key("filter");
    writeShape(json, c.filter);
    json.key("output");
    writeShape(json, c.output);
    json.key("stride").beginArray().value(c.stride_h).value(c.stride_w).endArray();
    json.key("dilation").beginArray().value(c.dilation_h).value(c.dilation_w).endArray();
    json.key("padding").value(c.padding);
    json.key("pad").beginArray().value(c.pad_top).value(c.pad_left).endArray();
    if (c.depth_multiplier) json.key("depth_multiplier").value(c.depth_multiplier);
    json.key("m").value(c.gemm.rows).key("k").value(c.gemm.k).key("n").value(c.gemm.n);
  } else if (r.gemm) {
    json.key("rows").value(r.gemm->rows).key("k").value(r.gemm->k).key("n").value(r.gemm->n);
  } else {
    json.key("inputs").beginArray();
    for (const rt::Shape& s : r.input_shapes) writeShape(json, s);
    json.endArray().key("outputs").beginArray();
    for (const rt::Shape& s : r.output_shapes) writeShape(json, s);
    json.endArray();
  }
  json.endObject();
  json.key("macs").value(r.macs);
  json.key("path").value(rt::pathName(r.path));
  json.key("reason").value(r.reason);
  json.key("cycles").value(r.cycles);
  json.key("ref_cycles").value(r.ref_cycles);
  json.key("ref_cycles_source")
      .value(r.ref_cycles_source == rt::RefCyclesSource::kExecuted ? "iss" : "cost");
  if (r.accel) {
    const rt::AccelBreakdown& a = *r.accel;
    json.key("accel").beginObject();
    json.key("fixed_cycles").value(a.fixed_cycles);
    json.key("variable_cycles").value(a.variable_cycles);
    json.key("upload_cycles").value(a.upload_cycles);
    json.key("dma_in_cycles").value(a.dma_in_cycles);
    json.key("compute_cycles").value(a.compute_cycles);
    json.key("dma_out_cycles").value(a.dma_out_cycles);
    json.key("sync_cycles").value(a.sync_cycles);
    json.key("bus_stall_cycles").value(a.bus_stall_cycles);
    json.key("bytes_moved").value(a.bytes_moved);
    json.key("driver_cycles").value(a.driver_cycles);
    if (a.driver_instructions)
      json.key("driver_instructions").value(*a.driver_instructions);
    else
      json.key("driver_instructions").null();
    json.key("per_core").beginArray();
    for (const rt::CoreBusy& c : a.per_core)
      json.beginObject()
          .key("core")
          .value(c.core)
          .key("busy_cycles")
          .value(c.busy_cycles)
          .key("utilization")
          .value(c.utilization)
          .endObject();
    json.endArray();
    const IdleCores idle = idleCores(r, config);
    json.key("idle_cores").beginArray();
    for (uint32_t c : idle.cores) json.value(c);
    json.endArray();
    if (idle.cores.empty())
      json.key("idle_reason").null();
    else
      json.key("idle_reason").value(idle.why);
    json.key("mac_utilization").value(a.mac_utilization);
    json.key("predicted_cycles").value(a.predicted_cycles);
    json.endObject();
  }
  if (r.break_even_macs)
    json.key("break_even_macs").value(*r.break_even_macs);
  else
    json.key("break_even_macs").null();
  json.endObject();
}

void writeTotals(JsonWriter& json, const char* key, const Totals& t) {
  json.key(key).beginObject();
  json.key("cycles").value(t.cycles);
  json.key("accel_cycles").value(t.accel_cycles);
  json.key("cpu_cycles").value(t.cpu_cycles);
  json.key("ref_cycles").value(t.ref_cycles);
  json.key("seconds").value(t.seconds);
  json.key("macs").value(t.macs);
  json.key("speedup_over_ref")
      .value(t.cycles ? static_cast<double>(t.ref_cycles) / static_cast<double>(t.cycles) : 0.0);
  json.endObject();
}

// Sum, extremes and mean (rounded to the nearest) of one figure over a layer's invocations.
void writeSpread(JsonWriter& json, const char* key, uint64_t sum, uint64_t min, uint64_t max,
                 uint32_t count) {
  const uint64_t n = std::max<uint32_t>(count, 1);
  json.key(key).beginObject();
  json.key("sum").value(sum).key("min").value(min).key("max").value(max);
  json.key("mean").value((sum + n / 2) / n);
  json.endObject();
}

void writeLayerStats(JsonWriter& json, const LayerStats& s) {
  json.beginObject();
  json.key("index").value(s.first.index);
  json.key("op").value(rt::opName(s.first.op));
  json.key("name").value(s.first.name);
  json.key("invocations").value(s.invocations);
  json.key("accel_invocations").value(s.accel_invocations);
  writeSpread(json, "cycles", s.cycles_sum, s.cycles_min, s.cycles_max, s.invocations);
  writeSpread(json, "ref_cycles", s.ref_cycles_sum, s.ref_cycles_min, s.ref_cycles_max,
              s.invocations);
  json.endObject();
}

}  // namespace

std::string reportJson(const RunReport& report) {
  JsonWriter json;
  json.beginObject();
  json.key("hilsim_version").value(HILSIM_VERSION);
  json.key("model").beginObject();
  json.key("path").value(report.model_path).key("sha256").value(report.model_sha256);
  json.endObject();
  json.key("config_source").value(report.config_source);
  json.key("config");
  writeConfig(json, report.config);
  json.key("mode").value(report.mode);
  writeTotals(json, "totals", report.totals());
  writeTotals(json, "run_totals", report.runTotals());
  json.key("simulation").beginObject();
  json.key("host_seconds").value(report.host_seconds);
  json.key("simulated_cycles").value(report.simulated_cycles);
  json.key("simulated_cycles_per_host_second")
      .value(report.host_seconds > 0
                 ? static_cast<double>(report.simulated_cycles) / report.host_seconds
                 : 0.0);
  json.key("invocations").value(report.invocations);
  json.key("arena_bytes").value(report.arena_bytes);
  json.key("cpu_model").value(config::toString(report.config.cpu.model));
  if (report.iss_instructions)
    json.key("iss_instructions").value(*report.iss_instructions);
  else
    json.key("iss_instructions").null();
  if (const std::optional<CompareSummary> compare = report.compareSummary())
    json.key("compare")
        .beginObject()
        .key("layers")
        .value(compare->layers)
        .key("layer_invocations")
        .value(compare->checks)
        .key("bytes")
        .value(compare->bytes)
        .key("matched")
        .value(true)
        .endObject();
  else
    json.key("compare").null();
  json.endObject();
  json.key("notes").beginArray();
  for (const std::string& n : report.notes) json.value(n);
  json.endArray();
  json.key("failures").beginArray();
  for (const std::string& f : report.failures) json.value(f);
  json.endArray();
  json.key("layers").beginArray();
  for (const rt::LayerRecord& r : report.layers) writeLayer(json, r, report.config);
  json.endArray();
  json.key("layer_stats").beginArray();
  for (const LayerStats& s : report.layer_stats) writeLayerStats(json, s);
  json.endArray();
  json.endObject();
  return json.str();
}

}  // namespace hilsim::report
