#pragma once
// Parsers for values given as text (command-line options, spec fields); errors name `what`.

#include <cstdint>
#include <string>
#include <vector>

namespace hilsim {

// A non-negative decimal integer. Throws UsageError("<what>: ...").
uint64_t parseUnsigned(const std::string& what, const std::string& text);
// One of `choices`, returned as given. Throws UsageError("<what>: '<text>' is not one of a|b").
std::string parseChoice(const std::string& what, const std::string& text,
                        const std::vector<std::string>& choices);

}  // namespace hilsim
