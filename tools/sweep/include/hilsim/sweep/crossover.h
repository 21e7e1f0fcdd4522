#pragma once
// Where offloading a layer starts to pay. For each shape family (FULLY_CONNECTED: fixed rows and
// k:n ratio; convolution: a fixed image and window, in = out channels) the layer is simulated on
// the accelerated and on the reference path at growing sizes; the crossover is found by
// bisection on the simulated cycles and compared with the planner's prediction. Each size's energy
// on both paths (the report's energy model) gives the energy break-even beside it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hilsim/base/progress.h"
#include "hilsim/config/hardware_config.h"

namespace hilsim::sweep {

struct ShapeFamily {
  std::string name;
  uint32_t rows = 1;
  uint32_t k_per_n_num = 1;  // k = n * num / den
  uint32_t k_per_n_den = 1;
  // A convolution family: a batch-1 image of image x image pixels, a filter x filter window
  // (SAME padding) moved by `stride`; member n has n input and n output channels.
  bool conv = false;
  bool depthwise = false;
  uint32_t image = 0, filter = 1, stride = 1;
  uint32_t max_n = 1024;  // the largest member tried
};

const std::vector<ShapeFamily>& defaultFamilies();

struct CrossoverPoint {
  std::string family;
  uint32_t rows = 0, k = 0, n = 0;  // the GEMM view (a convolution: pixels, window, channels)
  uint64_t macs = 0;
  uint64_t accel_cycles = 0;  // simulated, second invocation (weights already in place)
  uint64_t ref_cycles = 0;
  uint64_t predicted_accel_cycles = 0;
  // The same invocation's energy (uJ) by the report's energy model: simulated accelerated (0
  // when it did not run accelerated), the reference kernel's, and the planner's prediction.
  double accel_energy_uj = 0;
  double ref_energy_uj = 0;
  double predicted_accel_energy_uj = 0;
};

struct FamilyResult {
  ShapeFamily family;
  std::vector<CrossoverPoint> points;       // in size order (bisection points included)
  std::optional<uint64_t> break_even_macs;  // smallest simulated size that pays
  // The smallest size tried already pays: the break-even lies at or below break_even_macs.
  bool pays_from_smallest = false;
  std::optional<uint64_t> predicted_break_even;  // the planner's break_even_macs
  // By energy: the smallest simulated size from which every simulated size takes less energy
  // accelerated (at the resolution of the sizes simulated for the cycles), and the planner's
  // break_even_energy_macs.
  std::optional<uint64_t> break_even_energy_macs;
  std::optional<uint64_t> predicted_break_even_energy;
};

// Simulates every family on one platform built from `config`. `progress` is told after every
// simulated size: sizes done of the doubling sizes plus the bisection steps taken so far.
std::vector<FamilyResult> runCrossover(const config::HardwareConfig& config,
                                       const std::vector<ShapeFamily>& families,
                                       const ProgressCallback& progress = {});

std::string crossoverCsv(const std::vector<FamilyResult>& results);
std::string breakEvenCsv(const std::vector<FamilyResult>& results);
std::string crossoverSvg(const FamilyResult& result);
// The same family's energy per inference, both paths (crossover-energy-<family>.svg).
std::string crossoverEnergySvg(const FamilyResult& result);

}  // namespace hilsim::sweep
