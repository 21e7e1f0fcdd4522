// Bad input through build/hilsim: each exits 2 with one line on stderr naming the problem;
// nothing crashes or hangs, and no output file is left behind. Also run under ASan and UBSan.

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "files.h"
#include "golden_cases.h"
#include "runner.h"

namespace hilsim::test {
namespace {

void expectUsageError(const RunOutcome& r, const std::vector<std::string>& fragments) {
  EXPECT_FALSE(r.timed_out) << r.command;
  EXPECT_EQ(r.signal, 0) << r.command << " crashed: " << r.err;
  EXPECT_EQ(r.exit_code, 2) << r.command << "\n" << r.err;
  ASSERT_FALSE(r.err.empty()) << r.command;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line expected: " << r.err;
  EXPECT_EQ(r.err.rfind("hilsim: ", 0), 0u) << r.err;
  for (const std::string& f : fragments) EXPECT_NE(r.err.find(f), std::string::npos) << r.err;
}

TEST(BadModels, TruncatedAndBitFlippedModelsExitTwo) {
  const std::string dir = makeTempDir("bad-models");
  const std::vector<uint8_t> model =
      readFile(sharedDir() + "/models/micro_speech_quantized.tflite");
  std::mt19937_64 rng(99);
  int accepted = 0;
  for (int i = 0; i < 40; ++i) {
    std::vector<uint8_t> bad = model;
    if (i < 20) {
      bad.resize(model.size() * static_cast<size_t>(i) / 20 + static_cast<size_t>(i));
    } else {
      for (int f = 0; f < 3; ++f) bad[model.size() - 1 - rng() % 2048] ^= 1u << (rng() % 8);
    }
    const std::string path = dir + "/bad" + std::to_string(i) + ".tflite";
    writeFile(path, bad);
    const std::string out = dir + "/out" + std::to_string(i) + ".bin";
    const RunOutcome r = runHilsim({"run", "--model", path, "--output", out, "--quiet"}, 60);
    EXPECT_FALSE(r.timed_out) << r.command;
    EXPECT_EQ(r.signal, 0) << r.command << " crashed";
    if (r.exit_code == 0) {
      ++accepted;  // a flip in weights still gives a valid model
      continue;
    }
    expectUsageError(r, {path});
    EXPECT_FALSE(std::filesystem::exists(out)) << "partial output left by " << r.command;
  }
  EXPECT_LT(accepted, 20);
}

TEST(BadModels, NamedProblems) {
  expectUsageError(runHilsim({"run", "--model", "/no/such/model.tflite"}),
                   {"model '/no/such/model.tflite': cannot read: No such file or directory"});
  expectUsageError(runHilsim({"run", "--model", sharedDir() + "/golden/README.md"}),
                   {"not a TFLite model"});
  expectUsageError(
      runHilsim({"run", "--model", sharedDir() + "/models/audio_preprocessor_int8.tflite"}),
      {"14 unsupported operators of 11 kinds (hilsim has no kernel for them)",
       "CUSTOM 'SignalWindow' (operator 0)", "CAST (operators 5, 8, 14, 21)", "DIV (operator 17)"});
  expectUsageError(runHilsim({"inspect", sharedDir() + "/golden/index.json"}),
                   {"not a TFLite model"});
}

TEST(BadInputs, InputSizeMustBeWholeFrames) {
  const std::string dir = makeTempDir("bad-input");
  writeFile(dir + "/in.bin", std::vector<uint8_t>(3, 0));
  expectUsageError(
      runHilsim({"run", "--model", sharedDir() + "/models/micro_speech_quantized.tflite", "--input",
                 dir + "/in.bin"}),
      {"--input holds 3 bytes", "not a whole number of 1960-byte frames"});
  expectUsageError(runHilsim({"run", "--input", dir + "/missing.bin"}), {"missing.bin"});
  expectUsageError(runHilsim({"run", "--output", dir + "/no/such/dir/out.bin"}),
                   {"directory", "does not exist"});
}

// Every file the CLI reads, given a directory or a missing file: one line naming the file's role
// and the problem (a directory used to be read as a huge file: "out of memory").
TEST(BadPaths, DirectoriesAndMissingFilesNameTheFile) {
  const std::string dir = makeTempDir("bad-paths");
  const std::string missing = dir + "/missing";
  struct Case {
    std::vector<std::string> args;  // the path is appended
    std::string role;
  };
  const std::vector<Case> cases = {
      {{"run", "--model"}, "model"},
      {{"run", "--input"}, "--input"},
      {{"inspect"}, "model"},
      {{"annotate", "--out", dir + "/o.tflite", "--model"}, "model"},
      {{"sweep"}, "sweep spec"},
      {{"cpu-run", "--set", "cpu.preset=rv32im", "--entry", "f"}, "ELF"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = c.args;
    args.push_back(dir);
    const RunOutcome as_dir = runHilsim(args);
    expectUsageError(as_dir, {c.role + " '" + dir + "': is a directory"});
    args.back() = missing;
    expectUsageError(runHilsim(args),
                     {c.role + " '" + missing + "': cannot read: No such file or directory"});
  }
  expectUsageError(runHilsim({"run", "--config", dir}), {dir, "not a regular file"});
  expectUsageError(runHilsim({"run", "--config", missing}), {missing, "file not found"});
  expectUsageError(runHilsim({"trace-stats", dir}), {dir, "is a directory"});
}

TEST(BadEnvironment, UnknownDatapathIsAnError) {
  setenv("HILSIM_DATAPATH", "sse9", 1);
  const RunOutcome r = runHilsim({"run", "--quiet"});
  unsetenv("HILSIM_DATAPATH");
  expectUsageError(r, {"HILSIM_DATAPATH=sse9 is not one of portable|avx2|avx512"});
}

TEST(BadFlags, UsageErrors) {
  expectUsageError(runHilsim({"run", "--bogus"}), {"unknown option '--bogus'"});
  expectUsageError(runHilsim({"run", "--mode", "fast"}), {"--mode: 'fast'"});
  expectUsageError(runHilsim({"run", "--seed", "x"}), {"--seed"});
  expectUsageError(runHilsim({"nonsense"}), {"unknown command 'nonsense'"});
  expectUsageError(runHilsim({"gen-model", "--layers", "10", "--out", "/tmp/x.tflite"}),
                   {"--layers"});
  expectUsageError(runHilsim({"annotate", "--model", "m.tflite"}), {"--out is required"});
  expectUsageError(runHilsim({"run", "--vcd-layers", "1-2"}), {"--vcd-layers needs --vcd"});
}

TEST(BadConfigs, EachNamesFileLineAndKey) {
  const std::string dir = makeTempDir("bad-configs");
  auto config = [&](const std::string& name, const std::string& text) {
    const std::string path = dir + "/" + name;
    writeFile(path, std::vector<uint8_t>(text.begin(), text.end()));
    return path;
  };
  expectUsageError(runHilsim({"run", "--config", config("typo.yaml", "accel:\n  num_corse: 4\n")}),
                   {"typo.yaml:2", "accel.num_corse", "did you mean 'accel.num_cores'"});
  expectUsageError(
      runHilsim({"run", "--config", config("type.yaml", "accel:\n  num_cores: four\n")}),
      {"type.yaml:2", "accel.num_cores", "expected an integer"});
  expectUsageError(runHilsim({"run", "--config", config("range.yaml", "bus:\n  width_bytes: 3\n")}),
                   {"range.yaml:2", "bus.width_bytes"});
  expectUsageError(runHilsim({"run", "--config", config("zero.yaml", "accel:\n  num_cores: 0\n")}),
                   {"zero.yaml:2", "accel.num_cores", "1..64"});
  expectUsageError(runHilsim({"run", "--config", config("many.yaml", "accel:\n  num_cores: 65\n")}),
                   {"many.yaml:2", "accel.num_cores", "1..64"});
  expectUsageError(runHilsim({"run", "--config", config("inc.yaml", "include: nothere.yaml\n")}),
                   {"inc.yaml:1", "nothere.yaml"});
  expectUsageError(runHilsim({"run", "--config", config("broken.yaml", "accel: [1, 2\n")}),
                   {"broken.yaml", "YAML"});
  expectUsageError(runHilsim({"run", "--set", "accel.num_cores=65"}),
                   {"--set", "accel.num_cores", "1..64"});
  expectUsageError(runHilsim({"config", "--config", dir + "/absent.yaml"}), {"absent.yaml"});
}

}  // namespace
}  // namespace hilsim::test
