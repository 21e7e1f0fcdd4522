// Long runs and long traces keep bounded memory: `run --per-invocation` with --report and --csv,
// and `trace-stats` (text and --json), peak at about the same resident size for 100 times the
// invocations or windows, while writing every record.

#include <sys/resource.h>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "files.h"
#include "runner.h"

namespace hilsim::test {
namespace {

// A command finishing cleanly and its peak resident set size.
struct Peak {
  int exit_code = -1;
  long maxrss_kb = 0;
};

Peak runMeasured(const std::vector<std::string>& args, const std::string& out_path,
                 const std::string& err_path) {
  const int pid = startHilsim(args, out_path, err_path);
  int status = 0;
  rusage usage{};
  Peak peak;
  if (::wait4(pid, &status, 0, &usage) != pid) return peak;
  peak.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  peak.maxrss_kb = usage.ru_maxrss;
  return peak;
}

size_t countLines(const std::string& path) {
  std::ifstream in(path);
  size_t lines = 0;
  std::string line;
  while (std::getline(in, line)) ++lines;
  return lines;
}

// Growth allowed from the short to the long run: a small fraction of what keeping every record
// costs (the long runs below held over 100 MB before records were streamed).
constexpr long kGrowthBoundKb = 8 * 1024;

TEST(BoundedMemory, PerInvocationRunDoesNotGrowWithInvocations) {
  const std::string dir = makeTestDir();
  auto run = [&](int invocations) {
    const std::string tag = std::to_string(invocations);
    const Peak peak =
        runMeasured({"run", "--invocations", tag, "--per-invocation", "--report",
                     dir + "/r" + tag + ".json", "--csv", dir + "/l" + tag + ".csv", "--quiet"},
                    dir + "/out" + tag, dir + "/err" + tag);
    EXPECT_EQ(peak.exit_code, 0) << tag;
    // The demo model's three layers per invocation, every one written, and a header.
    EXPECT_EQ(countLines(dir + "/l" + tag + ".csv"), 1u + 3u * invocations) << tag;
    return peak.maxrss_kb;
  };
  const long short_kb = run(30);
  const long long_kb = run(3000);
  RecordProperty("short_maxrss_kb", std::to_string(short_kb));
  RecordProperty("long_maxrss_kb", std::to_string(long_kb));
  EXPECT_LT(long_kb - short_kb, kGrowthBoundKb)
      << "30 invocations: " << short_kb << " KB, 3000: " << long_kb << " KB";
}

// A hilsim-shaped trace: one layer index signal and two busy cores, `windows` layer windows of
// 4 layers each per invocation.
void writeTrace(const std::string& path, int windows) {
  std::ofstream out(path);
  out << "$timescale 1ps $end\n$scope module hilsim $end\n$var wire 8 ! layer $end\n"
         "$scope module core0 $end\n$var wire 1 a busy $end\n$upscope $end\n"
         "$scope module core1 $end\n$var wire 1 b busy $end\n$upscope $end\n"
         "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\nbx !\n0a\n0b\n$end\n";
  uint64_t t = 10;
  for (int w = 0; w < windows; ++w) {
    out << '#' << t << "\nb"
        << ((w % 4) == 0   ? "0"
            : (w % 4) == 1 ? "1"
            : (w % 4) == 2 ? "10"
                           : "11")
        << " !\n1a\n#" << t + 20 << "\n1b\n#" << t + 60 << "\n0a\n0b\n";
    t += 100;
  }
  out << '#' << t << "\nbx !\n";
}

TEST(BoundedMemory, TraceStatsDoesNotGrowWithTheTrace) {
  const std::string dir = makeTestDir();
  writeTrace(dir + "/short.vcd", 1000);
  writeTrace(dir + "/long.vcd", 100000);
  for (const std::vector<std::string>& format :
       {std::vector<std::string>{}, std::vector<std::string>{"--json"}}) {
    const std::string name = format.empty() ? "text" : "json";
    auto measure = [&](const std::string& trace) {
      std::vector<std::string> args = {"trace-stats", dir + "/" + trace + ".vcd"};
      args.insert(args.end(), format.begin(), format.end());
      const std::string out = dir + "/" + trace + "." + name;
      const Peak peak = runMeasured(args, out, out + ".err");
      EXPECT_EQ(peak.exit_code, 0) << trace << " " << name;
      return peak.maxrss_kb;
    };
    const long short_kb = measure("short");
    const long long_kb = measure("long");
    RecordProperty(name + "_short_maxrss_kb", std::to_string(short_kb));
    RecordProperty(name + "_long_maxrss_kb", std::to_string(long_kb));
    EXPECT_LT(long_kb - short_kb, kGrowthBoundKb)
        << name << ": 1000 windows: " << short_kb << " KB, 100000: " << long_kb << " KB";
  }
  // Every window is listed: the text's window table has a row per window.
  std::ifstream text(dir + "/long.text");
  size_t rows = 0;
  bool in_table = false;
  std::string line;
  while (std::getline(text, line)) {
    if (line.rfind("invocation ", 0) == 0)
      in_table = true;
    else if (line.empty())
      in_table = false;
    else if (in_table)
      ++rows;
  }
  EXPECT_EQ(rows, 100000u);
}

}  // namespace
}  // namespace hilsim::test
