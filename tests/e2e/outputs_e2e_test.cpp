// Output files as a user meets them, through build/hilsim: an output that cannot be created is
// reported before any work starts (exit 2, one line naming the option and the path) and no other
// output is left behind; Ctrl-C or SIGTERM stop a run with one line, exit 130 or 143 and no
// temporary file, and a stopped sweep counts the points it stopped as not finished.

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "files.h"
#include "golden_cases.h"
#include "runner.h"

namespace hilsim::test {
namespace {

namespace fs = std::filesystem;

// A directory nobody can create files in, root included.
constexpr const char* kUnwritableDir = "/sys";

size_t lines(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

std::vector<std::string> filesIn(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    names.push_back(e.path().lexically_relative(dir).string());
  std::sort(names.begin(), names.end());
  return names;
}

class UnwritableOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string probe = std::string(kUnwritableDir) + "/hilsim-probe";
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
      ::close(fd);
      ::unlink(probe.c_str());
    }
    ASSERT_LT(fd, 0) << kUnwritableDir
                     << " is writable here; the test needs a directory that is not";
  }
  // Expects exit 2 with one line starting "hilsim: <option> '<path>': cannot create: ", and none
  // of the other outputs in dir_.
  void expectRefused(const RunOutcome& r, const std::string& option, const std::string& path) {
    EXPECT_FALSE(r.timed_out) << r.command;
    EXPECT_EQ(r.exit_code, 2) << r.command << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("hilsim: " + option + " '" + path + "': cannot create: ", 0), 0u)
        << r.err;
    EXPECT_EQ(filesIn(dir_), std::vector<std::string>{}) << r.command;
  }
  std::string dir_ = makeTempDir(std::string("outputs-") +
                                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
};

// Each of run's outputs in turn is unwritable while the others are fine: the run stops before it
// simulates, so the fine ones are not written either.
TEST_F(UnwritableOutput, RunChecksEveryOutputBeforeSimulating) {
  const GoldenCase& gc = goldenCase("real_hello_world_int8");
  const std::vector<std::pair<std::string, std::string>> outputs = {
      {"--output", "out.bin"},  {"--report", "r.json"}, {"--csv", "layers.csv"},
      {"--timeline", "t.json"}, {"--vcd", "t.vcd"},
  };
  for (const auto& [bad_option, bad_name] : outputs) {
    SCOPED_TRACE(bad_option);
    const std::string bad = std::string(kUnwritableDir) + "/hilsim-" + bad_name;
    std::vector<std::string> args = {"run",    "--model", gc.model, "--input", gc.vectors[0].input,
                                     "--mode", "accel",   "--quiet"};
    for (const auto& [option, name] : outputs) {
      args.push_back(option);
      args.push_back(option == bad_option ? bad : dir_ + "/" + name);
    }
    expectRefused(runHilsim(args), bad_option, bad);
  }
}

TEST_F(UnwritableOutput, AnnotateCalibrateAndCrossoverCheckBeforeWorking) {
  const GoldenCase& gc = goldenCase("real_hello_world_int8");
  const std::string model = std::string(kUnwritableDir) + "/hilsim-annotated.tflite";
  expectRefused(runHilsim({"annotate", "--model", gc.model, "--out", model, "--quiet"}), "--out",
                model);
  const std::string cal = std::string(kUnwritableDir) + "/hilsim-cal.yaml";
  expectRefused(runHilsim({"calibrate", "--set", "cpu.preset=cortex-m4f", "--out", cal}, 30),
                "--out", cal);
  // An existing directory that takes no files: refused before the first size is simulated.
  const RunOutcome r = runHilsim({"crossover", "--out", kUnwritableDir}, 30);
  expectRefused(r, "--out", std::string(kUnwritableDir) + "/crossover.csv");
  EXPECT_EQ(r.out, "");
}

std::string text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t temporariesIn(const std::string& dir) {
  size_t n = 0;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec))
    n += e.path().filename().string().find(".tmp.") != std::string::npos;
  return n;
}

// Waits until `ready` holds (polling) or `seconds` pass; returns whether it held.
template <typename Ready>
bool waitFor(Ready ready, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!ready()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

struct Stopped {
  int exit_code = -1;  // -1: ended by a signal
  int signal = 0;
  std::string out, err;
};

// Sends `signal` to `pid` and waits for it to end.
Stopped stop(int pid, int signal, const std::string& out_path, const std::string& err_path) {
  ::kill(pid, signal);
  int status = 0;
  ::waitpid(pid, &status, 0);
  Stopped s;
  if (WIFEXITED(status)) s.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) s.signal = WTERMSIG(status);
  s.out = text(out_path);
  s.err = text(err_path);
  return s;
}

class Interrupt : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override { fs::create_directories(dir_); }
  std::string logs_ = makeTestDir();  // this test's own: tests may run in parallel
  std::string dir_ = logs_ + "/outputs";
};

// A run stopped while it writes every kind of output (streamed --output, VCD, timeline) removes
// their temporary files, says so in one line and exits 128 + the signal; no output appears.
TEST_P(Interrupt, RunRemovesItsTemporariesAndExits128PlusTheSignal) {
  const std::string out = logs_ + "/stdout", err = logs_ + "/stderr";
  // The demo MLP for a million invocations: far longer than the test waits.
  const int pid = startHilsim({"run", "--invocations", "1000000", "--output", dir_ + "/out.bin",
                               "--report", dir_ + "/r.json", "--csv", dir_ + "/layers.csv", "--vcd",
                               dir_ + "/t.vcd", "--timeline", dir_ + "/t.json", "--quiet"},
                              out, err);
  // The streamed output, the VCD and the timeline are being written.
  const bool writing = waitFor([&] { return temporariesIn(dir_) == 3; }, 60);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const Stopped s = stop(pid, GetParam(), out, err);
  ASSERT_TRUE(writing) << "the run never had its three temporary files: " << temporariesIn(dir_);
  EXPECT_EQ(s.signal, 0) << "killed by the signal instead of handling it";
  EXPECT_EQ(s.exit_code, 128 + GetParam());
  EXPECT_EQ(s.err, GetParam() == SIGINT
                       ? "hilsim: interrupted (SIGINT); unfinished output files removed\n"
                       : "hilsim: terminated (SIGTERM); unfinished output files removed\n");
  EXPECT_EQ(filesIn(dir_), std::vector<std::string>{});
}

// A sweep stopped while points run: the points it stopped count as not finished (neither run
// nor failed), none leaves a temporary file, finished points are kept, and the sweep exits
// 128 + the signal.
TEST_P(Interrupt, SweepCountsStoppedPointsAsNotFinished) {
  const std::string spec = logs_ + "/spec.yaml";
  // Points of about 3 s each, so that one just started is still running when the sweep stops.
  std::ofstream(spec) << R"(models:
  - name: big
    layers: 1024,1024
grid:
  accel.num_cores: [1, 2, 3, 4, 5, 6, 7, 8]
run:
  invocations: 3000
)";
  const std::string out = logs_ + "/stdout", err = logs_ + "/stderr";
  const int pid = startHilsim({"sweep", spec, "--out", dir_, "--jobs", "2"}, out, err);
  // Points with results, and points started (each writes its log.txt when it starts).
  auto count = [&](const char* file) {
    size_t n = 0;
    std::error_code ec;
    for (const auto& p : fs::directory_iterator(dir_ + "/points", ec))
      n += fs::exists(p.path() / file);
    return n;
  };
  auto finished = [&] { return count("layers.csv"); };
  // One point finished and another started after it: stopped, it is mid-run.
  const bool one_done = waitFor([&] { return finished() >= 1 && count("log.txt") >= 3; }, 120);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const Stopped s = stop(pid, GetParam(), out, err);
  ASSERT_TRUE(one_done) << "no point finished, or none started after it";
  const size_t kept = finished();
  ASSERT_LT(kept, 8u) << "the sweep finished before it could be stopped";
  EXPECT_EQ(s.signal, 0);
  EXPECT_EQ(s.exit_code, 128 + GetParam()) << s.err;
  // Progress lines (stderr is not a terminal here), then one line about the interrupt.
  const std::string last =
      "hilsim: sweep interrupted; finished points are kept, run it again to go on\n";
  EXPECT_TRUE(s.err.size() >= last.size() &&
              s.err.compare(s.err.size() - last.size(), last.size(), last) == 0)
      << s.err;
  EXPECT_EQ(s.err.find("hilsim: "), s.err.size() - last.size()) << s.err;
  const std::string counts = "(0 skipped, " + std::to_string(kept) + " run, 0 failed, ";
  EXPECT_NE(s.out.find(std::to_string(kept) + " of 8 points"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find(counts), std::string::npos) << s.out;
  EXPECT_NE(s.out.find(" stopped unfinished)"), std::string::npos) << s.out;
  EXPECT_EQ(s.out.find(", 0 stopped unfinished)"), std::string::npos)
      << "no point was running when the sweep was stopped: " << s.out;
  EXPECT_EQ(temporariesIn(dir_), 0u);
}

INSTANTIATE_TEST_SUITE_P(Signals, Interrupt, ::testing::Values(SIGINT, SIGTERM),
                         [](const auto& info) {
                           return std::string(info.param == SIGINT ? "SIGINT" : "SIGTERM");
                         });

}  // namespace
}  // namespace hilsim::test
