#include "text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace hilsim::config::detail {
namespace {

bool isDigits(const std::string& s, size_t begin, size_t end, bool hex) {
  if (begin >= end) return false;
  for (size_t i = begin; i < end; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (!(hex ? std::isxdigit(c) : std::isdigit(c))) return false;
  }
  return true;
}

}  // namespace

ParseStatus parseInteger(const std::string& text, int64_t& out) {
  size_t pos = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) pos = 1;
  const bool hex =
      text.size() > pos + 1 && text[pos] == '0' && (text[pos + 1] == 'x' || text[pos + 1] == 'X');
  if (hex) pos += 2;
  if (!isDigits(text, pos, text.size(), hex)) return ParseStatus::kBadSyntax;

  // Accumulate the magnitude in 64 unsigned bits so that INT64_MIN still parses.
  uint64_t magnitude = 0;
  const auto [end, ec] =
      std::from_chars(text.data() + pos, text.data() + text.size(), magnitude, hex ? 16 : 10);
  if (ec == std::errc::result_out_of_range) return ParseStatus::kOverflow;
  if (ec != std::errc() || end != text.data() + text.size()) return ParseStatus::kBadSyntax;
  constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (magnitude > kMax + (negative ? 1 : 0)) return ParseStatus::kOverflow;
  out = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  return ParseStatus::kOk;
}

ParseStatus parseNumber(const std::string& text, double& out) {
  // Validate the YAML float shape first: from_chars alone would accept "inf", "nan" and hex.
  size_t pos = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  const size_t mantissa_begin = pos;
  size_t digits = 0;
  while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos, ++digits;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])))
      ++pos, ++digits;
  }
  if (digits == 0) return ParseStatus::kBadSyntax;
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    ++pos;
    if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) ++pos;
    const size_t exponent_begin = pos;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos == exponent_begin) return ParseStatus::kBadSyntax;
  }
  if (pos != text.size()) return ParseStatus::kBadSyntax;

  double value = 0.0;
  const char* first = text.data() + mantissa_begin;
  const auto [end, ec] = std::from_chars(first, text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) {
    // Underflow rounds to zero; only overflow is an error.
    const size_t e = text.find_first_of("eE");
    if (e != std::string::npos && text.find('-', e) != std::string::npos) {
      out = 0.0;
      return ParseStatus::kOk;
    }
    return ParseStatus::kOverflow;
  }
  if (ec != std::errc() || end != text.data() + text.size()) return ParseStatus::kBadSyntax;
  if (!std::isfinite(value)) return ParseStatus::kOverflow;
  out = text[0] == '-' ? -value : value;
  return ParseStatus::kOk;
}

std::optional<bool> parseBool(const std::string& text) {
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  return std::nullopt;
}

std::string formatNumber(double value) {
  char buffer[64];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  std::string text(buffer, ec == std::errc() ? end : buffer);
  if (text.find_first_of(".eEni") == std::string::npos) text += ".0";
  return text;
}

size_t editDistance(const std::string& a, const std::string& b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

namespace {
constexpr size_t kMostEditsToSuggest = 3;
}  // namespace

size_t suggestionDistance(const std::string& a, const std::string& b) {
  const size_t gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  return gap > kMostEditsToSuggest ? gap : editDistance(a, b);
}

bool closeEnough(size_t distance, size_t length) {
  return distance <= std::max<size_t>(1, std::min(kMostEditsToSuggest, length / 3));
}

std::optional<std::string> nearest(const std::string& word,
                                   const std::vector<std::string>& candidates) {
  // Case differences cost nothing: "WS" suggests "ws".
  const auto lower = [](std::string s) {
    for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
  };
  std::optional<std::string> best;
  size_t best_distance = std::numeric_limits<size_t>::max();
  for (const std::string& c : candidates) {
    const size_t d = suggestionDistance(lower(word), lower(c));
    if (d < best_distance) best_distance = d, best = c;
  }
  if (!best || !closeEnough(best_distance, word.size())) return std::nullopt;
  return best;
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
  return out;
}

}  // namespace hilsim::config::detail
