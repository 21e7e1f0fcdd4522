#include "hilsim/report/report.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "hilsim/config/derived.h"
#include "hilsim/config/loader.h"
#include "hilsim/report/csv.h"
#include "hilsim/report/json.h"
#include "hilsim/rt/model.h"
#include "hilsim/rt/plan/chunk_plan.h"

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

}  // namespace

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
    const uint32_t g = c.depth_multiplier ? 1 : rt::plan::splitGranularity(hw);
    const uint64_t groups = (uint64_t{c.gemm.n} + g - 1) / g;
    const int32_t rows = c.output.size() > 1 ? c.output[1] : 1;
    idle.why = "the split with the fewest predicted cycles of " + std::to_string(groups) +
               " output-channel group" + (groups == 1 ? "" : "s") + " x " + std::to_string(rows) +
               " output row" + (rows == 1 ? "" : "s") + " uses " + parts + " cores";
  } else if (r.gemm) {
    const uint32_t g = rt::plan::splitGranularity(hw);
    const uint64_t groups = (uint64_t{r.gemm->n} + g - 1) / g;
    idle.why = std::to_string(r.gemm->n) + " output feature" + (r.gemm->n == 1 ? "" : "s");
    if (g > 1)
      idle.why += " make " + std::to_string(groups) + " tile" + (groups == 1 ? "" : "s") +
                  " of the array's " + std::to_string(g) + " columns";
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
  }
  t.seconds = static_cast<double>(t.cycles) / (config.cpu.clock_mhz * 1e6);
  return t;
}

namespace {

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

std::string reportCsv(const RunReport& report) {
  const uint32_t num_cores = report.config.accel.num_cores;
  std::ostringstream out;
  out << "invocation,index,op,name,shape,macs,path,reason,cycles,ref_cycles,fixed_cycles,"
         "variable_cycles,upload_cycles,dma_in_cycles,compute_cycles,dma_out_cycles,sync_cycles,"
         "bus_stall_cycles,bytes_moved,mac_utilization,break_even_macs";
  for (uint32_t c = 0; c < num_cores; ++c)
    out << ",core" << c << "_busy_cycles,core" << c << "_utilization";
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
    out << '\n';
  }
  return out.str();
}

void printReport(std::ostream& out, const RunReport& report) {
  const uint32_t runs = std::max<uint32_t>(report.invocations, 1);
  // Per layer: mean over invocations.
  struct Row {
    const rt::LayerRecord* first = nullptr;
    uint64_t cycles = 0, ref_cycles = 0;
    uint32_t accel_runs = 0;
  };
  std::map<int, Row> rows;
  for (const LayerStats& s : report.layer_stats)
    rows[s.first.index] = {&s.first, s.cycles_sum, s.ref_cycles_sum, s.accel_invocations};
  size_t shape_width = 5, op_width = 2;
  for (const auto& [index, row] : rows) {
    shape_width = std::max(shape_width, shapeText(*row.first).size());
    op_width = std::max(op_width, std::string(rt::opName(row.first->op)).size());
  }
  char line[512];
  out << "model " << report.model_path << "  mode " << report.mode << "  config "
      << report.config_source << "  cpu " << report.config.cpu.preset << " @ "
      << fixed(report.config.cpu.clock_mhz, 0) << " MHz  accel " << report.config.accel.num_cores
      << " cores\n";
  if (runs > 1) out << "per-layer cycles are the mean of " << runs << " invocations\n";
  std::snprintf(line, sizeof line, "%4s  %-*s  %-*s  %12s  %-5s  %12s  %12s  %7s  %s\n", "#",
                static_cast<int>(op_width), "op", static_cast<int>(shape_width), "shape", "MACs",
                "path", "cycles", "ref_cycles", "speedup", "reason");
  out << line;
  for (const auto& [index, row] : rows) {
    const rt::LayerRecord& r = *row.first;
    const uint64_t cycles = (row.cycles + runs / 2) / runs;
    const uint64_t ref = (row.ref_cycles + runs / 2) / runs;
    const std::string path = row.accel_runs == 0      ? "ref"
                             : row.accel_runs == runs ? "accel"
                                                      : "mixed";
    std::snprintf(
        line, sizeof line, "%4d  %-*s  %-*s  %12s  %-5s  %12s  %12s  %6sx  %s\n", index,
        static_cast<int>(op_width), rt::opName(r.op), static_cast<int>(shape_width),
        shapeText(r).c_str(), withCommas(r.macs).c_str(), path.c_str(), withCommas(cycles).c_str(),
        withCommas(ref).c_str(),
        fixed(cycles ? static_cast<double>(ref) / static_cast<double>(cycles) : 0.0, 2).c_str(),
        r.reason.c_str());
    out << line;
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
      << "x over ref, " << withCommas(t.macs) << " MACs, arena " << withCommas(report.arena_bytes)
      << " bytes\n";
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
