#pragma once
// The golden cases of ../shared/golden, read from their meta.json files.

#include <cstdint>
#include <string>
#include <vector>

namespace hilsim::test {

struct GoldenVector {
  std::string input;     // absolute path
  std::string expected;  // absolute path
  int frames = 1;
};

struct GoldenCase {
  std::string name;
  std::string dir;
  std::string model;  // absolute path of model.tflite
  std::vector<GoldenVector> vectors;
};

std::string sharedDir();
// Every case listed in golden/index.json. Throws if ../shared is missing (tests must fail).
const std::vector<GoldenCase>& goldenCases();
// Names of the cases, for parameterized tests.
std::vector<std::string> goldenCaseNames();
const GoldenCase& goldenCase(const std::string& name);

}  // namespace hilsim::test
