#include "sweep_spec.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "args.h"
#include "hilsim/config/loader.h"
#include "hilsim/errors.h"
#include "io.h"
#include "sha256.h"

namespace hilsim::cli {
namespace {

namespace fs = std::filesystem;

class SpecReader {
 public:
  explicit SpecReader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& what) const {
    const YAML::Mark mark = node.Mark();
    throw UsageError(path_ + (mark.line >= 0 ? ":" + std::to_string(mark.line + 1) : "") + ": " +
                     what);
  }
  void keysOf(const YAML::Node& node, const std::string& where,
              const std::vector<std::string>& allowed) const {
    if (!node.IsMap()) fail(node, where + " must be a mapping");
    for (const auto& kv : node) {
      const std::string key = kv.first.as<std::string>();
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        std::string list;
        for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(kv.first, "unknown key '" + key + "' in " + where + " (valid: " + list + ")");
      }
    }
  }
  std::string scalar(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) fail(node, key + " must be a single value");
    return node.as<std::string>();
  }
  uint64_t number(const YAML::Node& node, const std::string& key) const {
    return parseUnsigned(path_ + ":" + std::to_string(node.Mark().line + 1) + ": " + key,
                         scalar(node, key));
  }
  std::vector<std::string> list(const YAML::Node& node, const std::string& key) const {
    if (!node.IsSequence() || node.size() == 0)
      fail(node, key + " must be a non-empty list of values");
    std::vector<std::string> out;
    for (const YAML::Node& v : node) out.push_back(scalar(v, key));
    return out;
  }
  std::string resolve(const std::string& p) const {
    const fs::path path(p);
    return (path.is_absolute() ? path : fs::absolute(fs::path(path_).parent_path() / path))
        .lexically_normal()
        .string();
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

SweepModel readModel(const SpecReader& r, const YAML::Node& node, size_t index) {
  r.keysOf(node, "a model",
           {"name", "file", "layers", "batch", "dtype", "weights", "activation", "seed"});
  SweepModel m;
  if (node["file"]) {
    if (node["layers"]) r.fail(node, "a model has either file or layers, not both");
    m.file = r.resolve(r.scalar(node["file"], "file"));
    if (!fs::exists(m.file)) r.fail(node["file"], "model file '" + m.file + "' not found");
    m.name = fs::path(m.file).stem().string();
  } else if (node["layers"]) {
    const std::string where = r.path() + ":" + std::to_string(node["layers"].Mark().line + 1) + ": layers";
    m.gen.layers = parseLayerList(where, r.scalar(node["layers"], "layers"));
    if (node["batch"]) m.gen.batch = static_cast<uint32_t>(r.number(node["batch"], "batch"));
    if (node["dtype"])
      m.gen.float32 = parseChoice("dtype", r.scalar(node["dtype"], "dtype"), {"int8", "float32"}) == "float32";
    if (node["weights"])
      m.gen.per_channel = parseChoice("weights", r.scalar(node["weights"], "weights"),
                                      {"per-tensor", "per-channel"}) == "per-channel";
    if (node["activation"])
      m.gen.activation = parseChoice("activation", r.scalar(node["activation"], "activation"),
                                     {"none", "relu", "relu6"});
    if (node["seed"]) m.gen.seed = r.number(node["seed"], "seed");
    std::string shape;
    for (uint32_t l : m.gen.layers) shape += (shape.empty() ? "mlp" : "-") + std::to_string(l);
    m.name = shape;
  } else {
    r.fail(node, "model " + std::to_string(index) + " needs file or layers");
  }
  if (node["name"]) m.name = r.scalar(node["name"], "name");
  return m;
}

std::vector<std::pair<std::string, std::vector<std::string>>> readKeyLists(
    const SpecReader& r, const YAML::Node& node, const std::string& where) {
  if (!node.IsMap()) r.fail(node, where + " must map config keys to lists of values");
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const auto& kv : node) out.emplace_back(kv.first.as<std::string>(), r.list(kv.second, kv.first.as<std::string>()));
  return out;
}

PlotSpec readPlot(const SpecReader& r, const YAML::Node& node, const SweepSpec& spec) {
  r.keysOf(node, "a plot", {"name", "kind", "x", "y", "series", "model", "where", "log_y"});
  PlotSpec p;
  if (!node["name"]) r.fail(node, "a plot needs a name");
  p.name = r.scalar(node["name"], "name");
  if (p.name.find_first_of("/\\ ") != std::string::npos) r.fail(node["name"], "plot name '" + p.name + "' must be a plain file name");
  if (node["kind"]) p.kind = r.scalar(node["kind"], "kind");
  if (p.kind != "line" && p.kind != "stacked")
    r.fail(node["kind"], "plot kind '" + p.kind + "' is not one of line|stacked");
  const std::vector<std::string> keys = variedKeys(spec);
  auto varied = [&](const YAML::Node& n, const std::string& what) {
    const std::string key = r.scalar(n, what);
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      r.fail(n, what + " '" + key + "' is not a key the sweep varies");
    return key;
  };
  if (p.kind == "line") {
    if (!node["x"]) r.fail(node, "a line plot needs x (a varied config key)");
    p.x = varied(node["x"], "x");
    if (node["y"]) p.y = r.scalar(node["y"], "y");
    const auto& metrics = totalsMetrics();
    if (std::find(metrics.begin(), metrics.end(), p.y) == metrics.end()) {
      std::string list;
      for (const std::string& m : metrics) list += (list.empty() ? "" : "|") + m;
      r.fail(node["y"], "y '" + p.y + "' is not one of " + list);
    }
    if (node["series"]) p.series = varied(node["series"], "series");
  }
  if (node["model"]) {
    p.model = r.scalar(node["model"], "model");
    if (std::none_of(spec.models.begin(), spec.models.end(),
                     [&](const SweepModel& m) { return m.name == p.model; }))
      r.fail(node["model"], "plot model '" + p.model + "' is not one of the sweep's models");
  }
  if (node["where"]) {
    if (!node["where"].IsMap()) r.fail(node["where"], "where must map varied keys to values");
    for (const auto& kv : node["where"]) p.where[varied(kv.first, "where key")] = r.scalar(kv.second, "where");
  }
  if (node["log_y"]) p.log_y = r.scalar(node["log_y"], "log_y") == "true";
  return p;
}

}  // namespace

const std::vector<std::string>& totalsMetrics() {
  static const std::vector<std::string> m = {"cycles",         "ref_cycles", "speedup",
                                             "accel_cycles",   "cpu_cycles", "seconds",
                                             "bus_stall_cycles", "bytes_moved"};
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
  SpecReader r(path);
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw UsageError("cannot read sweep spec '" + path + "'");
  } catch (const YAML::ParserException& e) {
    throw UsageError(path + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
  }
  r.keysOf(root, "the sweep spec", {"base_config", "models", "set", "grid", "zip", "run", "plots"});
  if (root["base_config"]) {
    spec.base_config = r.resolve(r.scalar(root["base_config"], "base_config"));
    if (!fs::exists(spec.base_config))
      r.fail(root["base_config"], "base_config '" + spec.base_config + "' not found");
  }
  if (!root["models"] || !root["models"].IsSequence() || root["models"].size() == 0)
    r.fail(root, "the sweep spec needs models: a list of files or gen-model shapes");
  std::set<std::string> names;
  for (size_t i = 0; i < root["models"].size(); ++i) {
    spec.models.push_back(readModel(r, root["models"][i], i));
    if (!names.insert(spec.models.back().name).second)
      r.fail(root["models"][i], "two models are named '" + spec.models.back().name + "'");
  }
  if (root["set"]) {
    if (!root["set"].IsMap()) r.fail(root["set"], "set must map config keys to values");
    for (const auto& kv : root["set"]) spec.set.emplace_back(kv.first.as<std::string>(), r.scalar(kv.second, kv.first.as<std::string>()));
  }
  if (root["grid"]) spec.grid = readKeyLists(r, root["grid"], "grid");
  if (root["zip"]) {
    if (!root["zip"].IsSequence()) r.fail(root["zip"], "zip must be a list of groups");
    for (const YAML::Node& group : root["zip"]) {
      spec.zips.push_back(readKeyLists(r, group, "a zip group"));
      for (const auto& [k, v] : spec.zips.back())
        if (v.size() != spec.zips.back().front().second.size())
          r.fail(group, "the lists of a zip group must have the same length ('" + k + "')");
    }
  }
  std::set<std::string> seen;
  for (const std::string& k : variedKeys(spec))
    if (!seen.insert(k).second) r.fail(root, "key '" + k + "' is varied twice");
  if (root["run"]) {
    const YAML::Node run = root["run"];
    r.keysOf(run, "run", {"mode", "invocations", "seed"});
    if (run["mode"]) spec.mode = parseChoice("run.mode", r.scalar(run["mode"], "mode"), {"auto", "accel", "ref", "compare"});
    if (run["invocations"]) spec.invocations = r.number(run["invocations"], "invocations");
    if (spec.invocations == 0) r.fail(run["invocations"], "invocations must be at least 1");
    if (run["seed"]) spec.seed = r.number(run["seed"], "seed");
  }
  if (root["plots"]) {
    if (!root["plots"].IsSequence()) r.fail(root["plots"], "plots must be a list");
    for (const YAML::Node& p : root["plots"]) spec.plots.push_back(readPlot(r, p, spec));
  }
  // Every point's config must load: catch a bad key or value now, not in the middle of a sweep.
  for (const SweepPoint& point : expandPoints(spec)) {
    std::vector<config::Override> overrides;
    for (const auto& [k, v] : point.overrides) overrides.push_back({k + "=" + v});
    try {
      (void)config::loadConfig(spec.base_config, overrides);
    } catch (const ConfigError& e) {
      throw UsageError(path + ": point " + point.model->name + " " + [&] {
        std::string text;
        for (const auto& [k, v] : point.values) text += (text.empty() ? "" : " ") + k + "=" + v;
        return text;
      }() + ": " + e.what());
    }
  }
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
        model.name + "|" + (model.generated() ? describe(model.gen) : fileHash(model.file));
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
      p.id = sha256Hex(reinterpret_cast<const uint8_t*>(identity.data()), identity.size()).substr(0, 16);
      points.push_back(std::move(p));
    } while (next());
  }
  return points;
}

}  // namespace hilsim::cli
