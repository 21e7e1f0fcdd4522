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
// Writes the spec's plots (or default ones) into `plot_dir`; returns the files written.
std::vector<std::string> writePlots(const SweepSpec& spec, const SweepResults& results,
                                    const std::string& plot_dir);

}  // namespace hilsim::sweep
