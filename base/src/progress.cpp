#include "hilsim/base/progress.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace hilsim {
namespace {

// "12 s", "3 min 05 s", "2 h 07 min".
std::string duration(double seconds) {
  const uint64_t s = static_cast<uint64_t>(std::llround(std::max(seconds, 0.0)));
  char text[48];
  if (s < 60)
    std::snprintf(text, sizeof text, "%llu s", static_cast<unsigned long long>(s));
  else if (s < 3600)
    std::snprintf(text, sizeof text, "%llu min %02llu s", static_cast<unsigned long long>(s / 60),
                  static_cast<unsigned long long>(s % 60));
  else
    std::snprintf(text, sizeof text, "%llu h %02llu min", static_cast<unsigned long long>(s / 3600),
                  static_cast<unsigned long long>(s % 3600 / 60));
  return text;
}

}  // namespace

bool stderrIsTerminal() {
  return isatty(STDERR_FILENO) == 1;
}

ProgressLine::ProgressLine(std::ostream& out, bool enabled, std::string label, std::string unit)
    : ProgressLine(out, enabled, std::move(label), std::move(unit), Options{}) {}

ProgressLine::ProgressLine(std::ostream& out, bool enabled, std::string label, std::string unit,
                           Options options)
    : out_(out),
      enabled_(enabled),
      label_(std::move(label)),
      unit_(std::move(unit)),
      options_(options),
      start_(Clock::now()) {}

ProgressLine::~ProgressLine() {
  clear();
}

std::string ProgressLine::text(uint64_t done, uint64_t total,
                               std::chrono::duration<double> elapsed) const {
  std::string line = label_ + " " + std::to_string(done);
  if (total) line += "/" + std::to_string(total);
  line += " " + unit_;
  if (total && done <= total) {
    char percent[16];
    std::snprintf(percent, sizeof percent, " (%.0f%%)",
                  std::floor(100.0 * static_cast<double>(done) / static_cast<double>(total)));
    line += percent;
    if (done > 0)
      line += ", ETA " + duration(elapsed.count() * static_cast<double>(total - done) /
                                  static_cast<double>(done));
  }
  return line;
}

void ProgressLine::update(uint64_t done, uint64_t total) {
  if (!enabled_) return;
  const Clock::time_point now = Clock::now();
  if (now - start_ < options_.delay) return;
  if (shown_columns_ && now - last_draw_ < options_.interval) return;
  last_draw_ = now;
  const std::string line = text(done, total, now - start_);
  // Carriage return, the line, then erase to the end of the terminal line (a shorter line leaves
  // nothing of the longer one behind).
  out_ << '\r' << line << "\x1b[K" << std::flush;
  shown_columns_ = std::max<size_t>(line.size(), 1);
}

ProgressCallback ProgressLine::callback() {
  return [this](uint64_t done, uint64_t total) { update(done, total); };
}

void ProgressLine::clear() {
  if (!shown_columns_) return;
  out_ << "\r\x1b[K" << std::flush;
  shown_columns_ = 0;
}

}  // namespace hilsim
