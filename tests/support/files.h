#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hilsim::test {

std::vector<uint8_t> readFile(const std::string& path);
void writeFile(const std::string& path, const std::vector<uint8_t>& bytes);
// A fresh empty directory under the build tree's test area.
std::string makeTempDir(const std::string& name);
// A fresh empty directory named after the running test (tests run in parallel processes).
std::string makeTestDir();

}  // namespace hilsim::test
