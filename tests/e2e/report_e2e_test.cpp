// The report's totals: per invocation, as the table; run_totals summed over the run.

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

#include "files.h"
#include "runner.h"

namespace hilsim::test {
namespace {

class ReportRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = makeTestDir();
    ASSERT_EQ(
        runHilsim({"gen-model", "--layers", "64,48,16", "--out", dir_ + "/mlp.tflite"}).exit_code,
        0);
    run_ = runHilsim({"run", "--model", dir_ + "/mlp.tflite", "--mode", "accel", "--set",
                      "accel.num_cores=2", "--invocations", "3", "--report", dir_ + "/r.json",
                      "--csv", dir_ + "/r.csv"});
    ASSERT_EQ(run_.exit_code, 0) << run_.err;
  }
  std::string dir_;
  RunOutcome run_;
};

TEST_F(ReportRun, TotalsArePerInvocationAndRunTotalsSumTheRun) {
  const YAML::Node report = YAML::LoadFile(dir_ + "/r.json");
  const YAML::Node per = report["totals"], run = report["run_totals"];
  ASSERT_TRUE(per && run);
  uint64_t cycles = 0, macs = 0;
  for (const YAML::Node& l : report["layers"]) {
    cycles += l["cycles"].as<uint64_t>();
    macs += l["macs"].as<uint64_t>();
  }
  EXPECT_EQ(run["cycles"].as<uint64_t>(), cycles);
  EXPECT_EQ(run["macs"].as<uint64_t>(), macs);
  EXPECT_EQ(per["cycles"].as<uint64_t>(), (cycles + 1) / 3);
  EXPECT_EQ(per["macs"].as<uint64_t>(), macs / 3);
  EXPECT_NEAR(per["seconds"].as<double>() * 3, run["seconds"].as<double>(),
              1e-9 * run["seconds"].as<double>());
  // The table's totals line shows the same cycles per invocation.
  const std::string line = run_.out.substr(run_.out.find("total: "));
  std::string shown = line.substr(7, line.find(" cycles per invocation") - 7);
  shown.erase(std::remove(shown.begin(), shown.end(), ','), shown.end());
  EXPECT_EQ(std::stoull(shown), per["cycles"].as<uint64_t>()) << line;
}

}  // namespace
}  // namespace hilsim::test
