#pragma once
// One updating progress line for long work: "<label> <done>/<total> <unit> (P%), ETA T". It
// appears only once the work has taken longer than a delay (1 s), is redrawn at most a few times
// a second, and is erased when the work ends, so a short run prints nothing. Only the command
// line decides whether a line is shown at all (a terminal on stderr and no --quiet); libraries
// report their progress through a callback (ProgressCallback) and never print.

#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace hilsim {

// What long work reports as it goes: `done` of `total` units (total 0: not known).
using ProgressCallback = std::function<void(uint64_t done, uint64_t total)>;

// True when stderr is a terminal: where a progress line belongs.
bool stderrIsTerminal();

class ProgressLine {
 public:
  using Clock = std::chrono::steady_clock;

  struct Options {
    std::chrono::milliseconds delay{1000};    // no line for work shorter than this
    std::chrono::milliseconds interval{200};  // least time between two redraws
  };

  // `out` is the terminal's stream (std::cerr); nothing is written when `enabled` is false.
  ProgressLine(std::ostream& out, bool enabled, std::string label, std::string unit);
  ProgressLine(std::ostream& out, bool enabled, std::string label, std::string unit,
               Options options);
  // Erases the line if one is shown.
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Reports progress; redraws when the delay and the interval have passed.
  void update(uint64_t done, uint64_t total);
  // The same as a callback for a library.
  ProgressCallback callback();
  // Erases the line (the work ended, or something else is about to be printed).
  void clear();
  // The text of the line for `done` of `total` after `elapsed` (no carriage return).
  std::string text(uint64_t done, uint64_t total, std::chrono::duration<double> elapsed) const;

 private:
  std::ostream& out_;
  bool enabled_;
  std::string label_, unit_;
  Options options_;
  Clock::time_point start_;
  Clock::time_point last_draw_{};
  size_t shown_columns_ = 0;  // 0: no line on the terminal
};

}  // namespace hilsim
