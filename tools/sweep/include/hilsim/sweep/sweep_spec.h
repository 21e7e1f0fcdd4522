#pragma once
// The sweep specification (a YAML file; configs/sweeps/ has examples): a base config, models,
// fixed overrides, a grid of config keys (full product) and zip groups (varied together), how to
// run each point, and the plots to draw.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hilsim/modelgen/model_gen.h"

namespace hilsim::sweep {

struct SweepModel {
  std::string name;
  std::string file;       // a .tflite path (absolute), or empty for a generated model
  modelgen::MlpSpec gen;  // when generated
  bool generated() const { return file.empty(); }
};

struct PlotSpec {
  std::string name;                          // plots/<name>.svg
  std::string kind = "line";                 // line | stacked | pareto
  std::string x;                             // line: a config key; pareto: a totals metric
  std::string y = "cycles";                  // line, pareto: a totals metric
  std::string series;                        // line: a config key (one line per value), optional
  std::string model;                         // restrict to one model (default: each model)
  std::map<std::string, std::string> where;  // keys fixed to values
  bool log_y = false;
};

// Config keys, each with its list of values.
using KeyLists = std::vector<std::pair<std::string, std::vector<std::string>>>;

struct SweepSpec {
  std::string path;         // the spec file, absolute
  std::string path_shown;   // the spec file as the user named it (in messages)
  std::string base_config;  // absolute path, or empty for the embedded defaults
  std::vector<SweepModel> models;
  std::vector<std::pair<std::string, std::string>> set;  // applied to every point
  KeyLists grid;
  std::vector<KeyLists> zips;
  std::string mode = "auto";
  uint64_t invocations = 20;
  uint64_t seed = 1;
  std::vector<PlotSpec> plots;
  std::map<std::string, int> value_lines;  // "key=value" -> line of the value in the spec
};

// One simulation: a model and the overrides of its config.
struct SweepPoint {
  std::string id;  // stable: a hash of the model and the overrides
  const SweepModel* model = nullptr;
  std::vector<std::pair<std::string, std::string>> overrides;  // set, then grid and zip values
  std::map<std::string, std::string> values;                   // the varied keys' values
};

// Reads and checks a spec. Throws UsageError naming the file, line and key.
SweepSpec readSweepSpec(const std::string& path);
// The varied keys in column order: grid keys, then zip keys.
std::vector<std::string> variedKeys(const SweepSpec& spec);
// Every point, model by model, in grid order (the last grid key varies fastest).
std::vector<SweepPoint> expandPoints(const SweepSpec& spec);
// The metrics a line plot's y may name.
const std::vector<std::string>& totalsMetrics();

}  // namespace hilsim::sweep
