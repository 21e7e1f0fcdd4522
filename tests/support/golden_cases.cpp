#include "golden_cases.h"
#include "json_file.h"

#include <filesystem>
#include <stdexcept>

namespace hilsim::test {

std::string sharedDir() {
  return HILSIM_SHARED_DIR;
}

const std::vector<GoldenCase>& goldenCases() {
  static const std::vector<GoldenCase> cases = [] {
    namespace fs = std::filesystem;
    const fs::path root = fs::path(sharedDir()) / "golden";
    if (!fs::exists(root / "index.json"))
      throw std::runtime_error("golden cases missing: " + (root / "index.json").string());
    std::vector<GoldenCase> out;
    for (const JsonDoc& entry : readJsonFile((root / "index.json").string())) {
      GoldenCase c;
      c.name = entry.at("case").get<std::string>();
      c.dir = (root / c.name).string();
      c.model = (root / c.name / "model.tflite").string();
      const JsonDoc meta = readJsonFile((root / c.name / "meta.json").string());
      for (const JsonDoc& v : meta.at("vectors")) {
        GoldenVector gv;
        gv.input = (root / c.name / v.at("input").get<std::string>()).string();
        gv.expected = (root / c.name / v.at("expected").get<std::string>()).string();
        if (v.contains("frames")) gv.frames = v.at("frames").get<int>();
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

std::vector<std::string> goldenModes(const std::string& name) {
  constexpr std::uintmax_t kLargeModelBytes = 1u << 20;
  if (std::filesystem::file_size(goldenCase(name).model) > kLargeModelBytes)
    return {"accel", "auto", "compare"};
  return {"ref", "accel", "auto", "compare"};
}

}  // namespace hilsim::test
