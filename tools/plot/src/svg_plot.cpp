#include "hilsim/plot/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace hilsim::plot {
namespace {

constexpr double kWidth = 860, kHeight = 500;
constexpr double kLeft = 90, kRight = 230, kTop = 70, kBottom = 70;
const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                          "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  bool log2 = false;                  // base 2, ticks at powers of two
  double pixel_lo = 0, pixel_hi = 1;  // pixel positions of lo and hi
  double map(double v) const {
    const double a = log ? std::log10(lo) : lo, b = log ? std::log10(hi) : hi;
    const double t = ((log ? std::log10(std::max(v, lo)) : v) - a) / (b - a);
    return pixel_lo + t * (pixel_hi - pixel_lo);
  }
  std::vector<double> ticks() const {
    std::vector<double> out;
    if (log2) {
      const double first = std::ceil(std::log2(lo) - 1e-9), last = std::floor(std::log2(hi) + 1e-9);
      const double step = std::max(1.0, std::ceil((last - first + 1) / 12));  // at most 12
      for (double p = first; p <= last; p += step) out.push_back(std::exp2(p));
      return out;
    }
    if (log) {
      for (double p = std::floor(std::log10(lo)); p <= std::ceil(std::log10(hi)); ++p) {
        const double v = std::pow(10.0, p);
        if (v >= lo * 0.999 && v <= hi * 1.001) out.push_back(v);
      }
      if (out.size() < 2) out = {lo, hi};
      return out;
    }
    const double span = hi - lo;
    const double raw = span / 6;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0})
      if (raw <= m * mag) {
        step = m * mag;
        break;
      }
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push_back(v);
    return out;
  }
};

// A log axis over powers of two, padded by a quarter of an octave on each side so that the end
// points sit inside the frame.
Axis makeLog2Axis(double lo, double hi) {
  Axis a;
  a.log = a.log2 = true;
  lo = std::max(lo, 1e-12);
  hi = std::max(hi, lo * 2);
  a.lo = lo / std::exp2(0.25);
  a.hi = hi * std::exp2(0.25);
  return a;
}

Axis makeAxis(double lo, double hi, bool log, bool from_zero) {
  Axis a;
  a.log = log;
  if (log) {
    lo = std::max(lo, 1e-12);
    hi = std::max(hi, lo * 10);
    a.lo = std::pow(10.0, std::floor(std::log10(lo)));
    a.hi = std::pow(10.0, std::ceil(std::log10(hi)));
  } else {
    if (from_zero) lo = std::min(lo, 0.0);
    if (hi <= lo) hi = lo + 1;
    const double pad = (hi - lo) * 0.05;
    a.lo = from_zero && lo >= 0 ? 0 : lo - pad;
    a.hi = hi + pad;
  }
  return a;
}

class Canvas {
 public:
  Canvas(const std::string& title, const std::string& subtitle) {
    out_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\""
         << kHeight << "\" viewBox=\"0 0 " << kWidth << " " << kHeight
         << "\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"12\">\n"
         << "<title>" << escape(title) << "</title>\n"
         << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    text(kWidth / 2, 26, title, "middle", 16, "bold");
    // The subtitle wraps at commas to stay inside the picture.
    std::vector<std::string> lines(1);
    size_t start = 0;
    while (start < subtitle.size()) {
      size_t comma = subtitle.find(", ", start);
      const std::string piece = subtitle.substr(
          start, comma == std::string::npos ? std::string::npos : comma + 2 - start);
      if (lines.back().size() + piece.size() > 110) lines.emplace_back();
      lines.back() += piece;
      start = comma == std::string::npos ? subtitle.size() : comma + 2;
    }
    for (size_t i = 0; i < lines.size() && i < 2; ++i)
      text(kWidth / 2, 44 + 14 * i, lines[i], "middle", 11);
  }
  void text(double x, double y, const std::string& s, const char* anchor = "start", int size = 12,
            const char* weight = "normal", double rotate = 0) {
    out_ << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" text-anchor=\"" << anchor
         << "\" font-size=\"" << size << "\" font-weight=\"" << weight << "\"";
    if (rotate != 0)
      out_ << " transform=\"rotate(" << rotate << " " << num(x) << " " << num(y) << ")\"";
    out_ << ">" << escape(s) << "</text>\n";
  }
  void line(double x1, double y1, double x2, double y2, const char* color, double width = 1,
            const char* dash = nullptr) {
    out_ << "<line x1=\"" << num(x1) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x2) << "\" y2=\""
         << num(y2) << "\" stroke=\"" << color << "\" stroke-width=\"" << width << "\"";
    if (dash) out_ << " stroke-dasharray=\"" << dash << "\"";
    out_ << "/>\n";
  }
  void rect(double x, double y, double w, double h, const char* fill) {
    out_ << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(w)
         << "\" height=\"" << num(h) << "\" fill=\"" << fill
         << "\" stroke=\"white\" stroke-width=\"0.5\"/>\n";
  }
  void polyline(const std::vector<std::pair<double, double>>& points, const char* color,
                bool dashed) {
    out_ << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\"";
    if (dashed) out_ << " stroke-dasharray=\"6 4\"";
    out_ << " points=\"";
    for (const auto& [x, y] : points) out_ << num(x) << "," << num(y) << " ";
    out_ << "\"/>\n";
  }
  void circle(double x, double y, double r, const char* color) {
    out_ << "<circle cx=\"" << num(x) << "\" cy=\"" << num(y) << "\" r=\"" << r << "\" fill=\""
         << color << "\"/>\n";
  }
  void axes(const Axis& x, const Axis& y, const std::string& x_label, const std::string& y_label,
            bool x_ticks = true) {
    const double plot_bottom = kHeight - kBottom, plot_right = kWidth - kRight;
    for (double v : y.ticks()) {
      const double py = y.map(v);
      line(kLeft, py, plot_right, py, "#e5e5e5");
      text(kLeft - 6, py + 4, tickLabel(v), "end");
    }
    if (x_ticks)
      for (double v : x.ticks()) {
        const double px = x.map(v);
        line(px, kTop, px, plot_bottom, "#e5e5e5");
        text(px, plot_bottom + 16, tickLabel(v), "middle");
      }
    line(kLeft, plot_bottom, plot_right, plot_bottom, "black");
    line(kLeft, kTop, kLeft, plot_bottom, "black");
    text(kLeft + (plot_right - kLeft) / 2, kHeight - 22, x_label, "middle", 13);
    text(22, kTop + (plot_bottom - kTop) / 2, y_label, "middle", 13, "normal", -90);
  }
  void legend(const std::vector<std::pair<std::string, const char*>>& entries, bool boxes,
              const std::vector<bool>& dashed = {}) {
    double y = kTop + 6;
    const double x = kWidth - kRight + 16;
    for (size_t i = 0; i < entries.size(); ++i) {
      const auto& [label, color] = entries[i];
      if (boxes)
        rect(x, y - 9, 12, 12, color);
      else
        line(x, y - 3, x + 18, y - 3, color, 3, i < dashed.size() && dashed[i] ? "5 3" : nullptr);
      text(x + 24, y + 1, label);
      y += 20;
    }
  }
  std::string finish() {
    out_ << "</svg>\n";
    return out_.str();
  }

 private:
  std::ostringstream out_;
};

}  // namespace

std::string tickLabel(double v) {
  const double a = std::fabs(v);
  char buf[32];
  if (a >= 1e9)
    std::snprintf(buf, sizeof buf, "%gG", v / 1e9);
  else if (a >= 1e6)
    std::snprintf(buf, sizeof buf, "%gM", v / 1e6);
  else if (a >= 1e4)
    std::snprintf(buf, sizeof buf, "%gk", v / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

bool powersOfTwo(const std::vector<double>& values) {
  std::vector<double> distinct;
  for (double v : values) {
    if (!(v >= 1) || v > 1e15 || std::exp2(std::round(std::log2(v))) != v) return false;
    if (std::find(distinct.begin(), distinct.end(), v) == distinct.end()) distinct.push_back(v);
  }
  return distinct.size() >= 3;
}

std::string renderSvg(const LineChart& chart) {
  const bool log_x = chart.log_x || chart.log2_x;
  double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
  for (const Series& s : chart.series)
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if ((log_x && s.x[i] <= 0) || (chart.log_y && s.y[i] <= 0)) continue;
      xlo = std::min(xlo, s.x[i]);
      xhi = std::max(xhi, s.x[i]);
      ylo = std::min(ylo, s.y[i]);
      yhi = std::max(yhi, s.y[i]);
    }
  if (!std::isfinite(xlo)) xlo = 0, xhi = 1, ylo = 0, yhi = 1;
  Axis x = chart.log2_x ? makeLog2Axis(xlo, xhi) : makeAxis(xlo, xhi, chart.log_x, false);
  Axis y = makeAxis(ylo, yhi, chart.log_y, true);
  x.pixel_lo = kLeft;
  x.pixel_hi = kWidth - kRight;
  y.pixel_lo = kHeight - kBottom;
  y.pixel_hi = kTop;
  Canvas c(chart.title, chart.subtitle);
  c.axes(x, y, chart.x_label, chart.y_label);
  std::vector<std::pair<std::string, const char*>> legend;
  std::vector<bool> dashed;
  for (size_t i = 0; i < chart.series.size(); ++i) {
    const Series& s = chart.series[i];
    const char* color = kPalette[i % 10];
    std::vector<std::pair<double, double>> points;
    for (size_t p = 0; p < s.x.size() && p < s.y.size(); ++p) {
      if ((log_x && s.x[p] <= 0) || (chart.log_y && s.y[p] <= 0)) continue;
      points.emplace_back(x.map(s.x[p]), y.map(s.y[p]));
    }
    if (s.line) c.polyline(points, color, s.dashed);
    for (const auto& [px, py] : points) c.circle(px, py, s.line ? 3 : 4, color);
    legend.emplace_back(s.label, color);
    dashed.push_back(s.dashed);
  }
  for (const Marker& m : chart.markers) {
    const double px = x.map(m.x), py = y.map(m.y);
    c.line(px, kTop, px, kHeight - kBottom, "black", 1, "3 3");
    c.circle(px, py, 5, "black");
    c.text(px + 8, py - 8, m.label, "start", 12, "bold");
  }
  c.legend(legend, false, dashed);
  return c.finish();
}

std::string renderSvg(const StackedBars& chart) {
  double top = 0;
  for (size_t k = 0; k < chart.categories.size(); ++k) {
    double sum = 0;
    for (const auto& seg : chart.values) sum += k < seg.size() ? std::max(0.0, seg[k]) : 0;
    top = std::max(top, sum);
  }
  Axis y = makeAxis(0, top > 0 ? top : 1, false, true);
  y.pixel_lo = kHeight - kBottom;
  y.pixel_hi = kTop;
  Axis x;  // categories: no numeric ticks
  Canvas c(chart.title, chart.subtitle);
  c.axes(x, y, chart.x_label, chart.y_label, false);
  const double width = kWidth - kRight - kLeft;
  const double slot = width / std::max<size_t>(chart.categories.size(), 1);
  for (size_t k = 0; k < chart.categories.size(); ++k) {
    const double x0 = kLeft + k * slot + slot * 0.15;
    double base = 0;
    for (size_t s = 0; s < chart.values.size(); ++s) {
      const double v = k < chart.values[s].size() ? std::max(0.0, chart.values[s][k]) : 0;
      const double y0 = y.map(base), y1 = y.map(base + v);
      c.rect(x0, y1, slot * 0.7, y0 - y1, kPalette[s % 10]);
      base += v;
    }
    c.text(x0 + slot * 0.35, kHeight - kBottom + 16, chart.categories[k], "middle", 11);
  }
  std::vector<std::pair<std::string, const char*>> legend;
  for (size_t s = 0; s < chart.segments.size(); ++s)
    legend.emplace_back(chart.segments[s], kPalette[s % 10]);
  c.legend(legend, true);
  return c.finish();
}

}  // namespace hilsim::plot
