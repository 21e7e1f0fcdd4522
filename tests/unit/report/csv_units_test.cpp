// Every CSV hilsim writes states its units in its header: a numeric column's name ends in its
// unit, so a spreadsheet or pandas reads one header row and knows what each number measures.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "hilsim/config/loader.h"
#include "hilsim/report/csv.h"
#include "hilsim/report/report.h"
#include "hilsim/sweep/crossover.h"
#include "hilsim/sweep/sweep_results.h"
#include "hilsim/sweep/sweep_spec.h"

// hilsim_sweep carries the SystemC platform; SystemC's library wants an sc_main.
extern "C" int sc_main(int, char**) {
  return 0;
}

namespace hilsim {
namespace {

// Columns that hold no measured quantity: identifiers, text, yes/no, and the GEMM dimensions
// (element counts) of crossover.csv.
const std::vector<std::string> kWithoutUnit = {"invocation",
                                               "index",
                                               "op",
                                               "name",
                                               "shape",
                                               "path",
                                               "reason",
                                               "point",
                                               "model",
                                               "layer",
                                               "family",
                                               "offload_pays",
                                               "offload_saves_energy",
                                               "pays_from_smallest_size",
                                               "rows",
                                               "k",
                                               "n",
                                               "k_per_n"};

// The unit words a measured column's name starts or ends with ("bytes_moved", "dma_in_cycles").
const std::vector<std::string> kUnits = {"cycles",  "bytes",    "uj",    "macs", "seconds",
                                         "percent", "fraction", "ratio", "mm2",  "uj_s"};

bool namesUnit(const std::string& column) {
  for (const std::string& unit : kUnits) {
    if (column == unit) return true;
    if (column.size() <= unit.size() + 1) continue;
    if (column.compare(column.size() - unit.size() - 1, unit.size() + 1, "_" + unit) == 0 ||
        column.compare(0, unit.size() + 1, unit + "_") == 0)
      return true;
  }
  return false;
}

std::vector<std::string> header(const std::string& csv) {
  const std::vector<std::vector<std::string>> rows = report::parseCsv(csv, "csv");
  return rows.empty() ? std::vector<std::string>{} : rows[0];
}

void expectUnits(const std::string& what, const std::string& csv) {
  const std::vector<std::string> columns = header(csv);
  ASSERT_FALSE(columns.empty()) << what;
  for (const std::string& c : columns) {
    const bool identifier =
        std::find(kWithoutUnit.begin(), kWithoutUnit.end(), c) != kWithoutUnit.end();
    EXPECT_TRUE(identifier || namesUnit(c)) << what << ": column '" << c << "' has no unit";
  }
}

TEST(CsvUnits, RunCsvNamesTheUnitOfEveryNumericColumn) {
  report::RunReport run;
  run.config = config::loadConfig("", {config::Override{"accel.num_cores=2"}});
  const std::string csv = report::reportCsv(run);
  expectUnits("run --csv", csv);
  const std::vector<std::string> columns = header(csv);
  for (const char* renamed :
       {"mac_utilization_fraction", "core0_utilization_fraction", "core1_utilization_fraction"})
    EXPECT_NE(std::find(columns.begin(), columns.end(), renamed), columns.end()) << renamed;
}

TEST(CsvUnits, SweepResultsNameTheUnitOfEveryNumericColumn) {
  const sweep::SweepSpec spec;
  const std::string csv = sweep::resultsCsv(spec, sweep::SweepResults{});
  expectUnits("sweep results.csv", csv);
  const std::vector<std::string> columns = header(csv);
  EXPECT_NE(std::find(columns.begin(), columns.end(), "speedup_ratio"), columns.end());
}

TEST(CsvUnits, CrossoverCsvsNameTheUnitOfEveryNumericColumn) {
  expectUnits("crossover.csv", sweep::crossoverCsv({}));
  expectUnits("break_even.csv", sweep::breakEvenCsv({}));
}

// The non-dominated filter of a sweep's Pareto plots (both objectives minimized).
TEST(Pareto, KeepsThePointsNoOtherBeatsOnBoth) {
  // (1,5) (2,3) (4,1) form the front; (3,4) loses to (2,3), (5,5) to all; (2,3) twice: both kept;
  // (4,2) loses to (4,1) on one objective while tying the other.
  const std::vector<std::pair<double, double>> points = {{1, 5}, {2, 3}, {3, 4}, {4, 1},
                                                         {5, 5}, {2, 3}, {4, 2}};
  EXPECT_EQ(sweep::nonDominated(points),
            (std::vector<bool>{true, true, false, true, false, true, false}));
  EXPECT_EQ(sweep::nonDominated({}), std::vector<bool>{});
  EXPECT_EQ(sweep::nonDominated({{7, 7}}), std::vector<bool>{true});
}

}  // namespace
}  // namespace hilsim
