#include "hilsim/base/parse.h"

#include <stdexcept>

#include "hilsim/errors.h"

namespace hilsim {

uint64_t parseUnsigned(const std::string& what, const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw UsageError(what + ": expected a non-negative integer, got '" + text + "'");
  try {
    return std::stoull(text);
  } catch (const std::exception&) {
    throw UsageError(what + ": '" + text + "' is too large");
  }
}

std::string parseChoice(const std::string& what, const std::string& text,
                        const std::vector<std::string>& choices) {
  std::string all;
  for (const std::string& c : choices) {
    if (c == text) return text;
    all += (all.empty() ? "" : "|") + c;
  }
  throw UsageError(what + ": '" + text + "' is not one of " + all);
}

}  // namespace hilsim
