#include <cmath>
#include <iostream>

#include "args.h"
#include "commands.h"
#include "hilsim/errors.h"
#include "hilsim/vcd/trace_stats.h"

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
  std::string path;
  std::optional<std::string> cpu_mhz;
  bool json = false;
  ArgParser args("trace-stats",
                 "Reads any VCD and prints the activity of every signal: width, value changes,\n"
                 "first and last change, time at 1 (1-bit signals) or at non-zero and known\n"
                 "values, distinct values. For hilsim's own traces it adds, per invocation of\n"
                 "each layer (a stretch in which hilsim.layer holds one value), the duration in\n"
                 "host-CPU cycles and each core's busy time, and each core's busy time over the\n"
                 "whole trace. Reads the file in one streaming pass; memory does not grow with\n"
                 "the trace's length.");
  args.positional("t.vcd", &path, true, "the trace to read");
  args.flag("--json", &json, "print JSON instead of text");
  args.option("--cpu-mhz", &cpu_mhz, "F",
              "host CPU clock for cycle counts (default: the clock the trace records, else 400)");
  if (!args.parse(argc, argv, first)) return 0;
  const std::optional<double> given =
      cpu_mhz ? std::optional<double>(parseMhz("--cpu-mhz", *cpu_mhz)) : std::nullopt;
  const vcd::TraceStats stats = vcd::computeTraceStats(path);
  const double mhz =
      given ? *given
            : (stats.hilsim && stats.hilsim->cpu_clock_mhz ? *stats.hilsim->cpu_clock_mhz : 400.0);
  if (json)
    vcd::writeTraceStatsJson(std::cout, stats, mhz);
  else
    vcd::writeTraceStatsText(std::cout, stats, mhz);
  return 0;
}

}  // namespace hilsim::cli
