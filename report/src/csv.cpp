#include "hilsim/report/csv.h"

#include <charconv>
#include <cmath>

#include "hilsim/errors.h"

namespace hilsim::report {

std::vector<std::vector<std::string>> parseCsv(const std::string& text, const std::string& name) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, in_field = false;
  size_t line = 1, quote_line = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    switch (c) {
      case '"':
        quoted = true;
        quote_line = line;
        in_field = true;
        break;
      case ',':
        row.push_back(field);
        field.clear();
        in_field = true;
        break;
      case '\r':
        break;
      case '\n':
        row.push_back(field);
        rows.push_back(std::move(row));
        row.clear();
        field.clear();
        in_field = false;
        ++line;
        break;
      default:
        field += c;
        in_field = true;
    }
  }
  if (quoted)
    throw InputError(name + ":" + std::to_string(quote_line) + ": unterminated quoted field");
  if (in_field || !row.empty()) {
    row.push_back(field);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csvNumber(double value) {
  if (!std::isfinite(value)) return {};
  // Fixed notation of a double needs at most 309 integral and 1074 fractional digits.
  char buf[1100];
  const std::to_chars_result r =
      std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
  return std::string(buf, r.ptr);
}

}  // namespace hilsim::report
