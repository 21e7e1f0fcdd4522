// Core compute timing against SCALE-Sim's published figures.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "golden_cases.h"
#include "hilsim/timing/core_timing.h"

namespace hilsim::timing {
namespace {

struct ScaleSimRow {
  uint32_t rows, cols;
  std::string dataflow;
  uint64_t m, k, n, cycles;
  double util_pct;
};

std::vector<ScaleSimRow> readScaleSim() {
  const std::string path = test::sharedDir() + "/reference/scalesim_compute_cycles.csv";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("missing " + path);
  std::vector<ScaleSimRow> rows;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::stringstream ss(line);
    std::string f[8];
    for (auto& x : f) std::getline(ss, x, ',');
    rows.push_back({static_cast<uint32_t>(std::stoul(f[0])), static_cast<uint32_t>(std::stoul(f[1])),
                    f[2], std::stoull(f[3]), std::stoull(f[4]), std::stoull(f[5]),
                    std::stoull(f[6]), std::stod(f[7])});
  }
  return rows;
}

Dataflow dataflowOf(const std::string& name) {
  if (name == "ws") return Dataflow::kWeightStationary;
  if (name == "os") return Dataflow::kOutputStationary;
  return Dataflow::kInputStationary;
}

TEST(CoreTiming, ReproducesEveryScaleSimRowPlusOne) {
  const auto rows = readScaleSim();
  ASSERT_EQ(rows.size(), 54u);
  for (const ScaleSimRow& r : rows) {
    SCOPED_TRACE(r.dataflow + " " + std::to_string(r.rows) + "x" + std::to_string(r.cols) + " M=" +
                 std::to_string(r.m) + " K=" + std::to_string(r.k) + " N=" + std::to_string(r.n));
    const ComputeCycles c =
        computeCycles(dataflowOf(r.dataflow), {r.rows, r.cols}, r.m, r.k, r.n);
    EXPECT_EQ(c.cycles, r.cycles + 1);
    // SCALE-Sim's utilization divides by its reported (one lower) cycle count.
    const double util = 100.0 * static_cast<double>(c.macs) /
                        (static_cast<double>(r.rows) * r.cols * static_cast<double>(r.cycles));
    EXPECT_NEAR(util, r.util_pct, 5e-4);
  }
}

TEST(CoreTiming, WorkedExampleFromTheReferenceReadme) {
  // 8x8 WS, M=16, K=512, N=128: 64 x 16 folds of 2*8 + 8 + 16 - 2 = 38 cycles.
  const ComputeCycles c = computeCycles(Dataflow::kWeightStationary, {8, 8}, 16, 512, 128);
  EXPECT_EQ(c.folds, 1024u);
  EXPECT_EQ(c.cycles_per_fold, 38u);
  EXPECT_EQ(c.cycles, 38912u);
}

TEST(CoreTiming, PartialFoldsCostTheFullArray) {
  // K = R + 1 needs a second row fold that costs as much as the first.
  const auto one = computeCycles(Dataflow::kWeightStationary, {16, 16}, 1, 16, 16);
  const auto two = computeCycles(Dataflow::kWeightStationary, {16, 16}, 1, 17, 16);
  EXPECT_EQ(two.cycles, 2 * one.cycles);
  EXPECT_EQ(computeCycles(Dataflow::kOutputStationary, {16, 16}, 0, 4, 4).cycles, 0u);
}

TEST(CoreTiming, SplitGranularityFollowsTheColumnMapping) {
  EXPECT_EQ(outputFeatureGranularity(Dataflow::kWeightStationary, {8, 32}), 32u);
  EXPECT_EQ(outputFeatureGranularity(Dataflow::kOutputStationary, {8, 32}), 32u);
  EXPECT_EQ(outputFeatureGranularity(Dataflow::kInputStationary, {8, 32}), 1u);
}

}  // namespace
}  // namespace hilsim::timing
