#pragma once
// VCD trace of the platform (traces/README.md lists every signal). Modules record value changes
// at simulated events, never per cycle; a module holding no Tracer records nothing, so tracing
// costs nothing when it is off. Changes may be recorded slightly out of order (the host CPU runs
// ahead of global time within its quantum) and are sorted when the file is written.

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <systemc>
#include <vector>

namespace hilsim::model {

class TraceSink;

class Tracer {
 public:
  using Signal = uint32_t;

  // `keep_changes` false: changes go only to the sink (no VCD is written, memory stays bounded).
  explicit Tracer(bool keep_changes = true) : keep_changes_(keep_changes) {}
  // Every recorded change is also passed to `sink` as it is recorded (not owned; may be null).
  void setSink(TraceSink* sink) { sink_ = sink; }

  // Declares a signal before simulation starts; `scope` is dotted ("core0", "dma.ch1").
  Signal add(const std::string& scope, const std::string& name, uint32_t width_bits,
             std::optional<uint64_t> initial = 0);
  // Records a value (nullopt: unknown, written as x) at simulated time `t`.
  void set(Signal signal, std::optional<uint64_t> value, const sc_core::sc_time& t);
  void set(Signal signal, std::optional<uint64_t> value) {
    set(signal, value, sc_core::sc_time_stamp());
  }

  // A line for the VCD's $comment section (e.g. the clocks readers need).
  void addComment(const std::string& text) { comments_.push_back(text); }
  // Keeps only the part of the trace between `from` and `to` (inclusive); the values current at
  // `from` are dumped there.
  void setWindow(sc_core::sc_time from, sc_core::sc_time to);
  // Writes the VCD to `path` (atomically: temporary file, then rename). Throws InputError.
  void write(const std::string& path, const std::string& version) const;
  // Writes a GTKWave save file for the trace written to `vcd_path` (traces/README.md "GTKWave"):
  // the trace referenced by its file name, the view zoomed to the whole trace (or its window),
  // the signals grouped by scope, multi-bit signals in decimal, enumerations (cpu.state, the
  // cores' phase, bus.owner) named through translate filter files written beside it
  // (t.gtkw -> t.cpu_state.filter, ...). Atomic like write(). Throws InputError.
  void writeGtkw(const std::string& gtkw_path, const std::string& vcd_path) const;

  size_t changes() const { return changes_.size(); }

  struct SignalInfo {
    std::string scope;
    std::string name;
    uint32_t width;
    std::optional<uint64_t> initial;
  };
  const std::vector<SignalInfo>& signals() const { return signals_; }

 private:
  void writeScopes(std::ostream& out) const;

  struct GtkwFilter {
    int index;         // GTKWave's filter number, from 1
    std::string path;  // absolute
    std::string text;  // "value name" lines
    std::function<bool(const SignalInfo&)> applies;
  };
  std::vector<GtkwFilter> gtkwFilters(const std::string& gtkw_path) const;
  // The time the trace covers, in ps: its window, or 0 to the last change.
  std::pair<uint64_t, uint64_t> timeRange() const;
  // Writes `text` to `path` through a temporary file; throws InputError naming `what`.
  static void writeText(const std::string& path, const std::string& text, const std::string& what);

  struct Change {
    uint64_t time_ps;
    uint64_t seq;
    Signal signal;
    bool known;
    uint64_t value;
  };
  std::vector<SignalInfo> signals_;
  std::vector<std::string> comments_;
  std::vector<Change> changes_;
  std::optional<std::pair<uint64_t, uint64_t>> window_ps_;
  bool keep_changes_;
  TraceSink* sink_ = nullptr;
};

// Receives the changes a Tracer records, in the order they are recorded (per signal in time
// order; across signals slightly out of order, as Tracer's header says).
class TraceSink {
 public:
  virtual ~TraceSink() = default;
  // A signal declared after the sink was set.
  virtual void onAdd(const Tracer::SignalInfo& /*info*/) {}
  virtual void onChange(Tracer::Signal signal, const Tracer::SignalInfo& info,
                        std::optional<uint64_t> value, const sc_core::sc_time& t) = 0;
};

}  // namespace hilsim::model
