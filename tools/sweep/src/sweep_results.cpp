#include "hilsim/sweep/sweep_results.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

#include "hilsim/base/io.h"
#include "hilsim/config/loader.h"
#include "hilsim/errors.h"
#include "hilsim/plot/svg_plot.h"
#include "hilsim/report/csv.h"

namespace hilsim::sweep {

using plot::LineChart;
using plot::renderSvg;
using plot::Series;
using plot::StackedBars;
using plot::tickLabel;
using report::csvField;
using report::parseCsv;
namespace {

namespace fs = std::filesystem;

// Integral values print as integers, others as the shortest fixed text that reads back exactly.
std::string number(double v) {
  return report::csvNumber(v);
}

double toNumber(const std::string& s) {
  return s.empty() ? 0.0 : std::strtod(s.c_str(), nullptr);
}

PointResult readPoint(const SweepSpec& spec, const SweepPoint& point, const std::string& path) {
  const std::vector<std::vector<std::string>> rows = parseCsv(readTextFile(path), path);
  if (rows.empty()) throw InputError(path + ": empty");
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < rows[0].size(); ++i) col[rows[0][i]] = i;
  for (const char* needed :
       {"invocation", "index", "op", "shape", "macs", "path", "cycles", "ref_cycles"})
    if (!col.count(needed)) throw InputError(path + ": no column '" + needed + "'");
  auto field = [&](const std::vector<std::string>& row, const char* name) -> const std::string& {
    static const std::string empty;
    const auto it = col.find(name);
    return it == col.end() || it->second >= row.size() ? empty : row[it->second];
  };
  std::vector<config::Override> overrides;
  for (const auto& [k, v] : point.overrides) overrides.push_back({k + "=" + v});
  const double cpu_hz = config::loadConfig(spec.base_config, overrides).cpu.clock_mhz * 1e6;

  // Points written before the column's unit was in its name call it mac_utilization.
  const char* mac_utilization =
      col.count("mac_utilization_fraction") ? "mac_utilization_fraction" : "mac_utilization";

  PointResult result;
  result.point = &point;
  std::map<int, LayerResult> layers;
  std::map<int, std::pair<size_t, size_t>> paths;  // accel, total invocations per layer
  double invocations = 0;
  for (size_t r = 1; r < rows.size(); ++r) {
    const std::vector<std::string>& row = rows[r];
    if (row.size() < rows[0].size()) continue;
    invocations = std::max(invocations, toNumber(field(row, "invocation")) + 1);
    const int index = static_cast<int>(toNumber(field(row, "index")));
    LayerResult& l = layers[index];
    l.layer = std::to_string(index);
    l.op = field(row, "op");
    l.shape = field(row, "shape");
    l.macs = toNumber(field(row, "macs"));
    l.break_even_macs = field(row, "break_even_macs");
    const double cycles = toNumber(field(row, "cycles"));
    const bool accel = field(row, "path") == "accel";
    l.cycles += cycles;
    (accel ? l.accel_cycles : l.cpu_cycles) += cycles;
    l.ref_cycles += toNumber(field(row, "ref_cycles"));
    l.fixed += toNumber(field(row, "fixed_cycles"));
    l.variable += toNumber(field(row, "variable_cycles"));
    l.dma_in += toNumber(field(row, "dma_in_cycles"));
    l.compute += toNumber(field(row, "compute_cycles"));
    l.dma_out += toNumber(field(row, "dma_out_cycles"));
    l.sync += toNumber(field(row, "sync_cycles"));
    l.bus_stall += toNumber(field(row, "bus_stall_cycles"));
    l.bytes_moved += toNumber(field(row, "bytes_moved"));
    l.energy_uj += toNumber(field(row, "energy_uj"));
    l.area_mm2 = toNumber(field(row, "area_mm2"));
    l.mac_utilization += toNumber(field(row, mac_utilization));
    auto& count = paths[index];
    count.first += accel;
    ++count.second;
  }
  LayerResult& t = result.total;
  t.layer = "total";
  for (auto& [index, l] : layers) {
    const double n = static_cast<double>(paths[index].second);
    for (double* v : {&l.cycles, &l.accel_cycles, &l.cpu_cycles, &l.ref_cycles, &l.fixed,
                      &l.variable, &l.dma_in, &l.compute, &l.dma_out, &l.sync, &l.bus_stall,
                      &l.bytes_moved, &l.mac_utilization, &l.energy_uj})
      *v /= n;
    l.seconds = l.cycles / cpu_hz;
    l.path = paths[index].first == 0                     ? "ref"
             : paths[index].first == paths[index].second ? "accel"
                                                         : "mixed";
    t.macs += l.macs;
    for (auto [sum, part] : {std::pair{&t.cycles, l.cycles},
                             {&t.accel_cycles, l.accel_cycles},
                             {&t.cpu_cycles, l.cpu_cycles},
                             {&t.ref_cycles, l.ref_cycles},
                             {&t.fixed, l.fixed},
                             {&t.variable, l.variable},
                             {&t.dma_in, l.dma_in},
                             {&t.compute, l.compute},
                             {&t.dma_out, l.dma_out},
                             {&t.sync, l.sync},
                             {&t.bus_stall, l.bus_stall},
                             {&t.bytes_moved, l.bytes_moved},
                             {&t.energy_uj, l.energy_uj}})
      *sum += part;
    t.area_mm2 = l.area_mm2;
    result.layers.push_back(l);
  }
  t.seconds = t.cycles / cpu_hz;
  (void)invocations;
  return result;
}

std::string label(const std::string& metric) {
  if (metric == "cycles") return "host CPU cycles per inference";
  if (metric == "ref_cycles") return "reference-path cycles per inference";
  if (metric == "accel_cycles") return "cycles of offloaded layers per inference";
  if (metric == "cpu_cycles") return "cycles of CPU layers per inference";
  if (metric == "speedup_ratio" || metric == "speedup")
    return "speed-up over the reference path (x)";
  if (metric == "seconds") return "seconds per inference";
  if (metric == "bus_stall_cycles") return "bus stall cycles per inference";
  if (metric == "bytes_moved") return "bytes moved per inference";
  if (metric == "energy_uj") return "energy per inference (uJ)";
  if (metric == "edp" || metric == "edp_uj_s") return "energy-delay product per inference (uJ s)";
  if (metric == "area_mm2") return "accelerator area (mm2)";
  return metric;
}

bool matches(const PointResult& r, const PlotSpec& p, const std::string& model) {
  if (r.point->model->name != model) return false;
  for (const auto& [k, v] : p.where) {
    const auto it = r.point->values.find(k);
    if (it == r.point->values.end() || it->second != v) return false;
  }
  return true;
}

std::string linePlot(const SweepSpec& spec, const SweepResults& results, const PlotSpec& p,
                     const std::string& model) {
  LineChart chart;
  chart.title = label(p.y) + " vs " + p.x + ": " + model;
  for (const auto& [k, v] : p.where)
    chart.subtitle += (chart.subtitle.empty() ? "" : ", ") + k + "=" + v;
  chart.x_label = p.x;
  chart.y_label = label(p.y);
  chart.log_y = p.log_y;
  std::map<std::string, size_t> series_index;
  std::map<std::pair<std::string, std::string>, bool> seen;
  for (const PointResult& r : results.points) {
    if (!matches(r, p, model)) continue;
    const std::string s =
        p.series.empty() ? model : p.series + " = " + r.point->values.at(p.series);
    const std::string x = r.point->values.at(p.x);
    if (seen[{s, x}]) continue;  // other varied keys: the first point in spec order stands
    seen[{s, x}] = true;
    if (!series_index.count(s)) {
      series_index[s] = chart.series.size();
      chart.series.push_back({s, {}, {}, false});
    }
    Series& out = chart.series[series_index[s]];
    out.x.push_back(toNumber(x));
    out.y.push_back(r.total.metric(p.y));
  }
  for (Series& s : chart.series) {  // in x order
    std::vector<size_t> order(s.x.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s.x[a] < s.x[b]; });
    Series sorted = s;
    for (size_t i = 0; i < order.size(); ++i) {
      sorted.x[i] = s.x[order[i]];
      sorted.y[i] = s.y[order[i]];
    }
    s = sorted;
  }
  // Core counts, bus widths, array and SRAM sizes go in powers of two: equally spaced on a log2
  // axis, where a linear one crowds 1, 2 and 4 into a corner.
  std::vector<double> xs;
  for (const Series& s : chart.series) xs.insert(xs.end(), s.x.begin(), s.x.end());
  chart.log2_x = plot::powersOfTwo(xs);
  if (chart.log2_x) chart.x_label += " (log2 axis)";
  (void)spec;
  return renderSvg(chart);
}

// The points of one model matching the plot, with their two objectives.
std::vector<const PointResult*> paretoPoints(const SweepResults& results, const PlotSpec& p,
                                             const std::string& model) {
  std::vector<const PointResult*> out;
  for (const PointResult& r : results.points)
    if (matches(r, p, model)) out.push_back(&r);
  return out;
}

std::vector<bool> paretoFront(const std::vector<const PointResult*>& points, const PlotSpec& p) {
  std::vector<std::pair<double, double>> xy;
  for (const PointResult* r : points) xy.emplace_back(r->total.metric(p.x), r->total.metric(p.y));
  return nonDominated(xy);
}

std::string paretoPlot(const SweepResults& results, const PlotSpec& p, const std::string& model) {
  const std::vector<const PointResult*> points = paretoPoints(results, p, model);
  const std::vector<bool> front = paretoFront(points, p);
  LineChart chart;
  chart.title = "Pareto front: " + label(p.y) + " vs " + label(p.x) + ": " + model;
  for (const auto& [k, v] : p.where)
    chart.subtitle += (chart.subtitle.empty() ? "" : ", ") + k + "=" + v;
  chart.subtitle += (chart.subtitle.empty() ? "" : "; ") + std::string("both minimized");
  chart.x_label = label(p.x);
  chart.y_label = label(p.y);
  chart.log_y = p.log_y;
  Series all{"dominated points", {}, {}, false};
  all.line = false;
  std::vector<std::pair<double, double>> best;
  for (size_t i = 0; i < points.size(); ++i) {
    const double x = points[i]->total.metric(p.x), y = points[i]->total.metric(p.y);
    if (front[i])
      best.emplace_back(x, y);
    else {
      all.x.push_back(x);
      all.y.push_back(y);
    }
  }
  std::sort(best.begin(), best.end());
  Series pareto{"non-dominated (" + std::to_string(best.size()) + " of " +
                    std::to_string(points.size()) + " points)",
                {},
                {},
                false};
  for (const auto& xy : best) {
    pareto.x.push_back(xy.first);
    pareto.y.push_back(xy.second);
  }
  // Drawn after the dominated points, so the front stays on top.
  chart.series = {all, pareto};
  // Objectives that span over a decade (area against cores) read better on a log axis.
  double lo = 0, hi = 0;
  for (const Series* s : {&all, &pareto})
    for (double x : s->x) {
      lo = lo == 0 ? x : std::min(lo, x);
      hi = std::max(hi, x);
    }
  chart.log_x = lo > 0 && hi / lo > 10;
  return renderSvg(chart);
}

std::string stackedPlot(const SweepResults& results, const PlotSpec& p, const std::string& model) {
  const PointResult* chosen = nullptr;
  for (const PointResult& r : results.points)
    if (matches(r, p, model)) {
      chosen = &r;
      break;
    }
  StackedBars chart;
  chart.segments = {"CPU (reference kernel)", "fixed", "DMA", "bus stall", "compute", "other"};
  chart.values.assign(chart.segments.size(), {});
  std::string where;
  if (chosen)
    for (const auto& [k, v] : chosen->point->values)
      where += (where.empty() ? "" : ", ") + k + "=" + v;
  chart.title = "per-layer breakdown: " + model;
  chart.subtitle = where;
  chart.x_label = "layer (operator index, op)";
  chart.y_label = "host CPU cycles per inference";
  if (chosen)
    for (const LayerResult& l : chosen->layers) {
      chart.categories.push_back(l.layer + " " +
                                 (l.op == "FULLY_CONNECTED" ? std::string("FC") : l.op));
      const double accel = l.accel_cycles;
      const double dma = l.dma_in + l.dma_out;
      const double stall = std::min(l.bus_stall, dma);
      const double compute = std::min(l.compute, std::max(0.0, accel - l.fixed - dma));
      const double other = std::max(0.0, accel - l.fixed - dma - compute);
      const double values[] = {l.cpu_cycles, accel > 0 ? l.fixed : 0, dma - stall, stall, compute,
                               other};
      for (size_t s = 0; s < chart.segments.size(); ++s) chart.values[s].push_back(values[s]);
    }
  return renderSvg(chart);
}

}  // namespace

double LayerResult::metric(const std::string& name) const {
  if (name == "cycles") return cycles;
  if (name == "ref_cycles") return ref_cycles;
  if (name == "speedup_ratio" || name == "speedup") return speedup();
  if (name == "accel_cycles") return accel_cycles;
  if (name == "cpu_cycles") return cpu_cycles;
  if (name == "seconds") return seconds;
  if (name == "bus_stall_cycles") return bus_stall;
  if (name == "bytes_moved") return bytes_moved;
  if (name == "energy_uj") return energy_uj;
  if (name == "edp" || name == "edp_uj_s") return edp();
  if (name == "area_mm2") return area_mm2;
  return 0;
}

SweepResults readResults(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                         const std::string& dir) {
  SweepResults results;
  for (const SweepPoint& p : points) {
    const std::string path = dir + "/points/" + p.id + "/layers.csv";
    if (!fs::exists(path)) continue;
    results.points.push_back(readPoint(spec, p, path));
    ++results.finished_points;
  }
  return results;
}

std::string resultsCsv(const SweepSpec& spec, const SweepResults& results) {
  const std::vector<std::string> keys = variedKeys(spec);
  std::string out = "point,model";
  for (const std::string& k : keys) out += "," + csvField(k);
  out +=
      ",layer,op,shape,macs,path,cycles,ref_cycles,speedup_ratio,accel_cycles,cpu_cycles,seconds,"
      "fixed_cycles,variable_cycles,dma_in_cycles,compute_cycles,dma_out_cycles,sync_cycles,"
      "bus_stall_cycles,bytes_moved,mac_utilization_fraction,break_even_macs,energy_uj,edp_uj_s,"
      "area_mm2\n";
  for (const PointResult& r : results.points) {
    std::string prefix = r.point->id + "," + csvField(r.point->model->name);
    for (const std::string& k : keys) prefix += "," + csvField(r.point->values.at(k));
    auto row = [&](const LayerResult& l) {
      out += prefix + "," + l.layer + "," + l.op + "," + csvField(l.shape) + "," + number(l.macs) +
             "," + l.path + "," + number(l.cycles) + "," + number(l.ref_cycles) + "," +
             number(l.speedup()) + "," + number(l.accel_cycles) + "," + number(l.cpu_cycles) + "," +
             number(l.seconds) + "," + number(l.fixed) + "," + number(l.variable) + "," +
             number(l.dma_in) + "," + number(l.compute) + "," + number(l.dma_out) + "," +
             number(l.sync) + "," + number(l.bus_stall) + "," + number(l.bytes_moved) + "," +
             number(l.mac_utilization) + "," + l.break_even_macs + "," + number(l.energy_uj) + "," +
             number(l.edp()) + "," + number(l.area_mm2) + "\n";
    };
    for (const LayerResult& l : r.layers) row(l);
    row(r.total);
  }
  return out;
}

std::vector<std::string> writePlots(const SweepSpec& spec, const SweepResults& results,
                                    const std::string& plot_dir) {
  std::vector<PlotSpec> plots = spec.plots;
  const std::vector<std::string> keys = variedKeys(spec);
  if (plots.empty() && !keys.empty()) {  // defaults: cycles and speed-up along the first key
    PlotSpec cycles;
    cycles.name = "cycles";
    cycles.x = keys[0];
    if (keys.size() > 1) cycles.series = keys[1];
    PlotSpec speedup = cycles;
    speedup.name = "speedup";
    speedup.y = "speedup";
    PlotSpec breakdown;
    breakdown.name = "breakdown";
    breakdown.kind = "stacked";
    plots = {cycles, speedup, breakdown};
  }
  std::vector<std::string> written;
  std::error_code ec;
  fs::create_directories(plot_dir, ec);
  for (const PlotSpec& p : plots) {
    std::vector<std::string> models;
    if (!p.model.empty())
      models.push_back(p.model);
    else
      for (const SweepModel& m : spec.models) models.push_back(m.name);
    for (const std::string& model : models) {
      const std::string file =
          plot_dir + "/" + p.name + (models.size() > 1 ? "-" + model : std::string()) + ".svg";
      writeFileAtomic(file, p.kind == "stacked"  ? stackedPlot(results, p, model)
                            : p.kind == "pareto" ? paretoPlot(results, p, model)
                                                 : linePlot(spec, results, p, model));
      written.push_back(file);
    }
  }
  return written;
}

std::vector<bool> nonDominated(const std::vector<std::pair<double, double>>& points) {
  std::vector<bool> keep(points.size(), true);
  for (size_t i = 0; i < points.size(); ++i)
    for (size_t j = 0; j < points.size() && keep[i]; ++j) {
      const auto& a = points[j];
      const auto& b = points[i];
      if (a.first <= b.first && a.second <= b.second && (a.first < b.first || a.second < b.second))
        keep[i] = false;
    }
  return keep;
}

std::string paretoCsv(const SweepSpec& spec, const SweepResults& results) {
  const std::vector<std::string> keys = variedKeys(spec);
  std::string out = "plot,model,point";
  for (const std::string& k : keys) out += "," + csvField(k);
  out += ",cycles,ref_cycles,speedup_ratio,seconds,energy_uj,edp_uj_s,area_mm2\n";
  for (const PlotSpec& p : spec.plots) {
    if (p.kind != "pareto") continue;
    std::vector<std::string> models;
    if (!p.model.empty())
      models.push_back(p.model);
    else
      for (const SweepModel& m : spec.models) models.push_back(m.name);
    for (const std::string& model : models) {
      const std::vector<const PointResult*> points = paretoPoints(results, p, model);
      const std::vector<bool> front = paretoFront(points, p);
      for (size_t i = 0; i < points.size(); ++i) {
        if (!front[i]) continue;
        const PointResult& r = *points[i];
        out += csvField(p.name) + "," + csvField(model) + "," + r.point->id;
        for (const std::string& k : keys) out += "," + csvField(r.point->values.at(k));
        const LayerResult& t = r.total;
        out += "," + number(t.cycles) + "," + number(t.ref_cycles) + "," + number(t.speedup()) +
               "," + number(t.seconds) + "," + number(t.energy_uj) + "," + number(t.edp()) + "," +
               number(t.area_mm2) + "\n";
      }
    }
  }
  return out;
}

}  // namespace hilsim::sweep
