// Every vector of every golden case through the runtime's reference kernels, compared byte for
// byte with TensorFlow Lite Micro's outputs. When a case differs, the per-tensor dumps of its
// first vector (tensors/) name the first operator whose output differs.

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "files.h"
#include "golden_cases.h"
#include "hilsim/rt/interpreter.h"

namespace hilsim::test {
namespace {

// index -> dump file of tensors/tensors.tsv (empty if the case has none).
std::map<int, std::string> tensorDumps(const GoldenCase& gc) {
  std::map<int, std::string> dumps;
  const std::string dir = gc.dir + "/tensors/";
  std::ifstream tsv(dir + "tensors.tsv");
  std::string line;
  std::getline(tsv, line);  // header
  while (std::getline(tsv, line)) {
    std::istringstream fields(line);
    std::string index, name, type, shape, bytes, file;
    if (std::getline(fields, index, '\t') && std::getline(fields, name, '\t') &&
        std::getline(fields, type, '\t') && std::getline(fields, shape, '\t') &&
        std::getline(fields, bytes, '\t') && std::getline(fields, file, '\t'))
      dumps[std::stoi(index)] = dir + file;
  }
  return dumps;
}

std::string compareBytes(const uint8_t* got, const std::vector<uint8_t>& want, size_t size) {
  if (size != want.size())
    return "size " + std::to_string(size) + " instead of " + std::to_string(want.size());
  size_t differ = 0, first = size;
  for (size_t i = 0; i < size; ++i)
    if (got[i] != want[i]) {
      ++differ;
      first = std::min(first, i);
    }
  if (differ == 0) return "";
  return std::to_string(differ) + " of " + std::to_string(size) + " bytes differ, first at byte " +
         std::to_string(first) + " (got " + std::to_string(got[first]) + ", TFLM " +
         std::to_string(want[first]) + ")";
}

// Checks every operator's outputs against the dumps right after it runs.
class DumpChecker final : public rt::Profiler {
 public:
  explicit DumpChecker(std::map<int, std::string> dumps) : dumps_(std::move(dumps)) {}
  void observe(const rt::Interpreter* interp) { interp_ = interp; }
  void endLayer(const rt::LayerRecord& rec) override {
    if (!first_difference.empty() || !interp_) return;
    const rt::Node& node = interp_->nodes()[static_cast<size_t>(rec.index)];
    for (const rt::Tensor* t : node.outputs) {
      const auto it = dumps_.find(t->index);
      if (it == dumps_.end()) continue;
      const std::string diff = compareBytes(t->data, readFile(it->second), t->bytes);
      if (!diff.empty() && first_difference.empty())
        first_difference = "operator " + std::to_string(rec.index) + " (" + rt::opName(rec.op) +
                           ") output tensor " + std::to_string(t->index) + " '" + t->name +
                           "': " + diff;
    }
  }
  std::string first_difference;

 private:
  const rt::Interpreter* interp_ = nullptr;
  std::map<int, std::string> dumps_;
};

// Runs the first vector once and names the first operator whose output differs from the dump.
std::string firstDifferingLayer(const GoldenCase& gc) {
  const std::map<int, std::string> dumps = tensorDumps(gc);
  if (dumps.empty()) return "the case has no tensor dumps";
  rt::Model model = rt::Model::fromFile(gc.model);
  const rt::OpResolver resolver = rt::referenceOpResolver();
  DumpChecker checker(dumps);
  rt::InterpreterOptions options;
  options.profiler = &checker;
  rt::Interpreter interp(model, resolver, options);
  checker.observe(&interp);
  interp.allocate();
  const std::vector<uint8_t> input = readFile(gc.vectors.front().input);
  rt::Tensor& in = interp.input(0);
  if (input.size() < in.bytes) return "input too short";
  std::memcpy(in.data, input.data(), in.bytes);
  interp.invoke();
  if (!checker.first_difference.empty()) return checker.first_difference;
  for (const rt::Tensor& t : interp.tensors()) {  // variable state after the invocation
    const auto it = dumps.find(t.index);
    if (it == dumps.end() || !t.is_variable || !t.data) continue;
    const std::string diff = compareBytes(t.data, readFile(it->second), t.bytes);
    if (!diff.empty()) return "variable tensor " + std::to_string(t.index) + ": " + diff;
  }
  return "every dumped tensor matches";
}

class RuntimeGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(RuntimeGolden, ReferenceKernelsMatchTflmBytes) {
  const GoldenCase& gc = goldenCase(GetParam());
  bool differs = false;
  for (const GoldenVector& v : gc.vectors) {
    SCOPED_TRACE(v.input);
    rt::Model model = rt::Model::fromFile(gc.model);
    const rt::OpResolver resolver = rt::referenceOpResolver();
    rt::Interpreter interp(model, resolver);
    interp.allocate();
    const std::vector<uint8_t> input = readFile(v.input);
    const std::vector<uint8_t> expected = readFile(v.expected);
    rt::Tensor& in = interp.input(0);
    rt::Tensor& out = interp.output(0);
    ASSERT_EQ(input.size(), in.bytes * static_cast<size_t>(v.frames));
    ASSERT_EQ(expected.size(), out.bytes * static_cast<size_t>(v.frames));
    std::vector<uint8_t> got;
    for (int f = 0; f < v.frames; ++f) {
      std::memcpy(in.data, input.data() + f * in.bytes, in.bytes);
      interp.invoke();
      got.insert(got.end(), out.data, out.data + out.bytes);
    }
    const std::string diff = compareBytes(got.data(), expected, got.size());
    EXPECT_EQ(diff, "");
    differs |= !diff.empty();
  }
  if (differs)
    ADD_FAILURE() << "first difference from the tensor dumps: " << firstDifferingLayer(gc);
}

INSTANTIATE_TEST_SUITE_P(Golden, RuntimeGolden, ::testing::ValuesIn(goldenCaseNames()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace hilsim::test
