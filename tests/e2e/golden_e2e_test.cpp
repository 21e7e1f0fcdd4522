// Every vector of every golden case through build/hilsim, in every mode, byte for byte.

#include <gtest/gtest.h>

#include "files.h"
#include "golden_cases.h"
#include "hilsim/core/dot.h"
#include "runner.h"

namespace hilsim::test {
namespace {

struct Param {
  std::string golden;
  std::string mode;
};

void PrintTo(const Param& p, std::ostream* os) {
  *os << p.golden << " " << p.mode;
}

class GoldenCli : public ::testing::TestWithParam<Param> {};

TEST_P(GoldenCli, OutputsMatchTflmBytes) {
  const GoldenCase& gc = goldenCase(GetParam().golden);
  const std::string dir = makeTempDir("golden-" + gc.name + "-" + GetParam().mode);
  for (const GoldenVector& v : gc.vectors) {
    const std::string out = dir + "/out.bin";
    const RunOutcome r = runHilsim({"run", "--model", gc.model, "--input", v.input, "--output", out,
                                    "--mode", GetParam().mode, "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
    EXPECT_EQ(readFile(out), readFile(v.expected)) << r.command;
  }
}

std::vector<Param> params() {
  std::vector<Param> out;
  for (const std::string& name : goldenCaseNames())
    for (const std::string& mode : goldenModes(name)) out.push_back({name, mode});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenCli, ::testing::ValuesIn(params()), [](const auto& info) {
  return info.param.golden + "_" + info.param.mode;
});

// On a preset with an instruction-set simulator the reference kernels and the driver run as
// firmware (cpu.model iss): the bytes must not change.
struct IssParam {
  std::string golden;
  std::string preset;
  std::string mode;
};

void PrintTo(const IssParam& p, std::ostream* os) {
  *os << p.golden << " " << p.preset << " " << p.mode;
}

class GoldenIss : public ::testing::TestWithParam<IssParam> {};

TEST_P(GoldenIss, FirmwareOutputsMatchTflmBytes) {
  const IssParam& p = GetParam();
  const GoldenCase& gc = goldenCase(p.golden);
  const std::string dir = makeTempDir("golden-iss-" + gc.name + "-" + p.preset + "-" + p.mode);
  for (const GoldenVector& v : gc.vectors) {
    const std::string out = dir + "/out.bin";
    const RunOutcome r =
        runHilsim({"run", "--model", gc.model, "--input", v.input, "--output", out, "--mode",
                   p.mode, "--quiet", "--set", "cpu.preset=" + p.preset, "--set", "cpu.model=iss"});
    ASSERT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
    EXPECT_EQ(readFile(out), readFile(v.expected)) << r.command;
  }
}

std::vector<IssParam> issParams() {
  std::vector<IssParam> out;
  for (const std::string& name : goldenCaseNames())
    for (const char* preset : {"cortex-m4f", "rv32im"})
      for (const std::string& mode : goldenModes(name)) out.push_back({name, preset, mode});
  return out;
}

std::string issName(const ::testing::TestParamInfo<IssParam>& info) {
  std::string preset = info.param.preset;
  for (char& c : preset)
    if (c == '-') c = '_';
  return info.param.golden + "_" + preset + "_" + info.param.mode;
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenIss, ::testing::ValuesIn(issParams()), issName);

// Each board preset runs its core's firmware under its part's flash memory system: one small case
// per board, in ref mode (every kernel on the ISS) and auto.
std::vector<IssParam> boardParams() {
  std::vector<IssParam> out;
  for (const char* preset : {"stm32g0b1", "stm32l4r5", "nrf5340", "stm32u575", "ra6m4", "fe310"})
    for (const char* mode : {"ref", "auto"}) out.push_back({"fc_13x7_pc_relu6", preset, mode});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Boards, GoldenIss, ::testing::ValuesIn(boardParams()), issName);

// cpu.kernels optimized: every core's optimized firmware image (the DSP paths on the Cortex-M4
// and M33, the portable ones on the Cortex-M0+ and RV32) must give TFLite Micro's bytes in every
// mode, the CPU layers of accel and auto and both sides of compare included.
class GoldenIssOptimized : public ::testing::TestWithParam<IssParam> {};

TEST_P(GoldenIssOptimized, OptimizedFirmwareOutputsMatchTflmBytes) {
  const IssParam& p = GetParam();
  const GoldenCase& gc = goldenCase(p.golden);
  const std::string dir = makeTempDir("golden-opt-" + gc.name + "-" + p.preset + "-" + p.mode);
  for (const GoldenVector& v : gc.vectors) {
    const std::string out = dir + "/out.bin";
    const RunOutcome r = runHilsim({"run", "--model", gc.model, "--input", v.input, "--output", out,
                                    "--mode", p.mode, "--quiet", "--set", "cpu.preset=" + p.preset,
                                    "--set", "cpu.model=iss", "--set", "cpu.kernels=optimized"});
    ASSERT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
    EXPECT_EQ(readFile(out), readFile(v.expected)) << r.command;
  }
}

std::vector<IssParam> optimizedParams() {
  std::vector<IssParam> out;
  for (const std::string& name : goldenCaseNames())
    for (const char* preset : {"cortex-m0plus", "cortex-m4f", "cortex-m33", "rv32im"})
      for (const std::string& mode : goldenModes(name)) out.push_back({name, preset, mode});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenIssOptimized, ::testing::ValuesIn(optimizedParams()),
                         issName);

// Each board preset runs its core's optimized image under its part's memories: the int8 LSTM
// (optimized gate products) and its FULLY_CONNECTED and SOFTMAX, in ref mode.
std::vector<IssParam> boardOptimizedParams() {
  std::vector<IssParam> out;
  for (const char* preset : {"stm32g0b1", "stm32l4r5", "nrf5340", "stm32u575", "ra6m4", "fe310"})
    out.push_back({"real_micro_speech_lstm", preset, "ref"});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Boards, GoldenIssOptimized, ::testing::ValuesIn(boardOptimizedParams()),
                         issName);

// The cores' datapath dispatches on the CPU (portable, AVX2, AVX-512): every path this machine
// can run must give the same bytes. (Asking for a path the CPU lacks is an exit-2 error.)
class GoldenDatapath : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenDatapath, EveryCaseMatchesOnThisPath) {
  const std::string path = GetParam();
  setenv("HILSIM_DATAPATH", path.c_str(), 1);
  for (const std::string& name : goldenCaseNames()) {
    const GoldenCase& gc = goldenCase(name);
    const std::string dir = makeTempDir("datapath-" + path + "-" + name);
    for (const GoldenVector& v : gc.vectors) {
      const std::string out = dir + "/out.bin";
      const RunOutcome r = runHilsim({"run", "--model", gc.model, "--input", v.input, "--output",
                                      out, "--mode", "accel", "--quiet"});
      ASSERT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
      EXPECT_EQ(readFile(out), readFile(v.expected)) << path << " " << r.command;
    }
  }
  unsetenv("HILSIM_DATAPATH");
}

std::vector<std::string> availablePaths() {
  std::vector<std::string> names;
  for (core::DotPath p : core::availableDotPaths()) names.emplace_back(core::dotPathName(p));
  return names;
}

INSTANTIATE_TEST_SUITE_P(Paths, GoldenDatapath, ::testing::ValuesIn(availablePaths()));

}  // namespace
}  // namespace hilsim::test
