#include "hilsim/sweep/sweep_spec.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "hilsim/base/io.h"
#include "hilsim/base/parse.h"
#include "hilsim/base/sha256.h"
#include "hilsim/config/document.h"
#include "hilsim/config/loader.h"
#include "hilsim/errors.h"

namespace hilsim::sweep {
namespace {

namespace fs = std::filesystem;

// Reads a spec document; every error names the file and line.
class SpecReader {
 public:
  explicit SpecReader(config::Document doc, std::string path)
      : doc_(std::move(doc)), path_(std::move(path)) {}

  const config::Node& root() const { return doc_.root; }
  [[noreturn]] void fail(const config::Node& node, const std::string& what) const {
    config::failAt(doc_, node, what);
  }
  void keysOf(const config::Node& node, const std::string& where,
              const std::vector<std::string>& allowed) const {
    if (!node.isMapping()) fail(node, where + " must be a mapping");
    for (const auto& [k, v] : node.entries()) {
      const std::string key = scalar(k, "a key");
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        std::string list;
        for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(k, "unknown key '" + key + "' in " + where + " (valid: " + list + ")");
      }
    }
  }
  std::string scalar(const config::Node& node, const std::string& key) const {
    if (!node.isScalar()) fail(node, key + " must be a single value");
    return node.scalar();
  }
  uint64_t number(const config::Node& node, const std::string& key) const {
    return parseUnsigned(where(node) + ": " + key, scalar(node, key));
  }
  std::string choice(const config::Node& node, const std::string& key,
                     const std::vector<std::string>& choices) const {
    return parseChoice(where(node) + ": " + key, scalar(node, key), choices);
  }
  std::vector<std::string> list(const config::Node& node, const std::string& key) const {
    if (!node.isSequence() || node.items().empty())
      fail(node, key + " must be a non-empty list of values");
    std::vector<std::string> out;
    for (const config::Node& v : node.items()) out.push_back(scalar(v, key));
    return out;
  }
  std::string resolve(const std::string& p) const {
    const fs::path path(p);
    return (path.is_absolute() ? path : fs::absolute(fs::path(path_).parent_path() / path))
        .lexically_normal()
        .string();
  }
  std::string where(const config::Node& node) const {
    return node.line() > 0 ? path_ + ":" + std::to_string(node.line()) : path_;
  }
  const std::string& path() const { return path_; }

 private:
  config::Document doc_;
  std::string path_;
};

// The value of `key` in a mapping, or nullptr.
const config::Node* get(const config::Node& node, const char* key) {
  return node.find(key);
}

SweepModel readModel(const SpecReader& r, const config::Node& node, size_t index) {
  r.keysOf(node, "a model",
           {"name", "file", "layers", "batch", "dtype", "weights", "activation", "seed"});
  SweepModel m;
  if (const config::Node* file = get(node, "file")) {
    if (get(node, "layers")) r.fail(node, "a model has either file or layers, not both");
    m.file = r.resolve(r.scalar(*file, "file"));
    if (!fs::exists(m.file)) r.fail(*file, "model file '" + m.file + "' not found");
    m.name = fs::path(m.file).stem().string();
  } else if (const config::Node* layers = get(node, "layers")) {
    m.gen.layers =
        modelgen::parseLayerList(r.where(*layers) + ": layers", r.scalar(*layers, "layers"));
    if (const config::Node* v = get(node, "batch"))
      m.gen.batch = static_cast<uint32_t>(r.number(*v, "batch"));
    if (const config::Node* v = get(node, "dtype"))
      m.gen.float32 = r.choice(*v, "dtype", {"int8", "float32"}) == "float32";
    if (const config::Node* v = get(node, "weights"))
      m.gen.per_channel = r.choice(*v, "weights", {"per-tensor", "per-channel"}) == "per-channel";
    if (const config::Node* v = get(node, "activation"))
      m.gen.activation = r.choice(*v, "activation", {"none", "relu", "relu6"});
    if (const config::Node* v = get(node, "seed")) m.gen.seed = r.number(*v, "seed");
    std::string shape;
    for (uint32_t l : m.gen.layers) shape += (shape.empty() ? "mlp" : "-") + std::to_string(l);
    m.name = shape;
  } else {
    r.fail(node, "model " + std::to_string(index) + " needs file or layers");
  }
  if (const config::Node* v = get(node, "name")) m.name = r.scalar(*v, "name");
  return m;
}

// A mapping of config keys to lists of values; each value's line is kept for later errors.
KeyLists readKeyLists(const SpecReader& r, const config::Node& node, const std::string& where,
                      SweepSpec& spec) {
  if (!node.isMapping()) r.fail(node, where + " must map config keys to lists of values");
  KeyLists out;
  for (const auto& [k, v] : node.entries()) {
    const std::string key = r.scalar(k, "a key");
    out.emplace_back(key, r.list(v, key));
    for (size_t i = 0; i < v.items().size(); ++i)
      spec.value_lines[key + "=" + out.back().second[i]] = v.items()[i].line();
  }
  return out;
}

PlotSpec readPlot(const SpecReader& r, const config::Node& node, const SweepSpec& spec) {
  r.keysOf(node, "a plot", {"name", "kind", "x", "y", "series", "model", "where", "log_y"});
  PlotSpec p;
  const config::Node* name = get(node, "name");
  if (!name) r.fail(node, "a plot needs a name");
  p.name = r.scalar(*name, "name");
  if (p.name.find_first_of("/\\ ") != std::string::npos)
    r.fail(*name, "plot name '" + p.name + "' must be a plain file name");
  const config::Node* kind = get(node, "kind");
  if (kind) p.kind = r.scalar(*kind, "kind");
  if (p.kind != "line" && p.kind != "stacked" && p.kind != "pareto")
    r.fail(*kind, "plot kind '" + p.kind + "' is not one of line|stacked|pareto");
  const std::vector<std::string> keys = variedKeys(spec);
  auto varied = [&](const config::Node& n, const std::string& what) {
    const std::string key = r.scalar(n, what);
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      r.fail(n, what + " '" + key + "' is not a key the sweep varies");
    return key;
  };
  if (p.kind == "line") {
    const config::Node* x = get(node, "x");
    if (!x) r.fail(node, "a line plot needs x (a varied config key)");
    p.x = varied(*x, "x");
    const config::Node* y = get(node, "y");
    if (y) p.y = r.scalar(*y, "y");
    const auto& metrics = totalsMetrics();
    if (std::find(metrics.begin(), metrics.end(), p.y) == metrics.end()) {
      std::string list;
      for (const std::string& m : metrics) list += (list.empty() ? "" : "|") + m;
      r.fail(y ? *y : node, "y '" + p.y + "' is not one of " + list);
    }
    if (const config::Node* series = get(node, "series")) p.series = varied(*series, "series");
  }
  if (p.kind == "pareto") {  // two objectives, both totals metrics
    const auto& metrics = totalsMetrics();
    std::string list;
    for (const std::string& m : metrics) list += (list.empty() ? "" : "|") + m;
    for (const char* axis : {"x", "y"}) {
      const config::Node* n = get(node, axis);
      if (!n) r.fail(node, std::string("a pareto plot needs ") + axis + " (a metric)");
      const std::string metric = r.scalar(*n, axis);
      if (std::find(metrics.begin(), metrics.end(), metric) == metrics.end())
        r.fail(*n, std::string(axis) + " '" + metric + "' is not one of " + list);
      (std::string(axis) == "x" ? p.x : p.y) = metric;
    }
  }
  if (const config::Node* model = get(node, "model")) {
    p.model = r.scalar(*model, "model");
    if (std::none_of(spec.models.begin(), spec.models.end(),
                     [&](const SweepModel& m) { return m.name == p.model; }))
      r.fail(*model, "plot model '" + p.model + "' is not one of the sweep's models");
  }
  if (const config::Node* where = get(node, "where")) {
    if (!where->isMapping()) r.fail(*where, "where must map varied keys to values");
    for (const auto& [k, v] : where->entries())
      p.where[varied(k, "where key")] = r.scalar(v, "where");
  }
  if (const config::Node* log_y = get(node, "log_y")) p.log_y = r.scalar(*log_y, "log_y") == "true";
  return p;
}

void readRun(const SpecReader& r, const config::Node& run, SweepSpec& spec) {
  r.keysOf(run, "run", {"mode", "invocations", "seed"});
  if (const config::Node* mode = get(run, "mode"))
    spec.mode = r.choice(*mode, "run.mode", {"auto", "accel", "ref", "compare"});
  if (const config::Node* invocations = get(run, "invocations")) {
    spec.invocations = r.number(*invocations, "invocations");
    if (spec.invocations == 0) r.fail(*invocations, "invocations must be at least 1");
  }
  if (const config::Node* seed = get(run, "seed")) spec.seed = r.number(*seed, "seed");
}

// "mlp accel.num_cores=4 (line 5) bus.width_bytes=32 (line 8)": the lines of the spec that set
// each varied value, so that an error of a combination points at them.
std::string pointText(const SweepSpec& spec, const SweepPoint& point) {
  std::string text = point.model->name;
  for (const auto& [k, v] : point.values) {
    text += " " + k + "=" + v;
    const auto line = spec.value_lines.find(k + "=" + v);
    if (line != spec.value_lines.end() && line->second > 0)
      text += " (line " + std::to_string(line->second) + ")";
  }
  return text;
}

// Every value the spec sets must load on its own (the error names its line), and every point's
// combination too: a bad key or value is caught now, not in the middle of a sweep.
void checkPointConfigs(const SweepSpec& spec) {
  std::map<std::string, int> checked;
  const auto checkOne = [&](const std::string& key, const std::string& value) {
    const std::string text = key + "=" + value;
    if (!checked.emplace(text, 0).second) return;
    try {
      (void)config::loadConfig(spec.base_config, {{text}});
    } catch (const ConfigError& e) {
      const auto line = spec.value_lines.find(text);
      throw UsageError(spec.path_shown +
                       (line != spec.value_lines.end() && line->second > 0
                            ? ":" + std::to_string(line->second)
                            : std::string()) +
                       ": " + key + " = '" + value + "': " + e.what());
    }
  };
  for (const auto& [k, v] : spec.set) checkOne(k, v);
  for (const auto& [k, values] : spec.grid)
    for (const std::string& v : values) checkOne(k, v);
  for (const KeyLists& group : spec.zips)
    for (const auto& [k, values] : group)
      for (const std::string& v : values) checkOne(k, v);
  for (const SweepPoint& point : expandPoints(spec)) {
    std::vector<config::Override> overrides;
    for (const auto& [k, v] : point.overrides) overrides.push_back({k + "=" + v});
    try {
      (void)config::loadConfig(spec.base_config, overrides);
    } catch (const ConfigError& e) {
      throw UsageError(spec.path_shown + ": point " + pointText(spec, point) + ": " + e.what());
    }
  }
}

}  // namespace

const std::vector<std::string>& totalsMetrics() {
  // results.csv's column names; speedup is the older name of speedup_ratio.
  static const std::vector<std::string> m = {
      "cycles",     "ref_cycles", "speedup_ratio",    "speedup",     "accel_cycles",
      "cpu_cycles", "seconds",    "bus_stall_cycles", "bytes_moved", "energy_uj",
      "edp",        "edp_uj_s",   "area_mm2"};
  return m;
}

std::vector<std::string> variedKeys(const SweepSpec& spec) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : spec.grid) keys.push_back(k);
  for (const auto& group : spec.zips)
    for (const auto& [k, v] : group) keys.push_back(k);
  return keys;
}

SweepSpec readSweepSpec(const std::string& path) {
  SweepSpec spec;
  spec.path = fs::absolute(path).lexically_normal().string();
  spec.path_shown = path;
  const SpecReader r(config::parseYaml(readTextFile(path, "sweep spec"), path), path);
  const config::Node& root = r.root();
  r.keysOf(root, "the sweep spec", {"base_config", "models", "set", "grid", "zip", "run", "plots"});
  if (const config::Node* base = get(root, "base_config")) {
    spec.base_config = r.resolve(r.scalar(*base, "base_config"));
    if (!fs::exists(spec.base_config))
      r.fail(*base, "base_config '" + spec.base_config + "' not found");
  }
  const config::Node* models = get(root, "models");
  if (!models || !models->isSequence() || models->items().empty())
    r.fail(models ? *models : root,
           "the sweep spec needs models: a list of files or gen-model shapes");
  std::set<std::string> names;
  for (size_t i = 0; i < models->items().size(); ++i) {
    spec.models.push_back(readModel(r, models->items()[i], i));
    if (!names.insert(spec.models.back().name).second)
      r.fail(models->items()[i], "two models are named '" + spec.models.back().name + "'");
  }
  if (const config::Node* set = get(root, "set")) {
    if (!set->isMapping()) r.fail(*set, "set must map config keys to values");
    for (const auto& [k, v] : set->entries()) {
      const std::string key = r.scalar(k, "a key");
      spec.set.emplace_back(key, r.scalar(v, key));
      spec.value_lines[key + "=" + spec.set.back().second] = v.line();
    }
  }
  if (const config::Node* grid = get(root, "grid"))
    spec.grid = readKeyLists(r, *grid, "grid", spec);
  if (const config::Node* zip = get(root, "zip")) {
    if (!zip->isSequence()) r.fail(*zip, "zip must be a list of groups");
    for (const config::Node& group : zip->items()) {
      spec.zips.push_back(readKeyLists(r, group, "a zip group", spec));
      for (const auto& [k, v] : spec.zips.back())
        if (v.size() != spec.zips.back().front().second.size())
          r.fail(group, "the lists of a zip group must have the same length ('" + k + "')");
    }
  }
  std::set<std::string> seen;
  for (const std::string& k : variedKeys(spec))
    if (!seen.insert(k).second) r.fail(root, "key '" + k + "' is varied twice");
  if (const config::Node* run = get(root, "run")) readRun(r, *run, spec);
  if (const config::Node* plots = get(root, "plots")) {
    if (!plots->isSequence()) r.fail(*plots, "plots must be a list");
    for (const config::Node& p : plots->items()) spec.plots.push_back(readPlot(r, p, spec));
  }
  checkPointConfigs(spec);
  return spec;
}

std::vector<SweepPoint> expandPoints(const SweepSpec& spec) {
  // Dimensions: each grid key on its own, each zip group as one.
  std::vector<std::vector<std::pair<std::string, std::vector<std::string>>>> dims;
  for (const auto& kv : spec.grid) dims.push_back({kv});
  for (const auto& group : spec.zips) dims.push_back(group);
  // What makes results differ besides the overrides: the contents of the base config and of a
  // model file, and how points run. A rerun skips a point only if all of it is unchanged.
  auto fileHash = [](const std::string& path) {
    if (path.empty()) return std::string("embedded");
    const std::vector<uint8_t> bytes = readFile(path);
    return sha256Hex(bytes.data(), bytes.size());
  };
  const std::string common = fileHash(spec.base_config) + "|" + spec.mode + "|" +
                             std::to_string(spec.invocations) + "|" + std::to_string(spec.seed);
  std::vector<SweepPoint> points;
  for (const SweepModel& model : spec.models) {
    const std::string model_identity =
        model.name + "|" +
        (model.generated() ? modelgen::describe(model.gen) : fileHash(model.file));
    std::vector<size_t> at(dims.size(), 0);
    auto next = [&] {  // the last dimension varies fastest
      for (size_t d = dims.size(); d-- > 0;) {
        if (++at[d] < dims[d].front().second.size()) return true;
        at[d] = 0;
      }
      return false;
    };
    do {
      SweepPoint p;
      p.model = &model;
      p.overrides = spec.set;
      for (size_t d = 0; d < dims.size(); ++d)
        for (const auto& [key, values] : dims[d]) {
          p.overrides.emplace_back(key, values[at[d]]);
          p.values[key] = values[at[d]];
        }
      std::string identity = common + "|" + model_identity;
      for (const auto& [k, v] : p.overrides) identity += "|" + k + "=" + v;
      p.id = sha256Hex(reinterpret_cast<const uint8_t*>(identity.data()), identity.size())
                 .substr(0, 16);
      points.push_back(std::move(p));
    } while (next());
  }
  return points;
}

}  // namespace hilsim::sweep
