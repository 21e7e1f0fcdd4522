#include <cmath>
#include <cstdio>
#include <iostream>

#include "args.h"
#include "commands.h"
#include "hilsim/base/io.h"
#include "hilsim/calibrate/calibrate.h"
#include "hilsim/config/loader.h"
#include "hilsim/errors.h"

namespace hilsim::cli {

int calibrateCommand(int argc, char** argv, int first) {
  std::optional<std::string> config_path;
  std::vector<std::string> sets;
  std::string out;
  bool shapes = false;
  ArgParser args(
      "calibrate",
      "Runs the reference kernels on the instruction-set simulator of the configured host CPU\n"
      "(cpu.preset) over a fixed set of one-operator shapes (each operator run twice: its\n"
      "first call and a warm one), fits the CPU cost model's coefficients by least squares\n"
      "per operator and writes them as a config file\n"
      "(usable with --config or include:). Exits 2 if the preset has no simulator.");
  args.option("--config", &config_path, "C.yaml", "hardware config (default: embedded defaults)");
  args.repeated("--set", &sets, "key=value", "override one config key (repeatable)");
  args.option("--out", &out, "cal.yaml", "config file to write (required)");
  args.flag("--shapes", &shapes,
            "print every shape's executed and fitted cycles and its first call's extra cycles");
  if (!args.parse(argc, argv, first)) return 0;
  if (out.empty()) throw UsageError("calibrate: --out cal.yaml is required");
  checkWritable(out, "--out");

  std::vector<config::Override> overrides;
  for (const std::string& s : sets) overrides.push_back({s});
  const config::HardwareConfig config = config::loadConfig(config_path.value_or(""), overrides);
  std::optional<ProgressLine> progress;
  progress.emplace(std::cerr, stderrIsTerminal(), "calibrate:", "shapes");
  const calibrate::Calibration cal = calibrate::calibrate(config, progress->callback());
  progress.reset();
  writeFileAtomic(out, calibrate::calibrationYaml(cal));
  if (shapes) {
    const timing::CpuCostModel model(cal.coefficients);
    for (const calibrate::Sample& s : cal.samples) {
      const double fitted = double(model.cycles(s.op, s.work));
      std::string first_call = "";
      if (s.first_call_cycles)
        first_call = "  first call " + std::string(*s.first_call_cycles >= 0 ? "+" : "") +
                     std::to_string(*s.first_call_cycles);
      if (s.new_path_cycles)
        first_call = "  first call of its own paths " +
                     std::string(*s.new_path_cycles >= 0 ? "+" : "") +
                     std::to_string(std::lround(*s.new_path_cycles)) + " per path";
      std::string flash = "";
      if (s.flash)
        flash = "  flash lines " + std::to_string(s.flash->line_reads) + " (icache misses " +
                std::to_string(s.flash->icache_misses) + ", dcache misses " +
                std::to_string(s.flash->dcache_misses) + ")";
      std::printf("%-45s %12llu executed %12.0f fitted %+7.2f%%%s%s\n", s.label.c_str(),
                  static_cast<unsigned long long>(s.cycles), fitted,
                  100.0 * (fitted - double(s.cycles)) / double(s.cycles ? s.cycles : 1),
                  first_call.c_str(), flash.c_str());
    }
  }
  for (const calibrate::OpFit& f : cal.fits) {
    std::printf("%-18s %3zu shapes  mean error %6.2f%%  max error %6.2f%%\n",
                tflite::EnumNameBuiltinOperator(f.op), f.shapes, f.mean_error_pct, f.max_error_pct);
  }
  std::printf("wrote %s (%zu coefficients for cpu.preset %s)\n", out.c_str(), cal.fitted.size(),
              cal.cpu.preset.c_str());
  return 0;
}

}  // namespace hilsim::cli
