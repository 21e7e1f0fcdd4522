#pragma once
// Reading the JSON hilsim writes, strictly (nlohmann/json): text that is not JSON fails the test.

#include <string>

#include <nlohmann/json.hpp>

namespace hilsim::test {

using JsonDoc = nlohmann::json;

// Parses the file at `path`; throws std::runtime_error naming it if it cannot be read or is not
// JSON.
JsonDoc readJsonFile(const std::string& path);
// Parses `text` (a command's output); throws std::runtime_error naming `what` if it is not JSON.
JsonDoc parseJson(const std::string& text, const std::string& what = "output");

}  // namespace hilsim::test
