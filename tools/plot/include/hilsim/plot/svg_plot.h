#pragma once
// Charts written as standalone SVG (no runtime dependency): line charts over numeric x (linear or
// log axes) and stacked bar charts over categories, with titles, axis labels with units, ticks,
// grid lines and a legend.

#include <optional>
#include <string>
#include <vector>

namespace hilsim::plot {

struct Series {
  std::string label;
  std::vector<double> x;
  std::vector<double> y;
  bool dashed = false;
  bool line = true;  // false: the points alone (a scatter)
};

struct Marker {
  double x = 0;
  double y = 0;
  std::string label;  // drawn beside the point
};

struct LineChart {
  std::string title;
  std::string subtitle;  // e.g. the values other keys are fixed at
  std::string x_label;   // with unit, e.g. "cores"
  std::string y_label;   // with unit, e.g. "cycles per inference"
  bool log_x = false;
  bool log_y = false;
  // A base-2 x axis with a tick at every power of two (1, 2, 4, 8, 16 cores equally spaced);
  // takes precedence over log_x.
  bool log2_x = false;
  std::vector<Series> series;
  std::vector<Marker> markers;
};

struct StackedBars {
  std::string title;
  std::string subtitle;
  std::string x_label;
  std::string y_label;
  std::vector<std::string> categories;      // one bar each
  std::vector<std::string> segments;        // stacked parts, bottom first
  std::vector<std::vector<double>> values;  // values[segment][category]
};

std::string renderSvg(const LineChart& chart);
std::string renderSvg(const StackedBars& chart);

// Numbers as axis ticks print them: 1.2k, 35M, 0.5.
std::string tickLabel(double v);

// True if every value is a positive power of two and there are at least three distinct ones:
// values a log2 axis suits (core counts, bus widths, array sizes).
bool powersOfTwo(const std::vector<double>& values);

}  // namespace hilsim::plot
