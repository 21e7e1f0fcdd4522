#pragma once
// Fits the CPU cost model's coefficients (hilsim/timing/cpu_cost_model.h) to the reference
// kernels executed on the host CPU's instruction-set simulator: `hilsim calibrate`.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hilsim/base/progress.h"
#include "hilsim/config/hardware_config.h"
#include "hilsim/iss/flash.h"
#include "hilsim/timing/cpu_cost_model.h"

namespace hilsim::calibrate {

// One shape measured on the simulator.
struct Sample {
  tflite::BuiltinOperator op = tflite::BuiltinOperator::ADD;
  std::string label;
  timing::OpWork work;
  uint64_t cycles = 0;  // executed kernel cycles, the code warm (a later call in an inference)
  // Executed cycles of the kernel's first call (its code not yet in the caches) less `cycles`;
  // nullopt when an operator of the same kind ran before it (a feeding layer).
  std::optional<int64_t> first_call_cycles;
  // OneOpModel::new_paths: executed cycles of the first call less `cycles` (the code of the
  // kernel's paths the feeding layer did not run), per such path; apart from the fit of
  // `cycles`, which these shapes do not enter.
  std::optional<double> new_path_cycles;
  // The flash memory system's counts of the warm call, where the preset models one.
  std::optional<iss::FlashStats> flash;
};

// How well the fitted formula reproduces one operator's samples.
struct OpFit {
  tflite::BuiltinOperator op = tflite::BuiltinOperator::ADD;
  size_t shapes = 0;
  double mean_error_pct = 0.0;  // mean |predicted - executed| / executed, in percent
  double max_error_pct = 0.0;
};

struct Calibration {
  config::CpuConfig cpu;                 // the host CPU as configured for the measurements
  timing::CpuCoefficients coefficients;  // the preset's, with the fitted ones replaced
  std::vector<std::string> fitted;       // names of the coefficients the fit set
  std::vector<OpFit> fits;
  std::vector<Sample> samples;
};

// Runs every shape of calibrationShapes() on the simulator of `config`'s preset and fits the
// coefficients. Throws UsageError if the preset has no instruction-set simulator or
// cpu.kernels is not `reference`.
// `progress` is told after every shape executed.
Calibration calibrate(const config::HardwareConfig& config, const ProgressCallback& progress = {});

// Least squares of relative error: the x minimizing sum(((rows[i] . x) - y[i]) / y[i])^2 with
// every x[j] >= 0 (a column whose coefficient comes out negative is dropped and the rest refit).
std::vector<double> fitNonNegative(const std::vector<std::vector<double>>& rows,
                                   const std::vector<double>& y);

// The config file: cpu.preset, the wait states and cpu.coefficients, with the fit errors as
// comments.
std::string calibrationYaml(const Calibration& calibration);

}  // namespace hilsim::calibrate
