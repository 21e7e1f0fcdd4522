#pragma once
// VCD trace of the platform (traces/README.md lists every signal). Modules record value changes
// at simulated events, never per cycle; a module holding no Tracer records nothing, so tracing
// costs nothing when it is off. Changes may be recorded slightly out of order (the host CPU runs
// ahead of global time within its quantum, never behind it): the tracer buffers them and writes
// those before the current simulated time in time order whenever the buffer reaches a fixed
// size, so its memory does not grow with the length of the run.

#include <cstdint>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "hilsim/base/io.h"

namespace hilsim::model {

class TraceSink;

class Tracer {
 public:
  using Signal = uint32_t;

  // Without open() changes go only to the sink (no VCD is written).
  Tracer() = default;
  // Removes the temporary file of a VCD that was opened and not finished.
  ~Tracer();
  Tracer(const Tracer&) = delete;
  Tracer& operator=(const Tracer&) = delete;

  // Every recorded change is also passed to `sink` as it is recorded (not owned; may be null).
  void setSink(TraceSink* sink) { sink_ = sink; }

  // Starts the VCD `path`, written as the simulation goes to a temporary file beside it that
  // finish() renames to `path`. Call before the simulation starts. Throws InputError.
  void open(const std::string& path, const std::string& version);

  // Declares a signal before the VCD's first change is written (before simulation starts);
  // `scope` is dotted ("core0", "dma.ch1").
  Signal add(const std::string& scope, const std::string& name, uint32_t width_bits,
             std::optional<uint64_t> initial = 0);
  // Records a value (nullopt: unknown, written as x) at simulated time `t`, which is never before
  // the current simulated time. Throws SimulationError if the changes at `t` are already written.
  void set(Signal signal, std::optional<uint64_t> value, const sc_core::sc_time& t);
  void set(Signal signal, std::optional<uint64_t> value) {
    set(signal, value, sc_core::sc_time_stamp());
  }

  // A line for the VCD's $comment section (e.g. the clocks readers need), before the first
  // change is written.
  void addComment(const std::string& text) { comments_.push_back(text); }

  // Keeps only the part of the trace between `from` and `to` (inclusive), both learnt as the
  // simulation goes; the values current at `from` are dumped there. boundWindow() before the
  // simulation starts, windowStart() before the simulation's time reaches `from`,
  // windowEndsAfter() with times that `to` is known not to precede, and windowEnd(). Until
  // windowEnd(), the changes after the last windowEndsAfter() time are held in memory.
  void boundWindow() { windowed_ = true; }
  void windowStart(sc_core::sc_time from);
  void windowEndsAfter(sc_core::sc_time t);
  void windowEnd(sc_core::sc_time to);
  // Whether windowStart() and windowEnd() were both given.
  bool windowKnown() const { return window_from_ && window_to_; }
  // Stops writing the VCD and removes its temporary file (the window will never be known);
  // finish() then throws. Changes still go to the sink.
  void abandon();

  // Writes the changes still buffered and renames the VCD to its path. Throws InputError.
  void finish();
  // The time the trace covers, in ps: its window, or 0 to its last change.
  std::pair<uint64_t, uint64_t> timeRange() const;

  // Changes recorded for the VCD so far.
  uint64_t changes() const { return recorded_; }
  // Changes buffered before the tracer writes the final ones out.
  static constexpr size_t kFlushChanges = size_t{1} << 15;

  struct SignalInfo {
    std::string scope;
    std::string name;
    uint32_t width;
    std::optional<uint64_t> initial;
  };
  const std::vector<SignalInfo>& signals() const { return signals_; }

 private:
  void writeScopes(std::ostream& out) const;
  struct Change {
    uint64_t time_ps;
    uint64_t seq;
    Signal signal;
    bool known;
    uint64_t value;
  };
  // Writes (or, before the window, applies) the buffered changes before `horizon_ps`, in time
  // order, as far as the window allows.
  void flush(uint64_t horizon_ps);
  // The header and the values current at the window's start.
  void writeDump();
  void emit(const std::string& text);
  void closeFile();

  std::vector<SignalInfo> signals_;
  std::vector<std::string> comments_;
  std::vector<std::string> ids_;  // VCD identifier code per signal
  TraceSink* sink_ = nullptr;

  // The VCD being written.
  std::FILE* file_ = nullptr;
  std::string path_, tmp_path_, version_;
  RegisteredTemporary tmp_registration_;  // removes tmp_path_ on a stop signal
  std::string out_;                       // text not yet written to file_, at most about kOutBytes
  bool failed_ = false;
  bool abandoned_ = false;
  std::vector<Change> pending_;  // recorded, not yet written
  size_t flush_at_ = kFlushChanges;
  uint64_t seq_ = 0, recorded_ = 0, last_time_ps_ = 0;
  uint64_t written_until_ps_ = 0;  // changes before this time are written (or dropped)
  std::vector<std::pair<bool, uint64_t>> current_;  // per signal: known, value
  bool dumped_ = false;
  std::vector<int64_t> last_change_;  // scratch of flush(): per signal, index in pending_

  bool windowed_ = false;
  std::optional<uint64_t> window_from_, window_to_;
  uint64_t window_to_at_least_ = 0;
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
