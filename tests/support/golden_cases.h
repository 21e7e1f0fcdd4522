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
// The run modes an end-to-end golden test checks for a case: all four, except that a large model
// (over 1 MiB) leaves out ref, which compare covers: compare runs every layer's reference kernel
// and checks each accelerated layer against it before its bytes are checked against TFLite Micro.
std::vector<std::string> goldenModes(const std::string& name);

}  // namespace hilsim::test
