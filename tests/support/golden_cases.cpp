#include "golden_cases.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <stdexcept>

namespace hilsim::test {

std::string sharedDir() { return HILSIM_SHARED_DIR; }

const std::vector<GoldenCase>& goldenCases() {
  static const std::vector<GoldenCase> cases = [] {
    namespace fs = std::filesystem;
    const fs::path root = fs::path(sharedDir()) / "golden";
    if (!fs::exists(root / "index.json"))
      throw std::runtime_error("golden cases missing: " + (root / "index.json").string());
    std::vector<GoldenCase> out;
    // index.json is JSON, which yaml-cpp reads as YAML.
    for (const YAML::Node& entry : YAML::LoadFile((root / "index.json").string())) {
      GoldenCase c;
      c.name = entry["case"].as<std::string>();
      c.dir = (root / c.name).string();
      c.model = (root / c.name / "model.tflite").string();
      const YAML::Node meta = YAML::LoadFile((root / c.name / "meta.json").string());
      for (const YAML::Node& v : meta["vectors"]) {
        GoldenVector gv;
        gv.input = (root / c.name / v["input"].as<std::string>()).string();
        gv.expected = (root / c.name / v["expected"].as<std::string>()).string();
        if (v["frames"]) gv.frames = v["frames"].as<int>();
        c.vectors.push_back(gv);
      }
      out.push_back(std::move(c));
    }
    if (out.empty()) throw std::runtime_error("golden/index.json lists no case");
    return out;
  }();
  return cases;
}

std::vector<std::string> goldenCaseNames() {
  std::vector<std::string> names;
  for (const GoldenCase& c : goldenCases()) names.push_back(c.name);
  return names;
}

const GoldenCase& goldenCase(const std::string& name) {
  for (const GoldenCase& c : goldenCases())
    if (c.name == name) return c;
  throw std::runtime_error("no golden case " + name);
}

}  // namespace hilsim::test
