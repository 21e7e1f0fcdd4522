#pragma once
// One simulated run of a model: inputs in, outputs and the per-layer report out.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hilsim/base/progress.h"
#include "hilsim/config/hardware_config.h"
#include "hilsim/report/report.h"
#include "hilsim/rt/model.h"
#include "hilsim/sim/session.h"

namespace hilsim::sim {

struct RunSpec {
  Mode mode = Mode::kAuto;
  // What a layer planned at run time without an annotation is decided by in auto mode (an
  // annotated layer keeps its plan's objective, re-planned or not).
  planner::Objective objective = planner::Objective::kCycles;
  config::HardwareConfig config;
  std::string config_source;
  // Raw bytes for input tensor 0, a whole number of frames; empty: pseudo-random inputs.
  std::vector<uint8_t> input;
  uint64_t invocations = 1;  // used when `input` is empty
  uint64_t seed = 1;
  // Keep every invocation's layer record in the report (RunReport::layers); otherwise only the
  // first invocation's, with the per-layer figures of the whole run (RunReport::layer_stats).
  bool per_invocation = false;
  // When set, receives every invocation's layer records as they complete (e.g.
  // report::PerInvocationWriter::add): a long run's records need not fit in memory.
  std::function<void(const rt::LayerRecord&)> record_sink;
  // Collect output tensor 0 of every invocation in RunResult::output.
  bool keep_output = true;
  // When set, receives output tensor 0 after every invocation, in order, instead of
  // RunResult::output (which stays empty): a long run's outputs need not fit in memory.
  std::function<void(const uint8_t* data, size_t bytes)> output_sink;
  std::optional<std::string> vcd_path;            // write a VCD trace here
  std::optional<std::pair<int, int>> vcd_layers;  // bound the trace to layers A..B
  // Write a Chrome trace-event / Perfetto timeline here, bounded to layers A..B when given.
  std::optional<std::string> timeline_path;
  std::optional<std::pair<int, int>> timeline_layers;
  // Told after every layer: layers run so far of layers x invocations.
  ProgressCallback progress;
};

struct RunResult {
  report::RunReport report;
  // Output tensor 0 of every invocation, concatenated (empty unless RunSpec::keep_output).
  std::vector<uint8_t> output;
  // Accelerator jobs that failed, summarized in one line: the device was soft-reset, the layer
  // computed on the CPU and the run went on. Non-empty means the run failed (exit 3), though its
  // outputs and report are complete.
  std::string failure;
};

// Runs `model` as `spec` says: in `ref` mode without a trace on a counting clock, otherwise on
// the simulated platform. Throws ModelError/InputError (exit 2) or SimulationError (exit 3).
RunResult runModel(rt::Model& model, const RunSpec& spec);

}  // namespace hilsim::sim
