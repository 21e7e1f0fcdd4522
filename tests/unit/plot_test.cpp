// The SVG line chart's x axes: a log2 axis puts 1, 2, 4, 8, 16 at equal spacing with a tick at
// each; a linear one does not.

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "hilsim/plot/svg_plot.h"

namespace hilsim::plot {
namespace {

// The x-axis tick labels (text centred just below the plot frame) and their pixel positions.
std::vector<std::pair<std::string, double>> xTicks(const std::string& svg) {
  std::vector<std::pair<std::string, double>> ticks;
  const std::regex text(
      "<text x=\"([0-9.]+)\" y=\"446(?:\\.0+)?\" text-anchor=\"middle\" font-size=\"12\"[^>]*>"
      "([^<]*)</text>");
  for (std::sregex_iterator it(svg.begin(), svg.end(), text), end; it != end; ++it)
    ticks.emplace_back((*it)[2], std::stod((*it)[1]));
  return ticks;
}

LineChart coresChart(bool log2_x) {
  LineChart chart;
  chart.title = "cycles vs cores";
  chart.x_label = "accel.num_cores";
  chart.y_label = "cycles";
  chart.log2_x = log2_x;
  chart.series.push_back({"bus 16", {1, 2, 4, 8, 16}, {900, 480, 260, 270, 300}, false});
  return chart;
}

TEST(PlotAxis, Log2AxisTicksEveryPowerOfTwoAtEqualSpacing) {
  const auto ticks = xTicks(renderSvg(coresChart(true)));
  ASSERT_EQ(ticks.size(), 5u);
  const std::vector<std::string> labels = {"1", "2", "4", "8", "16"};
  for (size_t i = 0; i < ticks.size(); ++i) EXPECT_EQ(ticks[i].first, labels[i]);
  const double step = ticks[1].second - ticks[0].second;
  EXPECT_GT(step, 50.0);
  for (size_t i = 1; i < ticks.size(); ++i)
    EXPECT_NEAR(ticks[i].second - ticks[i - 1].second, step, 0.1) << ticks[i].first;
}

TEST(PlotAxis, LinearAxisCrowdsTheSmallCounts) {
  const auto ticks = xTicks(renderSvg(coresChart(false)));
  ASSERT_GE(ticks.size(), 3u);
  // Linear ticks are equally spaced in value (0, 2, 4, ... or 0, 5, 10, ...), not in powers of two.
  EXPECT_NE(ticks[1].first, "2");
}

TEST(PlotAxis, PowersOfTwoNeedThreeDistinctPositivePowers) {
  EXPECT_TRUE(powersOfTwo({1, 2, 4, 8, 16}));
  EXPECT_TRUE(powersOfTwo({8, 16, 32, 8}));
  EXPECT_FALSE(powersOfTwo({1, 2}));          // too few to need it
  EXPECT_FALSE(powersOfTwo({1, 2, 3, 4}));    // 3
  EXPECT_FALSE(powersOfTwo({0.5, 1, 2, 4}));  // below 1
  EXPECT_FALSE(powersOfTwo({0, 2, 4, 8}));
}

}  // namespace
}  // namespace hilsim::plot
