#include "json_file.h"

#include <stdexcept>

#include "files.h"

namespace hilsim::test {

JsonDoc readJsonFile(const std::string& path) {
  const std::vector<uint8_t> bytes = readFile(path);
  return parseJson(std::string(bytes.begin(), bytes.end()), path);
}

JsonDoc parseJson(const std::string& text, const std::string& what) {
  try {
    return JsonDoc::parse(text);
  } catch (const JsonDoc::parse_error& e) {
    throw std::runtime_error(what + " is not JSON: " + e.what());
  }
}

}  // namespace hilsim::test
