#include <cmath>
#include <iostream>

#include "args.h"
#include "commands.h"
#include "hilsim/errors.h"
#include "trace_stats.h"

namespace hilsim::cli {
namespace {

double parseMhz(const std::string& option, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v) || v <= 0)
    throw UsageError(option + ": expected a positive clock in MHz, got '" + text + "'");
  return v;
}

}  // namespace

int traceStatsCommand(int argc, char** argv, int first) {
  std::string path, cpu_mhz = "400";
  bool json = false;
  ArgParser args("trace-stats",
                 "Reads any VCD and prints the activity of every signal: width, value changes,\n"
                 "first and last change, time at 1 (1-bit signals) or at non-zero and known\n"
                 "values, distinct values. For hilsim's own traces it adds, per invocation of\n"
                 "each layer (a stretch in which hilsim.layer holds one value), the duration in\n"
                 "host-CPU cycles and each core's busy time, and each core's busy time over the\n"
                 "whole trace. Reads the file in one streaming pass.");
  args.positional("t.vcd", &path, true, "the trace to read");
  args.flag("--json", &json, "print JSON instead of text");
  args.option("--cpu-mhz", &cpu_mhz, "F",
              "host CPU clock for cycle counts (default 400, hilsim's default cpu.clock_mhz)");
  if (!args.parse(argc, argv, first)) return 0;
  const double mhz = parseMhz("--cpu-mhz", cpu_mhz);
  const TraceStats stats = computeTraceStats(path);
  std::cout << (json ? traceStatsJson(stats, mhz) : traceStatsText(stats, mhz));
  return 0;
}

}  // namespace hilsim::cli
