#include <iostream>

#include "args.h"
#include "commands.h"
#include "hilsim/annotate/annotate.h"
#include "hilsim/base/io.h"
#include "hilsim/config/loader.h"
#include "hilsim/errors.h"

namespace hilsim::cli {

int annotateCommand(int argc, char** argv, int first) {
  std::string model_path, out, carrier = "custom_options", policy = "auto", objective = "cycles";
  std::optional<std::string> config_path;
  std::vector<std::string> sets;
  bool quiet = false;
  ArgParser args("annotate",
                 "Plans every int8 FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D layer for the\n"
                 "configured hardware (chunks over the cores, tiling, SRAM layout), predicts\n"
                 "accelerated and reference cycles and energy, decides whether offloading pays,\n"
                 "and writes the plans into a copy of the model.\n"
                 "Operators, options, tensors and buffers stay as they are.");
  args.option("--model", &model_path, "in.tflite", "model to annotate (required)");
  args.option("--config", &config_path, "C.yaml", "hardware config (default: embedded defaults)");
  args.repeated("--set", &sets, "key=value", "override one config key (repeatable)");
  args.option("--out", &out, "out.tflite", "annotated model to write (required)");
  args.option("--carrier", &carrier, "custom_options|metadata",
              "where the plans go: operator custom_options (default) or Model.metadata, which\n"
              "stock TensorFlow Lite Micro ignores");
  args.option("--policy", &policy, "auto|all|none",
              "offload where it pays (default), every layer, or none");
  args.option("--objective", &objective, "cycles|energy|edp",
              "what paying means for --policy auto: fewer predicted cycles (default), less\n"
              "predicted energy (energy.* keys), or a smaller energy x cycles product; stored\n"
              "in the plans, so `run --mode auto` re-plans by it");
  args.flag("--quiet", &quiet, "do not print the per-layer summary");
  if (!args.parse(argc, argv, first)) return 0;
  if (model_path.empty()) throw UsageError("annotate: --model is required");
  if (out.empty()) throw UsageError("annotate: --out is required");
  const annotate::Carrier c =
      parseChoice("--carrier", carrier, {"custom_options", "metadata"}) == "metadata"
          ? annotate::Carrier::kMetadata
          : annotate::Carrier::kCustomOptions;
  const std::string p = parseChoice("--policy", policy, {"auto", "all", "none"});
  const annotate::Policy pol = p == "all"    ? annotate::Policy::kAll
                               : p == "none" ? annotate::Policy::kNone
                                             : annotate::Policy::kAuto;
  const planner::Objective obj =
      *planner::parseObjective(parseChoice("--objective", objective, {"cycles", "energy", "edp"}));
  checkWritable(out, "--out");
  std::vector<config::Override> overrides;
  for (const std::string& s : sets) overrides.push_back({s});
  const config::HardwareConfig cfg = config::loadConfig(config_path.value_or(""), overrides);
  const rt::Model model = rt::Model::fromFile(model_path);
  const annotate::AnnotateResult result = annotate::annotateModel(model, cfg, c, pol, obj);
  writeFileAtomic(out, result.model);
  if (!quiet)
    for (const annotate::LayerAnnotation& l : result.layers)
      std::cout << "operator " << l.op_index << " (" << l.op << "): " << l.summary << "\n";
  return 0;
}

int stripCommand(int argc, char** argv, int first) {
  std::string in, out;
  ArgParser args("strip",
                 "Removes every hilsim annotation (plans in operator custom_options and the\n"
                 "hilsim.chunk_plans metadata). The result loads in stock TensorFlow Lite Micro\n"
                 "and computes the same.");
  args.positional("in.tflite", &in, true, "annotated model");
  args.positional("out.tflite", &out, true, "model to write");
  if (!args.parse(argc, argv, first)) return 0;
  checkWritable(out, "out.tflite");
  const rt::Model model = rt::Model::fromFile(in);
  writeFileAtomic(out, annotate::stripModel(model));
  return 0;
}

}  // namespace hilsim::cli
