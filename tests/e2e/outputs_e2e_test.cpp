// Output files as a user meets them, through build/hilsim: an output that cannot be created is
// reported before any work starts (exit 2, one line naming the option and the path) and no other
// output is left behind.

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

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

}  // namespace
}  // namespace hilsim::test
