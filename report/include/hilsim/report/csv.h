#pragma once
// Reading and writing RFC 4180 CSV (quoted fields may hold commas, quotes and newlines).

#include <string>
#include <vector>

namespace hilsim::report {

// Parses CSV text into rows of fields. Throws InputError naming `name` and the line on an
// unterminated quote.
std::vector<std::vector<std::string>> parseCsv(const std::string& text, const std::string& name);
// One field, quoted if needed.
std::string csvField(const std::string& field);
// A floating-point field: the shortest fixed-notation text that reads back as exactly `value`
// (never scientific, so a column has one notation; integral values have no decimal point).
// Empty for infinities and NaN.
std::string csvNumber(double value);

}  // namespace hilsim::report
