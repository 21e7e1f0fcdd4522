#include <filesystem>
#include <iostream>
#include <thread>

#include "args.h"
#include "commands.h"
#include "hilsim/base/io.h"
#include "hilsim/errors.h"
#include "hilsim/sweep/sweep.h"

namespace hilsim::cli {

int sweepCommand(int argc, char** argv, int first) {
  std::string spec_path, jobs, out;
  std::optional<std::string> emit, collect;
  ArgParser args(
      "sweep",
      "Architecture exploration: runs every point of the spec's grid (each point a\n"
      "separate 'hilsim run', --jobs at a time) and writes DIR/results.csv (one row per\n"
      "point and layer, one totals row per point) and DIR/plots/*.svg. A rerun skips\n"
      "finished points; an interrupted sweep keeps every finished point.");
  args.positional("spec.yaml", &spec_path, false, "the sweep specification");
  args.option("--jobs", &jobs, "N", "points run at once (default: the number of CPUs)");
  args.option("--out", &out, "DIR", "output directory (default: out/<spec name>)");
  args.option("--emit-jobs", &emit, "FILE",
              "write one command per unfinished point (for GNU parallel or a Slurm array)\n"
              "instead of running them");
  args.option("--collect", &collect, "DIR",
              "merge the points finished in DIR (e.g. by --emit-jobs commands) into\n"
              "results.csv and plots");
  if (!args.parse(argc, argv, first)) return 0;

  if (collect) {
    if (!spec_path.empty() || emit)
      throw UsageError("sweep: --collect DIR takes no spec or --emit-jobs");
    const sweep::CollectOutcome c = sweep::collectSweep(*collect);
    std::cout << "collected " << c.finished << " of " << c.points << " points into " << *collect
              << "/results.csv and " << c.plots.size() << " plots\n";
    if (c.finished < c.points)
      std::cerr << "hilsim: note: " << (c.points - c.finished) << " points have no results yet\n";
    return 0;
  }
  if (spec_path.empty()) throw UsageError("sweep: give a spec.yaml (or --collect DIR)");
  sweep::SweepOptions options;
  options.jobs = std::max(1u, std::thread::hardware_concurrency());
  if (!jobs.empty()) {
    options.jobs = static_cast<unsigned>(parseUnsigned("--jobs", jobs));
    if (options.jobs == 0 || options.jobs > 256)
      throw UsageError("--jobs: " + jobs + " is out of range (1..256)");
  }
  if (emit) checkWritable(*emit, "--emit-jobs");
  const sweep::SweepSpec spec = sweep::readSweepSpec(spec_path);
  options.dir = out.empty() ? "out/" + std::filesystem::path(spec_path).stem().string() : out;
  options.emit_jobs = emit;
  const sweep::SweepOutcome o = sweep::runSweep(spec, options);
  if (emit) {
    std::cout << "wrote " << (o.points - o.skipped) << " commands to " << *emit << " (" << o.skipped
              << " points already finished); run them, then: hilsim sweep --collect " << options.dir
              << "\n";
    return 0;
  }
  const sweep::CollectOutcome c = sweep::collectSweep(options.dir);
  std::cout << "sweep " << spec_path << ": " << c.finished << " of " << c.points << " points in "
            << options.dir << "/results.csv (" << o.skipped << " skipped, " << o.ran << " run, "
            << o.failed << " failed"
            << (o.interrupted ? ", " + std::to_string(o.stopped_points) + " stopped unfinished"
                              : std::string())
            << "); plots: " << options.dir << "/plots/\n";
  if (o.interrupted) {
    std::cerr << "hilsim: sweep interrupted; finished points are kept, run it again to go on\n";
    return 128 + o.stop_signal;
  }
  if (o.failed > 0)
    throw SimulationError("sweep: " + std::to_string(o.failed) + " of " + std::to_string(o.points) +
                          " points failed, the first " + o.first_failure);
  return 0;
}

}  // namespace hilsim::cli
