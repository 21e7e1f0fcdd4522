// The text table and the JSON of `hilsim trace-stats` (README.md "trace-stats").

#include <cmath>
#include <cstdio>
#include <sstream>

#include "hilsim/report/json.h"
#include "hilsim/vcd/trace_stats.h"

namespace hilsim::vcd {

using report::jsonNumber;
using report::JsonWriter;
namespace {

std::string printf1(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// A time in the trace's units as a readable duration: "81.9775 us".
std::string timeText(const vcd::Timescale& ts, uint64_t ticks) {
  if (ticks == 0) return "0";
  static const char* kUnits[] = {"s", "ms", "us", "ns", "ps", "fs"};
  const double seconds = static_cast<double>(ticks) * ts.seconds();
  int unit = 0;
  double scaled = seconds;
  while (unit < 5 && std::fabs(scaled) < 1.0 - 1e-9) {
    scaled *= 1000.0;
    ++unit;
  }
  return printf1("%.7g", scaled) + " " + kUnits[unit];
}

std::string percent(uint64_t part, uint64_t whole) {
  if (whole == 0) return "-";
  return printf1("%.1f%%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

double fraction(uint64_t part, uint64_t whole) {
  return whole ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// Host-CPU cycles of `ticks` at `cpu_mhz`.
double cycles(const vcd::Timescale& ts, uint64_t ticks, double cpu_mhz) {
  return static_cast<double>(ticks) * ts.seconds() * cpu_mhz * 1e6;
}

std::string cyclesText(double c) {
  const double rounded = std::round(c);
  return std::fabs(c - rounded) < 0.005 ? printf1("%.0f", rounded) : printf1("%.2f", c);
}

// Rows of cells printed as aligned columns: the first left-aligned, the others right-aligned.
std::string table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows)
    for (size_t i = 0; i < row.size(); ++i) {
      if (widths.size() <= i) widths.push_back(0);
      widths[i] = std::max(widths[i], row[i].size());
    }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      const std::string pad(widths[i] - row[i].size(), ' ');
      line += i == 0 ? row[i] + pad : "  " + pad + row[i];
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string signalName(const SignalStats& s) {
  return s.name + s.range;
}

std::string distinctText(const SignalStats& s) {
  if (s.width == 1 && !s.real) return "-";
  return (s.distinct_exact ? "" : ">=") + std::to_string(s.distinct_values);
}

void signalsText(std::ostream& out, const TraceStats& st) {
  const uint64_t span = st.end_time - st.start_time;
  std::vector<std::vector<std::string>> rows = {{"signal", "width", "changes", "first change",
                                                 "last change", "at 1 / non-zero", "%", "known",
                                                 "values"}};
  for (const SignalStats& s : st.signals) {
    auto t = [&](const std::optional<uint64_t>& v) {
      return v ? timeText(st.timescale, *v) : std::string("-");
    };
    rows.push_back({signalName(s), s.real ? "real" : std::to_string(s.width),
                    std::to_string(s.changes), t(s.first_change), t(s.last_change),
                    timeText(st.timescale, s.time_nonzero), percent(s.time_nonzero, span),
                    percent(s.time_known, span), distinctText(s)});
  }
  out << table(rows);
}

void hilsimText(std::ostream& out, const TraceStats& st, double cpu_mhz) {
  const HilsimStats& h = *st.hilsim;
  const vcd::Timescale& ts = st.timescale;
  out << "\nlayer windows (host CPU at " << printf1("%g", cpu_mhz)
      << " MHz; busy cycles and share of the window per core)\n";
  std::vector<std::string> head = {"invocation", "layer", "start", "end", "cycles"};
  for (uint32_t c : h.cores) head.push_back("core" + std::to_string(c));
  std::vector<std::vector<std::string>> rows = {head};
  for (const LayerWindow& w : h.windows) {
    const uint64_t span = w.end - w.start;
    std::vector<std::string> row = {
        std::to_string(w.invocation), std::to_string(w.layer), timeText(ts, w.start),
        timeText(ts, w.end), cyclesText(cycles(ts, span, cpu_mhz)) + (w.complete ? "" : " (cut)")};
    for (uint64_t busy : w.core_busy)
      row.push_back(cyclesText(cycles(ts, busy, cpu_mhz)) + " " + percent(busy, span));
    rows.push_back(row);
  }
  out << table(rows);

  const uint64_t span = st.end_time - st.start_time;
  out << "\ncore busy over the trace (" << timeText(ts, span) << ", "
      << cyclesText(cycles(ts, span, cpu_mhz)) << " cycles)\n";
  rows = {{"core", "busy cycles", "busy time", "share"}};
  for (size_t i = 0; i < h.cores.size(); ++i)
    rows.push_back({"core" + std::to_string(h.cores[i]),
                    cyclesText(cycles(ts, h.core_busy[i], cpu_mhz)), timeText(ts, h.core_busy[i]),
                    percent(h.core_busy[i], span)});
  out << table(rows);
}

void optionalTime(JsonWriter& json, const std::string& key, const std::optional<uint64_t>& t) {
  json.key(key);
  if (t)
    json.value(*t);
  else
    json.null();
}

void busyJson(JsonWriter& json, const vcd::Timescale& ts, uint32_t core, uint64_t busy,
              uint64_t span, double cpu_mhz) {
  json.beginObject();
  json.key("core").value(core);
  json.key("busy_time").value(busy);
  json.key("busy_cycles").raw(jsonNumber(cycles(ts, busy, cpu_mhz)));
  json.key("busy_fraction").raw(jsonNumber(fraction(busy, span)));
  json.endObject();
}

void hilsimJson(JsonWriter& json, const TraceStats& st, double cpu_mhz) {
  const HilsimStats& h = *st.hilsim;
  const vcd::Timescale& ts = st.timescale;
  json.beginObject();
  json.key("cpu_mhz").raw(jsonNumber(cpu_mhz));
  json.key("cores").beginArray();
  for (uint32_t c : h.cores) json.value(c);
  json.endArray();
  json.key("windows").beginArray();
  for (const LayerWindow& w : h.windows) {
    const uint64_t span = w.end - w.start;
    json.beginObject();
    json.key("layer").value(w.layer);
    json.key("invocation").value(w.invocation);
    json.key("start_time").value(w.start);
    json.key("end_time").value(w.end);
    json.key("duration").value(span);
    json.key("cycles").raw(jsonNumber(cycles(ts, span, cpu_mhz)));
    json.key("complete").value(w.complete);
    json.key("per_core").beginArray();
    for (size_t i = 0; i < h.cores.size(); ++i)
      busyJson(json, ts, h.cores[i], w.core_busy[i], span, cpu_mhz);
    json.endArray();
    json.endObject();
  }
  json.endArray();
  json.key("per_core").beginArray();
  const uint64_t span = st.end_time - st.start_time;
  for (size_t i = 0; i < h.cores.size(); ++i)
    busyJson(json, ts, h.cores[i], h.core_busy[i], span, cpu_mhz);
  json.endArray();
  json.endObject();
}

void signalJson(JsonWriter& json, const SignalStats& s, uint64_t span) {
  json.beginObject();
  json.key("name").value(s.name);
  json.key("range").value(s.range);
  json.key("type").value(s.type);
  json.key("code").value(s.code);
  json.key("width").value(s.width);
  json.key("changes").value(s.changes);
  optionalTime(json, "first_change", s.first_change);
  optionalTime(json, "last_change", s.last_change);
  json.key("time_known").value(s.time_known);
  json.key("known_fraction").raw(jsonNumber(fraction(s.time_known, span)));
  if (s.width == 1 && !s.real) {
    json.key("time_high").value(s.time_nonzero);
    json.key("high_fraction").raw(jsonNumber(fraction(s.time_nonzero, span)));
  } else {
    json.key("time_nonzero").value(s.time_nonzero);
    json.key("nonzero_fraction").raw(jsonNumber(fraction(s.time_nonzero, span)));
    json.key("distinct_values").value(s.distinct_values);
    json.key("distinct_values_exact").value(s.distinct_exact);
  }
  json.endObject();
}

}  // namespace

std::string traceStatsText(const TraceStats& st, double cpu_mhz) {
  std::ostringstream out;
  out << st.file;
  if (!st.version.empty()) out << " (" << st.version << ")";
  out << "\ntimescale " << st.timescale.text() << (st.timescale.given ? "" : " (assumed)")
      << "; from " << timeText(st.timescale, st.start_time) << " to "
      << timeText(st.timescale, st.end_time) << "; " << st.signals.size() << " signals; "
      << st.total_changes << " value changes\n\n";
  signalsText(out, st);
  if (st.hilsim) hilsimText(out, st, cpu_mhz);
  return out.str();
}

std::string traceStatsJson(const TraceStats& st, double cpu_mhz) {
  JsonWriter json;
  const uint64_t span = st.end_time - st.start_time;
  json.beginObject();
  json.key("file").value(st.file);
  json.key("version").value(st.version);
  json.key("date").value(st.date);
  json.key("timescale").beginObject();
  json.key("text").value(st.timescale.text());
  json.key("seconds").raw(jsonNumber(st.timescale.seconds()));
  json.key("given").value(st.timescale.given);
  json.endObject();
  json.key("start_time").value(st.start_time);
  json.key("end_time").value(st.end_time);
  json.key("duration_seconds").raw(jsonNumber(static_cast<double>(span) * st.timescale.seconds()));
  json.key("total_changes").value(st.total_changes);
  json.key("signals").beginArray();
  for (const SignalStats& s : st.signals) signalJson(json, s, span);
  json.endArray();
  json.key("hilsim");
  if (st.hilsim)
    hilsimJson(json, st, cpu_mhz);
  else
    json.null();
  json.endObject();
  return json.str();
}

}  // namespace hilsim::vcd
