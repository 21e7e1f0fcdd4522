#pragma once
// Running a sweep: each point is a separate `hilsim run` process, --jobs at a time, writing its
// results into DIR/points/<id>/ atomically, so an interrupted sweep keeps every finished point and
// a rerun skips them. DIR/results.csv (tidy: one row per point and layer, one totals row per
// point) and DIR/plots/*.svg are rebuilt from the points by collectSweep.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hilsim/sweep/sweep_spec.h"

namespace hilsim::sweep {

struct SweepOptions {
  std::string dir;
  unsigned jobs = 1;
  std::optional<std::string> emit_jobs;  // write the commands there instead of running them
};

struct SweepOutcome {
  size_t points = 0;
  size_t skipped = 0;  // finished by an earlier run
  size_t ran = 0;      // points that ran to their end (finished or failed)
  size_t failed = 0;
  bool interrupted = false;
  size_t stopped_points = 0;  // points stopped mid-run by the interrupt: not finished
  int stop_signal = 0;        // SIGINT or SIGTERM when interrupted
  std::string first_failure;
};

SweepOutcome runSweep(const SweepSpec& spec, const SweepOptions& options);

struct CollectOutcome {
  size_t points = 0;
  size_t finished = 0;
  std::vector<std::string> plots;  // written SVG paths
};

// Reads DIR/sweep.yaml and every finished point; writes DIR/results.csv and DIR/plots/.
CollectOutcome collectSweep(const std::string& dir);

}  // namespace hilsim::sweep
