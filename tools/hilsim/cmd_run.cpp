#include <iostream>

#include "args.h"
#include "commands.h"
#include "hilsim/base/io.h"
#include "hilsim/base/log.h"
#include "hilsim/base/progress.h"
#include "hilsim/config/loader.h"
#include "hilsim/errors.h"
#include "hilsim/modelgen/model_gen.h"
#include "hilsim/report/per_invocation.h"
#include "hilsim/sim/run.h"

namespace hilsim::cli {
namespace {

// The bundled demo model: generated, deterministic.
modelgen::MlpSpec demoSpec() {
  modelgen::MlpSpec spec;
  spec.layers = {784, 256, 128, 10};
  spec.activation = "relu";
  spec.per_channel = true;
  spec.seed = 1;
  return spec;
}

// Parses "A-B" (or "A") for `option` (--vcd-layers, --timeline-layers).
std::pair<int, int> parseLayerRange(const std::string& option, const std::string& text) {
  const size_t dash = text.find('-');
  const std::string a = text.substr(0, dash);
  const std::string b = dash == std::string::npos ? a : text.substr(dash + 1);
  auto number = [&](const std::string& s) {
    if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos)
      throw UsageError(option + ": '" + text + "' is not a layer range like 2-5");
    return std::stoi(s);
  };
  const int first = number(a), last = number(b);
  if (first > last) throw UsageError(option + ": '" + text + "' ends before it starts");
  return {first, last};
}

}  // namespace

int runCommand(int argc, char** argv, int first) {
  std::optional<std::string> model_path, config_path, input, output, report_path, csv, vcd,
      vcd_layers, timeline, timeline_layers;
  std::vector<std::string> sets;
  std::string mode = "auto", seed = "1", invocations, objective = "cycles";
  bool quiet = false, per_invocation = false, wide = false;
  ArgParser args("run",
                 "Simulates inference of a .tflite model on the configured hardware and prints\n"
                 "the per-layer table. Without --model it runs the bundled demo MLP; without\n"
                 "--config the embedded defaults (configs/default.yaml).");
  args.option("--model", &model_path, "M.tflite", "model to run (default: the demo model)");
  args.option("--config", &config_path, "C.yaml", "hardware config (default: embedded defaults)");
  args.repeated("--set", &sets, "key=value", "override one config key (repeatable)");
  args.option("--input", &input, "in.bin",
              "raw bytes of input tensor 0; k frames run k invocations on one interpreter");
  args.option("--output", &output, "out.bin", "write output tensor 0 of every invocation");
  args.option("--mode", &mode, "auto|accel|ref|compare", "execution mode (default auto)");
  args.option("--objective", &objective, "cycles|energy|edp",
              "mode auto: what a layer without an annotation is offloaded by (default cycles);\n"
              "annotated layers follow the objective their plans store");
  args.option("--report", &report_path, "r.json", "write the per-layer report as JSON");
  args.option("--csv", &csv, "layers.csv", "write the per-layer report as CSV");
  args.option("--vcd", &vcd, "t.vcd", "write a VCD trace of the simulation");
  args.option("--vcd-layers", &vcd_layers, "A-B", "trace only layers A to B");
  args.option("--timeline", &timeline, "t.json",
              "write a Chrome trace-event / Perfetto timeline of the simulation");
  args.option("--timeline-layers", &timeline_layers, "A-B",
              "put only layers A to B on the timeline");
  args.option("--seed", &seed, "S", "seed of the pseudo-random inputs (default 1)");
  args.option("--invocations", &invocations, "N",
              "invocations with pseudo-random inputs (default 1; not with --input)");
  args.flag("--per-invocation", &per_invocation,
            "keep every invocation's layer records in --report and --csv (default: the first's)");
  args.flag("--quiet", &quiet, "do not print the table");
  args.flag("--wide", &wide, "print every reason whole (default: lines fit 160 columns)");
  if (!args.parse(argc, argv, first)) return 0;

  sim::RunSpec spec;
  spec.mode = sim::parseMode(mode, "--mode");
  spec.objective =
      *planner::parseObjective(parseChoice("--objective", objective, {"cycles", "energy", "edp"}));
  spec.seed = parseUnsigned("--seed", seed);
  // Every invocation's records go to the outputs through the record sink below, never into memory.
  spec.per_invocation = false;
  spec.keep_output = false;
  if (!invocations.empty()) {
    if (input) throw UsageError("--invocations cannot be combined with --input");
    spec.invocations = parseUnsigned("--invocations", invocations);
    if (spec.invocations == 0 || spec.invocations > 1000000)
      throw UsageError("--invocations: " + invocations + " is out of range (1..1000000)");
  }
  if (vcd_layers && !vcd) throw UsageError("--vcd-layers needs --vcd");
  if (vcd) {
    checkWritable(*vcd, "--vcd");
    spec.vcd_path = vcd;
  }
  if (vcd_layers) spec.vcd_layers = parseLayerRange("--vcd-layers", *vcd_layers);
  if (timeline_layers && !timeline) throw UsageError("--timeline-layers needs --timeline");
  if (timeline) {
    checkWritable(*timeline, "--timeline");
    spec.timeline_path = timeline;
  }
  if (timeline_layers)
    spec.timeline_layers = parseLayerRange("--timeline-layers", *timeline_layers);
  if (output) checkWritable(*output, "--output");
  if (report_path) checkWritable(*report_path, "--report");
  if (csv) checkWritable(*csv, "--csv");

  std::vector<config::Override> overrides;
  for (const std::string& s : sets) overrides.push_back({s});
  spec.config = config::loadConfig(config_path.value_or(""), overrides);
  log::setLevel(spec.config.sim.log_level);
  spec.config_source = config_path.value_or("embedded defaults");

  rt::Model model = model_path
                        ? rt::Model::fromFile(*model_path)
                        : rt::Model::fromBytes(modelgen::generateMlp(demoSpec()),
                                               "demo (" + modelgen::describe(demoSpec()) + ")");
  if (input) {
    spec.input = readFile(*input, "--input");
    if (spec.input.empty()) throw InputError("--input '" + *input + "' is empty");
  }

  // Outputs go to a temporary file as the run produces them, renamed into place at the end.
  std::optional<AtomicFileWriter> output_file;
  if (output) {
    output_file.emplace(*output);
    spec.output_sink = [&output_file](const uint8_t* data, size_t bytes) {
      output_file->write(data, bytes);
    };
  }
  // --per-invocation: every invocation's records go to temporary files as they complete, so the
  // run's memory does not grow with its length.
  std::optional<report::PerInvocationWriter> records;
  if (per_invocation && (report_path || csv)) {
    records.emplace(spec.config, spec.mode != sim::Mode::kRef, report_path.has_value(),
                    csv.has_value());
    spec.record_sink = [&records](const rt::LayerRecord& record) { records->add(record); };
  }
  std::optional<ProgressLine> progress;
  progress.emplace(std::cerr, stderrIsTerminal() && !quiet, "run:", "layers");
  spec.progress = progress->callback();
  const sim::RunResult result = sim::runModel(model, spec);
  progress.reset();
  if (!spec.config.cpu.model_note.empty())
    std::cerr << "hilsim: " << spec.config.cpu.model_note << "\n";
  for (const std::string& note : result.report.notes) std::cerr << "hilsim: " << note << "\n";
  // A run whose accelerator jobs failed recovered from them (the layers ran on the CPU), so its
  // outputs and report are complete; the exit code still says that the hardware failed.
  if (output_file) output_file->commit();
  if (records) {
    if (report_path) records->writeJson(result.report, *report_path);
    if (csv) records->writeCsv(result.report, *csv);
  } else {
    if (report_path) writeFileAtomic(*report_path, report::reportJson(result.report));
    if (csv) writeFileAtomic(*csv, report::reportCsv(result.report));
  }
  if (!quiet) report::printReport(std::cout, result.report, {wide ? 0u : 160u});
  if (!result.failure.empty()) throw SimulationError(result.failure);
  return 0;
}

}  // namespace hilsim::cli
