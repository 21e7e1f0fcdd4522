// Memory independent of run length: the whole hilsim process's peak resident set (from wait4's
// rusage) for long runs and large traces stays within a fixed margin of a one-invocation run's.

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "files.h"
#include "golden_cases.h"
#include "hilsim/vcd/vcd_reader.h"
#include "runner.h"

namespace hilsim::test {
namespace {

namespace fs = std::filesystem;

// The growth allowed over a one-invocation run of the same kind, in KiB.
constexpr long kMarginKib = 16 * 1024;

struct Peak {
  int exit_code = -1;
  long max_rss_kib = 0;
};

// Runs hilsim with `args` and returns its exit code and peak resident set.
Peak runMeasured(const std::vector<std::string>& args) {
  const int pid = startHilsim(args);
  int status = 0;
  struct rusage usage {};
  Peak peak;
  if (wait4(pid, &status, 0, &usage) != pid) return peak;
  peak.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  peak.max_rss_kib = usage.ru_maxrss;
  return peak;
}

std::string helloWorld() {
  return sharedDir() + "/models/hello_world_int8.tflite";
}

class Memory : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = makeTestDir(); }
  // hello_world in `mode`, with the report and CSV written.
  std::vector<std::string> helloRun(const std::string& mode, const std::string& invocations) const {
    return {"run",       "--model", helloWorld(), "--mode",         mode,    "--invocations",
            invocations, "--quiet", "--report",   dir_ + "/r.json", "--csv", dir_ + "/r.csv"};
  }
  // Peak memory of `invocations` runs in `mode` stays within the margin of one invocation's.
  void expectFlat(const std::string& mode, const std::string& invocations) const {
    const Peak one = runMeasured(helloRun(mode, "1"));
    const Peak many = runMeasured(helloRun(mode, invocations));
    ASSERT_EQ(one.exit_code, 0);
    ASSERT_EQ(many.exit_code, 0);
    EXPECT_LT(many.max_rss_kib - one.max_rss_kib, kMarginKib)
        << "1 invocation: " << one.max_rss_kib << " KiB, " << invocations << ": "
        << many.max_rss_kib << " KiB";
  }
  std::string dir_;
};

// Each invocation's layer records are summed as the run goes, not kept: 40,000 invocations of
// three offloaded layers (120,000 records) in the memory of one.
TEST_F(Memory, InvocationsOnThePlatformDoNotGrowIt) {
  expectFlat("accel", "40000");
}

// The same on the counting clock (ref mode without a trace), 200,000 invocations.
TEST_F(Memory, InvocationsOnTheCountingClockDoNotGrowIt) {
  expectFlat("ref", "200000");
}

// --output is written as the run goes: 10,000 invocations of a layer with 4096 outputs (40 MB) in
// the memory of one; the file holds every invocation's output and no temporary file is left.
TEST_F(Memory, OutputsAreWrittenAsTheRunGoes) {
  const std::string model = dir_ + "/wide.tflite";
  ASSERT_EQ(runHilsim({"gen-model", "--layers", "16,4096", "--out", model}).exit_code, 0);
  const std::string out = dir_ + "/out.bin";
  auto args = [&](const char* n) {
    return std::vector<std::string>{"run",           "--model", model,     "--mode",   "ref",
                                    "--invocations", n,         "--quiet", "--output", out};
  };
  const Peak one = runMeasured(args("1"));
  ASSERT_EQ(one.exit_code, 0);
  const Peak many = runMeasured(args("10000"));
  ASSERT_EQ(many.exit_code, 0);
  EXPECT_EQ(fs::file_size(out), 10000u * 4096u);
  EXPECT_LT(many.max_rss_kib - one.max_rss_kib, kMarginKib)
      << "1 invocation: " << one.max_rss_kib << " KiB; 10000: " << many.max_rss_kib << " KiB";
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos) << entry.path();
}

// A run that fails after its output file was opened leaves neither it nor a temporary file.
TEST_F(Memory, AFailedRunLeavesNoOutputFile) {
  const std::string model = dir_ + "/mlp.tflite";
  ASSERT_EQ(runHilsim({"gen-model", "--layers", "16,4", "--out", model}).exit_code, 0);
  const std::string input = dir_ + "/odd.bin";  // 3 bytes: not a whole 16-byte frame
  ASSERT_EQ(runShell("printf 'abc' > " + input), 0);
  const std::string out = dir_ + "/out.bin";
  const RunOutcome r =
      runHilsim({"run", "--model", model, "--input", input, "--output", out, "--quiet"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename().string().find("out.bin"), std::string::npos) << entry.path();
}

// Counts a VCD's timestamps and value changes and checks the timestamps only grow.
struct Counter final : vcd::Handler {
  uint64_t times = 0, changes = 0, last = 0;
  bool ordered = true;
  void header(const vcd::Header&) override {}
  void time(uint64_t t) override {
    ordered = ordered && (times == 0 || t > last);
    last = t;
    ++times;
  }
  void change(size_t, vcd::ValueKind, std::string_view) override { ++changes; }
};

// The VCD is written as the simulation goes: a trace of tens of MB in the memory of a short one.
TEST_F(Memory, ALargeTraceIsWrittenAsTheRunGoes) {
  const std::string vcd = dir_ + "/t.vcd";
  auto args = [&](const char* n) {
    return std::vector<std::string>{"run",           "--model", helloWorld(), "--mode", "accel",
                                    "--invocations", n,         "--quiet",    "--vcd",  vcd};
  };
  const Peak one = runMeasured(args("1"));
  ASSERT_EQ(one.exit_code, 0);
  const Peak many = runMeasured(args("12000"));
  ASSERT_EQ(many.exit_code, 0);
  const uintmax_t bytes = fs::file_size(vcd);
  EXPECT_GT(bytes, 20u << 20) << "the trace is too small to show anything";
  EXPECT_LT(many.max_rss_kib - one.max_rss_kib, kMarginKib)
      << "1 invocation: " << one.max_rss_kib << " KiB; 12000 invocations, a " << (bytes >> 20)
      << " MB trace: " << many.max_rss_kib << " KiB";
  // Complete and in time order; no temporary file left beside it.
  Counter counter;
  vcd::readFile(vcd, counter);
  EXPECT_TRUE(counter.ordered);
  EXPECT_GT(counter.changes, 1000000u);
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos) << entry.path();
}

}  // namespace
}  // namespace hilsim::test
