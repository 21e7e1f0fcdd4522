#pragma once
// Sweep results: each finished point's per-layer CSV folded into one row per layer (the mean per
// invocation) and a totals row, written as DIR/results.csv and drawn as plots.

#include <string>
#include <vector>

#include "hilsim/sweep/sweep_spec.h"

namespace hilsim::sweep {

struct LayerResult {
  std::string layer;  // operator index, or "total"
  std::string op, shape, path;
  double macs = 0, cycles = 0, ref_cycles = 0, accel_cycles = 0, cpu_cycles = 0, seconds = 0;
  double fixed = 0, variable = 0, dma_in = 0, compute = 0, dma_out = 0, sync = 0, bus_stall = 0;
  double bytes_moved = 0, mac_utilization = 0;
  double energy_uj = 0;  // per inference
  double area_mm2 = 0;   // the accelerator's (the same for every layer of a point)
  // Energy-delay product: energy_uj times seconds, in uJ s.
  double edp() const { return energy_uj * seconds; }
  std::string break_even_macs;
  double speedup() const { return cycles > 0 ? ref_cycles / cycles : 0; }
  double metric(const std::string& name) const;
};

struct PointResult {
  const SweepPoint* point = nullptr;
  std::vector<LayerResult> layers;
  LayerResult total;
};

struct SweepResults {
  std::vector<PointResult> points;  // finished points, in spec order
  size_t finished_points = 0;
};

SweepResults readResults(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                         const std::string& dir);
std::string resultsCsv(const SweepSpec& spec, const SweepResults& results);
// Which of the points (x, y) no other point dominates, both objectives minimized: no other point
// is at most as large in both and smaller in one. Equal points keep each other.
std::vector<bool> nonDominated(const std::vector<std::pair<double, double>>& points);
// DIR/pareto.csv: for each pareto plot and model, its non-dominated points with every totals
// metric.
std::string paretoCsv(const SweepSpec& spec, const SweepResults& results);
// Writes the spec's plots (or default ones) into `plot_dir`; returns the files written.
std::vector<std::string> writePlots(const SweepSpec& spec, const SweepResults& results,
                                    const std::string& plot_dir);

}  // namespace hilsim::sweep
