// The report's totals (per invocation, as the table; run_totals summed over the run) and the
// CSV's numbers (integers as integers, floats that read back exactly, one column pair per core).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

#include "files.h"
#include "hilsim/report/csv.h"
#include "json_file.h"
#include "runner.h"

namespace hilsim::test {
namespace {

std::string csvText(const std::string& path) {
  const std::vector<uint8_t> bytes = readFile(path);
  return std::string(bytes.begin(), bytes.end());
}

class ReportRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = makeTestDir();
    ASSERT_EQ(
        runHilsim({"gen-model", "--layers", "64,48,16", "--out", dir_ + "/mlp.tflite"}).exit_code,
        0);
    run_ = runHilsim({"run", "--model", dir_ + "/mlp.tflite", "--mode", "accel", "--set",
                      "accel.num_cores=2", "--invocations", "3", "--per-invocation", "--report",
                      dir_ + "/r.json", "--csv", dir_ + "/r.csv"});
    ASSERT_EQ(run_.exit_code, 0) << run_.err;
  }
  std::string dir_;
  RunOutcome run_;
};

TEST_F(ReportRun, TotalsArePerInvocationAndRunTotalsSumTheRun) {
  const JsonDoc report = readJsonFile(dir_ + "/r.json");
  const JsonDoc per = report.at("totals"), run = report.at("run_totals");
  ASSERT_TRUE(per.is_object() && run.is_object());
  uint64_t cycles = 0, macs = 0;
  for (const JsonDoc& l : report.at("layers")) {
    cycles += l.at("cycles").get<uint64_t>();
    macs += l.at("macs").get<uint64_t>();
  }
  EXPECT_EQ(run.at("cycles").get<uint64_t>(), cycles);
  EXPECT_EQ(run.at("macs").get<uint64_t>(), macs);
  EXPECT_EQ(per.at("cycles").get<uint64_t>(), (cycles + 1) / 3);
  EXPECT_EQ(per.at("macs").get<uint64_t>(), macs / 3);
  EXPECT_NEAR(per.at("seconds").get<double>() * 3, run.at("seconds").get<double>(),
              1e-9 * run.at("seconds").get<double>());
  // The table's totals line shows the same cycles per invocation.
  const std::string line = run_.out.substr(run_.out.find("total: "));
  std::string shown = line.substr(7, line.find(" cycles per invocation") - 7);
  shown.erase(std::remove(shown.begin(), shown.end(), ','), shown.end());
  EXPECT_EQ(std::stoull(shown), per.at("cycles").get<uint64_t>()) << line;
}

TEST_F(ReportRun, CsvNumbersReadBackAndPerCoreColumnsMatchTheJson) {
  const auto rows = report::parseCsv(csvText(dir_ + "/r.csv"), "r.csv");
  ASSERT_EQ(rows.size(), 1u + 6u);
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < rows[0].size(); ++i) col[rows[0][i]] = i;
  for (const char* name : {"core0_busy_cycles", "core0_utilization_fraction", "core1_busy_cycles",
                           "core1_utilization_fraction"})
    ASSERT_TRUE(col.count(name)) << name;
  EXPECT_FALSE(col.count("core2_busy_cycles"));

  const JsonDoc layers = readJsonFile(dir_ + "/r.json").at("layers");
  ASSERT_EQ(layers.size(), 6u);
  size_t checked = 0;
  for (size_t i = 0; i < layers.size(); ++i) {
    const std::vector<std::string>& row = rows[i + 1];
    ASSERT_EQ(row.size(), rows[0].size());
    for (const char* name : {"cycles", "ref_cycles", "macs", "bytes_moved", "core0_busy_cycles"})
      EXPECT_EQ(row[col[name]].find_first_not_of("0123456789"), std::string::npos)
          << name << " " << row[col[name]];
    ASSERT_TRUE(layers[i].contains("accel")) << "mode accel offloads every layer";
    for (const JsonDoc& c : layers[i].at("accel").at("per_core")) {
      const std::string core = "core" + std::to_string(c.at("core").get<uint32_t>());
      EXPECT_EQ(row[col[core + "_busy_cycles"]],
                std::to_string(c.at("busy_cycles").get<uint64_t>()));
      const std::string text = row[col[core + "_utilization_fraction"]];
      EXPECT_EQ(text.find_first_of("eE"), std::string::npos) << text;  // fixed notation only
      const double u = std::strtod(text.c_str(), nullptr);
      EXPECT_NEAR(u, c.at("utilization").get<double>(), 1e-9);
      // Round trip: the text is exactly the shortest one for the value it reads as.
      EXPECT_EQ(report::csvNumber(u), text);
      ++checked;
    }
    const std::string mac = row[col.at("mac_utilization_fraction")];
    const double m = std::strtod(mac.c_str(), nullptr);
    EXPECT_EQ(report::csvNumber(m), mac);
    EXPECT_NEAR(m, layers[i].at("accel").at("mac_utilization").get<double>(), 1e-9);
  }
  EXPECT_GT(checked, 0u);
}

TEST(CsvNumber, IsShortestFixedAndReadsBackExactly) {
  EXPECT_EQ(report::csvNumber(3.0), "3");
  EXPECT_EQ(report::csvNumber(0.1), "0.1");
  EXPECT_EQ(report::csvNumber(1e-7), "0.0000001");
  EXPECT_EQ(report::csvNumber(1e20), "100000000000000000000");
  for (double v : {1.0 / 3.0, 0.123456789012345678, 2.0 / 7.0 * 1e-5, 12345.678901234567}) {
    const std::string text = report::csvNumber(v);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), v) << text;
    EXPECT_EQ(text.find_first_of("eE"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace hilsim::test
