// Every vector of every golden case through build/hilsim, in every mode, byte for byte.

#include <gtest/gtest.h>

#include "files.h"
#include "golden_cases.h"
#include "runner.h"

namespace hilsim::test {
namespace {

struct Param {
  std::string golden;
  std::string mode;
};

void PrintTo(const Param& p, std::ostream* os) { *os << p.golden << " " << p.mode; }

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
    for (const char* mode : {"ref", "accel", "auto", "compare"}) out.push_back({name, mode});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenCli, ::testing::ValuesIn(params()),
                         [](const auto& info) { return info.param.golden + "_" + info.param.mode; });

}  // namespace
}  // namespace hilsim::test
