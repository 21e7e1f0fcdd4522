#pragma once
// JSON documents (nlohmann/json, members kept in the order they were added) and the text hilsim
// writes for them: nlohmann's layout and string escaping, with the text of floating-point numbers
// chosen by the writer, so each documented format keeps its numbers.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace hilsim {

using Json = nlohmann::ordered_json;

// The member names from a document's root to a value (array elements add none).
using JsonPath = std::vector<std::string_view>;
// The text of a finite floating-point number at `path`.
using JsonNumberText = std::function<std::string(double value, const JsonPath& path)>;

// The shortest text that reads back as exactly `value` (std::to_chars): integral values without a
// decimal point, the shorter of fixed and scientific notation (0.1 -> "0.1", 2.0 -> "2",
// 1.0/3 -> "0.3333333333333333", 1e15 -> "1e+15").
std::string shortestNumber(double value);

struct JsonLayout {
  // Spaces per nesting level, each member and element on its own line (nlohmann's dump(indent));
  // 0: the whole value on one line, ", " between members and elements, ": " after keys.
  int indent = 1;
  JsonNumberText number = [](double value, const JsonPath&) { return shortestNumber(value); };
};

// `value` as text, without a final newline. Integers are written in full, infinities and NaN as
// null. Strings are escaped as nlohmann/json does (\", \\, \b, \f, \n, \r, \t, other control
// characters as \u00XX, everything else as it is); bytes that are not UTF-8 become U+FFFD.
std::string formatJson(const Json& value, const JsonLayout& layout = {});

// Writes a document whose one array is too large to hold in memory, piece by piece through
// `write`: the text formatJson(doc, layout) gives once the member whose value is the string
// `placeholder` holds the array. `elements` calls its argument once per element, in order, with
// the element's text as formatJson formats it on its own (with the same indent); it is indented
// to its place as it is written. Throws std::logic_error when no member holds the placeholder.
using JsonWrite = std::function<void(std::string_view text)>;
using JsonEmit = std::function<void(std::string_view formatted_element)>;
void writeJsonWithArray(const Json& doc, const JsonLayout& layout, std::string_view placeholder,
                        const std::function<void(const JsonEmit&)>& elements,
                        const JsonWrite& write);

}  // namespace hilsim
