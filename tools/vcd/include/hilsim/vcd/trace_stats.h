#pragma once
// `hilsim trace-stats`: activity per signal of any VCD, and per-layer utilization of the cores
// for hilsim's own traces (traces/README.md). Times are in the trace's timescale units.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "hilsim/base/spool.h"
#include "hilsim/vcd/vcd_reader.h"

namespace hilsim::vcd {

struct SignalStats {
  std::string name;   // full hierarchical name
  std::string range;  // bit select written after the reference, or empty
  std::string type;
  std::string code;  // identifier code (aliases share it and their figures)
  uint32_t width = 1;
  bool real = false;
  // Changes of value after the first value (normally the one in $dumpvars).
  uint64_t changes = 0;
  std::optional<uint64_t> first_change;
  std::optional<uint64_t> last_change;
  uint64_t time_known = 0;       // no x or z bit
  uint64_t time_nonzero = 0;     // known and not zero; for a 1-bit signal, the time at 1
  uint64_t distinct_values = 0;  // values the signal took (not counted for 1-bit signals)
  bool distinct_exact = true;    // false: counting stopped at kDistinctLimit
};

// One stretch of time in which `hilsim.layer` holds one layer index: one invocation of a layer.
// Stretches of zero duration (a value replaced at the same instant) are left out.
struct LayerWindow {
  uint64_t layer = 0;
  // From hilsim.invocation; in traces without it, counted up whenever a layer index does not
  // exceed the previous one.
  uint32_t invocation = 0;
  uint64_t start = 0;
  uint64_t end = 0;
  bool complete = true;             // false: the trace ends while the layer still runs
  std::vector<uint64_t> core_busy;  // per core (in HilsimStats::cores order)
};

struct HilsimStats {
  std::vector<uint32_t> cores;          // core numbers, ascending
  std::optional<double> cpu_clock_mhz;  // recorded in the trace's header, if there
  std::vector<uint64_t> core_busy;      // per core, over the whole trace
  // The layer windows, in time order, are kept in a temporary file as the trace is read (one per
  // layer invocation: a long trace has millions), so memory does not grow with the trace.
  std::shared_ptr<Spool> window_file;
  uint64_t window_count = 0;

  // Calls `f` with each window in time order, reading them back one at a time.
  void forEachWindow(const std::function<void(const LayerWindow&)>& f) const;
  // Every window at once: for small traces and tests.
  std::vector<LayerWindow> windows() const;
};

struct TraceStats {
  std::string file;
  std::string version;
  std::string date;
  vcd::Timescale timescale;
  uint64_t start_time = 0;            // first timestamp
  uint64_t end_time = 0;              // last timestamp
  uint64_t total_changes = 0;         // sum of the changes of every identifier code
  std::vector<SignalStats> signals;   // in declaration order
  std::optional<HilsimStats> hilsim;  // for traces with hilsim.layer and hilsim.core<i>.busy
};

constexpr uint64_t kDistinctLimit = 100000;

// Reads the VCD at `path` in one streaming pass. Throws InputError.
TraceStats computeTraceStats(const std::string& path);
// The same from a stream (`name` names it in errors).
TraceStats computeTraceStats(std::istream& in, const std::string& name);

// A readable report; durations of hilsim layer windows in host-CPU cycles at `cpu_mhz`. The
// write* forms stream to `out` one window at a time; the others return the whole text.
void writeTraceStatsText(std::ostream& out, const TraceStats& stats, double cpu_mhz);
void writeTraceStatsJson(std::ostream& out, const TraceStats& stats, double cpu_mhz);
std::string traceStatsText(const TraceStats& stats, double cpu_mhz);
std::string traceStatsJson(const TraceStats& stats, double cpu_mhz);

}  // namespace hilsim::vcd
