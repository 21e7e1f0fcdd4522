// The planner's prediction of an accelerated layer against the simulator: every point of
// `crossover` (its FULLY_CONNECTED and convolution families) on every preset, bus widths 4 to 64
// bytes and the three dataflows, within 3%. The host CPU is the cost model's cortex-m55: the
// driver's software cost is then the same figure in the planner and the simulator, so what is
// checked is the accelerator's timing.

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "files.h"
#include "runner.h"

namespace hilsim::test {
namespace {

struct Grid {
  std::string preset;
  std::string dataflow;
};

class Prediction : public ::testing::TestWithParam<Grid> {};

TEST_P(Prediction, WithinThreePercentOfTheSimulationAtEveryCrossoverPoint) {
  const Grid g = GetParam();
  double worst = 0;
  std::string worst_point;
  size_t points = 0, conv_points = 0;
  for (const char* width : {"4", "8", "16", "32", "64"}) {
    const std::string dir = makeTempDir("prediction-" + g.preset + "-" + g.dataflow + "-" + width);
    const RunOutcome r = runHilsim(
        {"crossover", "--config", std::string(HILSIM_SOURCE_DIR) + "/configs/" + g.preset + ".yaml",
         "--set", "cpu.preset=cortex-m55", "--set", std::string("bus.width_bytes=") + width,
         "--set", "accel.core.dataflow=" + g.dataflow, "--out", dir},
        600);
    ASSERT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
    const std::vector<uint8_t> bytes = readFile(dir + "/crossover.csv");
    std::istringstream csv(std::string(bytes.begin(), bytes.end()));
    std::string line;
    std::getline(csv, line);  // family,rows,k,n,macs,accel_cycles,ref_cycles,predicted,...
    while (std::getline(csv, line)) {
      std::vector<std::string> f;
      std::istringstream fields(line);
      for (std::string v; std::getline(fields, v, ',');) f.push_back(v);
      ASSERT_GE(f.size(), 8u) << line;
      const double simulated = std::stod(f[5]), predicted = std::stod(f[7]);
      if (simulated == 0) continue;  // the layer does not fit this hardware
      ++points;
      if (f[0].find("conv") != std::string::npos) ++conv_points;
      const double error = std::abs(predicted - simulated) / simulated;
      if (error > worst) {
        worst = error;
        worst_point = "bus " + std::string(width) + " bytes, " + line;
      }
    }
  }
  EXPECT_GT(points, 50u);
  EXPECT_GT(conv_points, 100u) << "the convolution families are missing";
  EXPECT_LE(worst, 0.03) << "worst: " << worst_point;
  std::cout << g.preset << " " << g.dataflow << ": " << points << " points (" << conv_points
            << " convolutions), worst error " << worst * 100 << "%\n";
}

std::vector<Grid> grid() {
  std::vector<Grid> out;
  for (const char* preset : {"m1", "m4", "m8", "m16"})
    for (const char* dataflow : {"ws", "os", "is"}) out.push_back({preset, dataflow});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Presets, Prediction, ::testing::ValuesIn(grid()), [](const auto& info) {
  return info.param.preset + "_" + info.param.dataflow;
});

}  // namespace
}  // namespace hilsim::test
