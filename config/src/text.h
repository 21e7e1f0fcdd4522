#pragma once
// Scalar parsing and formatting for config values, and the "did you mean" search.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hilsim::config::detail {

enum class ParseStatus { kOk, kBadSyntax, kOverflow };

// Decimal ("-12", "+4") or hexadecimal ("0x40") integer. Floats such as "4.0" are bad syntax.
ParseStatus parseInteger(const std::string& text, int64_t& out);
// A finite decimal number ("400", "0.6", "2.5e3"); ".inf" and ".nan" are bad syntax.
ParseStatus parseNumber(const std::string& text, double& out);
// YAML 1.2 core booleans: true/True/TRUE, false/False/FALSE.
std::optional<bool> parseBool(const std::string& text);

// The shortest text that reads back to the same double; always marked as a float ("400.0").
std::string formatNumber(double value);

// Restricted Damerau-Levenshtein distance (a swap of two neighbours counts as one edit).
size_t editDistance(const std::string& a, const std::string& b);
// editDistance where it could be close enough to suggest; otherwise a lower bound above that
// limit (the length difference), found without the quadratic table.
size_t suggestionDistance(const std::string& a, const std::string& b);
// Whether `distance` is small enough, for a name of `length` characters, to suggest.
bool closeEnough(size_t distance, size_t length);
// The candidate nearest to `word`, if close enough to suggest.
std::optional<std::string> nearest(const std::string& word,
                                   const std::vector<std::string>& candidates);

std::string join(const std::vector<std::string>& parts, const std::string& separator);

}  // namespace hilsim::config::detail
