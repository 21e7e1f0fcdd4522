// The text table and the JSON of `hilsim trace-stats` (README.md "trace-stats").

#include <cmath>
#include <cstdio>
#include <sstream>

#include "hilsim/base/json.h"
#include "hilsim/vcd/trace_stats.h"

namespace hilsim::vcd {

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

// Aligned columns: the first left-aligned, the others right-aligned.
void widen(std::vector<size_t>* widths, const std::vector<std::string>& row) {
  for (size_t i = 0; i < row.size(); ++i) {
    if (widths->size() <= i) widths->push_back(0);
    (*widths)[i] = std::max((*widths)[i], row[i].size());
  }
}

std::string tableLine(const std::vector<size_t>& widths, const std::vector<std::string>& row) {
  std::string line;
  for (size_t i = 0; i < row.size(); ++i) {
    const std::string pad(widths[i] - row[i].size(), ' ');
    line += i == 0 ? row[i] + pad : "  " + pad + row[i];
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line + "\n";
}

std::string table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) widen(&widths, row);
  std::string out;
  for (const auto& row : rows) out += tableLine(widths, row);
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

// One row of the layer-window table.
std::vector<std::string> windowRow(const vcd::Timescale& ts, const LayerWindow& w, double cpu_mhz) {
  const uint64_t span = w.end - w.start;
  std::vector<std::string> row = {
      std::to_string(w.invocation), std::to_string(w.layer), timeText(ts, w.start),
      timeText(ts, w.end), cyclesText(cycles(ts, span, cpu_mhz)) + (w.complete ? "" : " (cut)")};
  for (uint64_t busy : w.core_busy)
    row.push_back(cyclesText(cycles(ts, busy, cpu_mhz)) + " " + percent(busy, span));
  return row;
}

void hilsimText(std::ostream& out, const TraceStats& st, double cpu_mhz) {
  const HilsimStats& h = *st.hilsim;
  const vcd::Timescale& ts = st.timescale;
  out << "\nlayer windows (host CPU at " << printf1("%g", cpu_mhz)
      << " MHz; busy cycles and share of the window per core)\n";
  std::vector<std::string> head = {"invocation", "layer", "start", "end", "cycles"};
  for (uint32_t c : h.cores) head.push_back("core" + std::to_string(c));
  // Two passes over the windows, one for the column widths and one to print, so the table is
  // aligned without holding its rows.
  std::vector<size_t> widths;
  widen(&widths, head);
  h.forEachWindow([&](const LayerWindow& w) { widen(&widths, windowRow(ts, w, cpu_mhz)); });
  out << tableLine(widths, head);
  h.forEachWindow(
      [&](const LayerWindow& w) { out << tableLine(widths, windowRow(ts, w, cpu_mhz)); });

  std::vector<std::vector<std::string>> rows;
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

Json optionalTime(const std::optional<uint64_t>& t) {
  return t ? Json(*t) : Json(nullptr);
}

Json busyJson(const vcd::Timescale& ts, uint32_t core, uint64_t busy, uint64_t span,
              double cpu_mhz) {
  return {{"core", core},
          {"busy_time", busy},
          {"busy_cycles", cycles(ts, busy, cpu_mhz)},
          {"busy_fraction", fraction(busy, span)}};
}

// The windows stand for this string in the document until they are written one by one.
constexpr std::string_view kWindowsPlaceholder = "\x01hilsim trace-stats windows\x01";

Json windowJson(const vcd::Timescale& ts, const HilsimStats& h, const LayerWindow& w,
                double cpu_mhz) {
  const uint64_t span = w.end - w.start;
  Json window;
  window["layer"] = w.layer;
  window["invocation"] = w.invocation;
  window["start_time"] = w.start;
  window["end_time"] = w.end;
  window["duration"] = span;
  window["cycles"] = cycles(ts, span, cpu_mhz);
  window["complete"] = w.complete;
  Json& per_core = window["per_core"] = Json::array();
  for (size_t i = 0; i < h.cores.size(); ++i)
    per_core.push_back(busyJson(ts, h.cores[i], w.core_busy[i], span, cpu_mhz));
  return window;
}

Json hilsimJson(const TraceStats& st, double cpu_mhz) {
  const HilsimStats& h = *st.hilsim;
  const vcd::Timescale& ts = st.timescale;
  Json hilsim;
  hilsim["cpu_mhz"] = cpu_mhz;
  hilsim["cores"] = h.cores;
  hilsim["windows"] = std::string(kWindowsPlaceholder);
  Json& per_core = hilsim["per_core"] = Json::array();
  const uint64_t span = st.end_time - st.start_time;
  for (size_t i = 0; i < h.cores.size(); ++i)
    per_core.push_back(busyJson(ts, h.cores[i], h.core_busy[i], span, cpu_mhz));
  return hilsim;
}

Json signalJson(const SignalStats& s, uint64_t span) {
  Json signal;
  signal["name"] = s.name;
  signal["range"] = s.range;
  signal["type"] = s.type;
  signal["code"] = s.code;
  signal["width"] = s.width;
  signal["changes"] = s.changes;
  signal["first_change"] = optionalTime(s.first_change);
  signal["last_change"] = optionalTime(s.last_change);
  signal["time_known"] = s.time_known;
  signal["known_fraction"] = fraction(s.time_known, span);
  if (s.width == 1 && !s.real) {
    signal["time_high"] = s.time_nonzero;
    signal["high_fraction"] = fraction(s.time_nonzero, span);
  } else {
    signal["time_nonzero"] = s.time_nonzero;
    signal["nonzero_fraction"] = fraction(s.time_nonzero, span);
    signal["distinct_values"] = s.distinct_values;
    signal["distinct_values_exact"] = s.distinct_exact;
  }
  return signal;
}

}  // namespace

void writeTraceStatsText(std::ostream& out, const TraceStats& st, double cpu_mhz) {
  out << st.file;
  if (!st.version.empty()) out << " (" << st.version << ")";
  out << "\ntimescale " << st.timescale.text() << (st.timescale.given ? "" : " (assumed)")
      << "; from " << timeText(st.timescale, st.start_time) << " to "
      << timeText(st.timescale, st.end_time) << "; " << st.signals.size() << " signals; "
      << st.total_changes << " value changes\n\n";
  signalsText(out, st);
  if (st.hilsim) hilsimText(out, st, cpu_mhz);
}

void writeTraceStatsJson(std::ostream& out, const TraceStats& st, double cpu_mhz) {
  const uint64_t span = st.end_time - st.start_time;
  Json doc;
  doc["file"] = st.file;
  doc["version"] = st.version;
  doc["date"] = st.date;
  doc["timescale"] = {{"text", st.timescale.text()},
                      {"seconds", st.timescale.seconds()},
                      {"given", st.timescale.given}};
  doc["start_time"] = st.start_time;
  doc["end_time"] = st.end_time;
  doc["duration_seconds"] = static_cast<double>(span) * st.timescale.seconds();
  doc["total_changes"] = st.total_changes;
  Json& signals = doc["signals"] = Json::array();
  for (const SignalStats& s : st.signals) signals.push_back(signalJson(s, span));
  doc["hilsim"] = st.hilsim ? hilsimJson(st, cpu_mhz) : Json(nullptr);
  // Times and cycles derived from the trace's integer times: ten significant digits, which hide
  // the rounding of the unit conversions (20 ps at 400 MHz is 0.008 cycles).
  JsonLayout layout;
  layout.number = [](double value, const JsonPath&) {
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", value);
    return std::string(text);
  };
  const JsonWrite write = [&out](std::string_view text) { out << text; };
  if (!st.hilsim) {
    write(formatJson(doc, layout));
  } else {
    const HilsimStats& h = *st.hilsim;
    writeJsonWithArray(
        doc, layout, kWindowsPlaceholder,
        [&](const JsonEmit& emit) {
          h.forEachWindow([&](const LayerWindow& w) {
            emit(formatJson(windowJson(st.timescale, h, w, cpu_mhz), layout));
          });
        },
        write);
  }
  out << "\n";
}

std::string traceStatsText(const TraceStats& st, double cpu_mhz) {
  std::ostringstream out;
  writeTraceStatsText(out, st, cpu_mhz);
  return out.str();
}

std::string traceStatsJson(const TraceStats& st, double cpu_mhz) {
  std::ostringstream out;
  writeTraceStatsJson(out, st, cpu_mhz);
  return out.str();
}

}  // namespace hilsim::vcd
