// Determinism: the same inputs give byte-identical outputs, reports, CSVs and traces (apart from
// the host-timing fields of the report) across repeated runs, across sim.quantum_ns, across sweep
// --jobs values and, when HILSIM_REFERENCE_HILSIM names the executable of another build (the CI
// passes the default build's to the -O3 -march=native build), across builds.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "files.h"
#include "golden_cases.h"
#include "runner.h"

namespace hilsim::test {
namespace {

namespace fs = std::filesystem;

std::string text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "missing " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A JSON report without the lines that measure the host (one key per line).
std::string withoutHostTiming(const std::string& report) {
  std::istringstream in(report);
  std::string line, kept;
  size_t dropped = 0;
  while (std::getline(in, line)) {
    if (line.find("\"host_seconds\"") != std::string::npos ||
        line.find("\"simulated_cycles_per_host_second\"") != std::string::npos) {
      ++dropped;
      continue;
    }
    kept += line + "\n";
  }
  EXPECT_EQ(dropped, 2u) << "the report's host-timing fields moved";
  return kept;
}

std::string preset(const std::string& name) {
  return std::string(HILSIM_SOURCE_DIR) + "/configs/" + name + ".yaml";
}

// The files one run writes into `dir`, by name; `traced` when the run was asked for a trace.
struct RunFiles {
  std::string output, report, csv, vcd;
  bool traced = false;
};

// One `hilsim run` of `model` writing every kind of output into `dir`, with `executable`.
RunFiles runAll(const std::string& executable, const std::string& dir, const std::string& model,
                const std::vector<std::string>& extra) {
  fs::create_directories(dir);
  std::vector<std::string> args = {
      "run",          "--model",        model,      "--config",      preset("m4"),
      "--output",     dir + "/out.bin", "--report", dir + "/r.json", "--csv",
      dir + "/r.csv", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::string command = "'" + executable + "'";
  for (const std::string& a : args) command += " '" + a + "'";
  EXPECT_EQ(runShell(command + " >/dev/null"), 0) << command;
  // A run asked for a trace must have written it: text() fails the test on a missing file.
  const auto vcd = std::find(extra.begin(), extra.end(), "--vcd");
  const bool traced = vcd != extra.end() && vcd + 1 != extra.end();
  return {text(dir + "/out.bin"), withoutHostTiming(text(dir + "/r.json")), text(dir + "/r.csv"),
          traced ? text(*(vcd + 1)) : std::string(), traced};
}

void expectSame(const RunFiles& a, const RunFiles& b) {
  EXPECT_FALSE(a.output.empty());
  EXPECT_EQ(a.traced, b.traced);
  if (a.traced) EXPECT_FALSE(a.vcd.empty()) << "empty trace";
  EXPECT_TRUE(a.output == b.output) << "outputs differ";
  EXPECT_EQ(a.report, b.report);
  EXPECT_EQ(a.csv, b.csv);
  EXPECT_TRUE(a.vcd == b.vcd) << "traces differ";
}

class Determinism : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = makeTestDir();
    // A four-layer MLP, annotated for the m4 preset, and a real convolutional model.
    ASSERT_EQ(runHilsim({"gen-model", "--layers", "300,200,100,40,10", "--activation", "relu",
                         "--out", dir_ + "/mlp.tflite"})
                  .exit_code,
              0);
    ASSERT_EQ(runHilsim({"annotate", "--model", dir_ + "/mlp.tflite", "--config", preset("m4"),
                         "--out", dir_ + "/mlp_m4.tflite", "--quiet"})
                  .exit_code,
              0);
  }
  std::string dir_;
};

TEST_F(Determinism, RepeatedRunsAreByteIdentical) {
  const std::string model = dir_ + "/mlp_m4.tflite";
  for (const std::string mode : {"accel", "auto", "compare", "ref"}) {
    SCOPED_TRACE(mode);
    const std::string a = dir_ + "/a-" + mode, b = dir_ + "/b-" + mode;
    std::vector<std::string> args_a = {"--mode", mode, "--invocations", "3"}, args_b = args_a;
    if (mode != "ref") {  // the reference path runs without the platform, so without a trace
      args_a.insert(args_a.end(), {"--vcd", a + "/t.vcd"});
      args_b.insert(args_b.end(), {"--vcd", b + "/t.vcd"});
    }
    expectSame(runAll(hilsimPath(), a, model, args_a), runAll(hilsimPath(), b, model, args_b));
  }
  const std::string person = sharedDir() + "/models/person_detect.tflite";
  expectSame(runAll(hilsimPath(), dir_ + "/pa", person, {"--mode", "auto"}),
             runAll(hilsimPath(), dir_ + "/pb", person, {"--mode", "auto"}));
}

TEST_F(Determinism, QuantumDoesNotChangeTheResults) {
  // The report records the config, so compare what was simulated: outputs and the layer table.
  const std::string model = dir_ + "/mlp_m4.tflite";
  const RunFiles fine =
      runAll(hilsimPath(), dir_ + "/q1", model,
             {"--mode", "auto", "--invocations", "2", "--set", "sim.quantum_ns=10"});
  for (const char* quantum : {"1000", "100000", "10000000"}) {
    SCOPED_TRACE(quantum);
    const RunFiles coarse = runAll(hilsimPath(), dir_ + "/q" + quantum, model,
                                   {"--mode", "auto", "--invocations", "2", "--set",
                                    std::string("sim.quantum_ns=") + quantum});
    EXPECT_TRUE(fine.output == coarse.output);
    EXPECT_EQ(fine.csv, coarse.csv);
  }
}

// Convolutions move 2-D input bands and 3-D output tiles: how the simulator cuts them into TLM
// transactions changes neither the bytes nor a cycle of the layer table.
TEST_F(Determinism, TransactionSizeDoesNotChangeConvolutions) {
  const std::string person = sharedDir() + "/models/person_detect.tflite";
  const RunFiles whole =
      runAll(hilsimPath(), dir_ + "/t0", person, {"--mode", "accel", "--invocations", "2"});
  for (const char* bytes : {"64", "4096"}) {
    SCOPED_TRACE(bytes);
    const RunFiles cut = runAll(hilsimPath(), dir_ + "/t" + bytes, person,
                                {"--mode", "accel", "--invocations", "2", "--set",
                                 std::string("sim.transaction_bytes=") + bytes});
    EXPECT_TRUE(whole.output == cut.output);
    EXPECT_EQ(whole.csv, cut.csv);
  }
}

TEST_F(Determinism, SweepResultsDoNotDependOnJobs) {
  const std::string spec = dir_ + "/spec.yaml";
  std::ofstream(spec) << "base_config: " << preset("default") << R"(
models:
  - name: mlp
    layers: 96,64,10
  - name: wide
    layers: 256,32
grid:
  accel.num_cores: [1, 2, 4]
  bus.arbitration: [round_robin, fixed]
run:
  invocations: 2
)";
  for (const char* jobs : {"1", "2"}) {
    const RunOutcome r =
        runHilsim({"sweep", spec, "--out", dir_ + "/sweep-j" + jobs, "--jobs", jobs});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const std::string one = dir_ + "/sweep-j1", two = dir_ + "/sweep-j2";
  EXPECT_EQ(text(one + "/results.csv"), text(two + "/results.csv"));
  size_t points = 0;
  for (const auto& e : fs::directory_iterator(one + "/points")) {
    const std::string id = e.path().filename().string();
    EXPECT_EQ(text(one + "/points/" + id + "/layers.csv"),
              text(two + "/points/" + id + "/layers.csv"))
        << id;
    ++points;
  }
  EXPECT_EQ(points, 12u);
}

#ifdef HILSIM_REFERENCE_HILSIM
TEST_F(Determinism, MatchesTheReferenceBuild) {
  const std::string other = HILSIM_REFERENCE_HILSIM;
  ASSERT_TRUE(fs::exists(other)) << other;
  const std::string model = dir_ + "/mlp_m4.tflite";
  for (const char* mode : {"accel", "auto", "compare"}) {
    SCOPED_TRACE(mode);
    const std::string a = dir_ + "/self-" + mode, b = dir_ + "/other-" + mode;
    expectSame(
        runAll(hilsimPath(), a, model,
               {"--mode", mode, "--invocations", "2", "--vcd", a + "/t.vcd"}),
        runAll(other, b, model, {"--mode", mode, "--invocations", "2", "--vcd", b + "/t.vcd"}));
  }
  for (const GoldenCase& c : goldenCases()) {
    SCOPED_TRACE(c.name);
    const std::vector<std::string> extra = {"--mode", "auto", "--input", c.vectors[0].input};
    expectSame(runAll(hilsimPath(), dir_ + "/self-" + c.name, c.model, extra),
               runAll(other, dir_ + "/other-" + c.name, c.model, extra));
  }
}
#endif

}  // namespace
}  // namespace hilsim::test
