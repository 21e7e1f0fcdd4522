#include <filesystem>
#include <iostream>

#include "args.h"
#include "commands.h"
#include "hilsim/base/io.h"
#include "hilsim/base/log.h"
#include "hilsim/base/progress.h"
#include "hilsim/config/loader.h"
#include "hilsim/errors.h"
#include "hilsim/sweep/crossover.h"

namespace hilsim::cli {

int crossoverCommand(int argc, char** argv, int first) {
  std::optional<std::string> config_path;
  std::vector<std::string> sets;
  std::string out = "out/crossover";
  ArgParser args("crossover",
                 "Finds, for FULLY_CONNECTED shape families (square, k = 4n, n = 4k, and square\n"
                 "with 8 rows) and convolution families (1x1, 3x3 stride 1 and 2 on small\n"
                 "images, 3x3 on 48x48 pixels, depthwise 3x3; n channels in and out), the layer\n"
                 "size from which offloading pays on this hardware: each size is simulated on\n"
                 "both paths, the crossover bisected. Writes\n"
                 "DIR/crossover.csv (every size), DIR/break_even.csv (per family, simulated and\n"
                 "predicted) and DIR/crossover-<family>.svg.");
  args.option("--config", &config_path, "C.yaml", "hardware config (default: embedded defaults)");
  args.repeated("--set", &sets, "key=value", "override one config key (repeatable)");
  args.option("--out", &out, "DIR", "output directory (default out/crossover)");
  if (!args.parse(argc, argv, first)) return 0;
  std::vector<config::Override> overrides;
  for (const std::string& s : sets) overrides.push_back({s});
  const config::HardwareConfig cfg = config::loadConfig(config_path.value_or(""), overrides);
  log::setLevel(cfg.sim.log_level);
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) throw InputError("--out '" + out + "': cannot create: " + ec.message());
  checkWritable(out + "/crossover.csv", "--out");
  std::optional<ProgressLine> progress;
  progress.emplace(std::cerr, stderrIsTerminal(), "crossover:", "sizes");
  const std::vector<sweep::FamilyResult> results =
      sweep::runCrossover(cfg, sweep::defaultFamilies(), progress->callback());
  progress.reset();
  writeFileAtomic(out + "/crossover.csv", sweep::crossoverCsv(results));
  writeFileAtomic(out + "/break_even.csv", sweep::breakEvenCsv(results));
  std::printf("%-14s %5s %8s %22s %22s %22s %22s\n", "family", "rows", "k:n", "break-even MACs",
              "predicted", "by energy", "predicted");
  bool any_from_smallest = false;
  for (const sweep::FamilyResult& r : results) {
    writeFileAtomic(out + "/crossover-" + r.family.name + ".svg", sweep::crossoverSvg(r));
    writeFileAtomic(out + "/crossover-energy-" + r.family.name + ".svg",
                    sweep::crossoverEnergySvg(r));
    // A family whose smallest size already pays has its break-even at or below that size.
    const std::string simulated = !r.break_even_macs ? "none up to 16M"
                                                     : (r.pays_from_smallest ? "<= " : "") +
                                                           std::to_string(*r.break_even_macs);
    any_from_smallest = any_from_smallest || r.pays_from_smallest;
    auto orNone = [](const std::optional<uint64_t>& macs) {
      return macs ? std::to_string(*macs) : std::string("none");
    };
    std::printf("%-14s %5u %8g %22s %22s %22s %22s\n", r.family.name.c_str(), r.family.rows,
                double(r.family.k_per_n_num) / double(r.family.k_per_n_den), simulated.c_str(),
                orNone(r.predicted_break_even).c_str(), orNone(r.break_even_energy_macs).c_str(),
                orNone(r.predicted_break_even_energy).c_str());
  }
  if (any_from_smallest)
    std::cout << "<= N: offloading already pays at the smallest size tried (N MACs); the "
                 "break-even lies at or below it\n";
  std::cout << "wrote " << out << "/crossover.csv, break_even.csv and " << 2 * results.size()
            << " plots\n";
  return 0;
}

}  // namespace hilsim::cli
