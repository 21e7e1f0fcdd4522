// Every vector of every golden case through the runtime's reference kernels, compared byte for
// byte with TensorFlow Lite Micro's outputs.

#include <gtest/gtest.h>

#include <cstring>

#include "files.h"
#include "golden_cases.h"
#include "hilsim/rt/interpreter.h"

namespace hilsim::test {
namespace {

class RuntimeGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(RuntimeGolden, ReferenceKernelsMatchTflmBytes) {
  const GoldenCase& gc = goldenCase(GetParam());
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
    size_t mismatches = 0, first = got.size();
    for (size_t i = 0; i < got.size(); ++i)
      if (got[i] != expected[i]) {
        ++mismatches;
        first = std::min(first, i);
      }
    EXPECT_EQ(mismatches, 0u) << "first differing byte at " << first << " of " << got.size();
  }
}

INSTANTIATE_TEST_SUITE_P(Golden, RuntimeGolden, ::testing::ValuesIn(goldenCaseNames()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace hilsim::test
