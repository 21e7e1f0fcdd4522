// The JSON text hilsim writes: nlohmann's layout and escaping, numbers as the writer chooses.

#include "hilsim/base/json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace hilsim {
namespace {

TEST(Json, IndentedLayoutIsNlohmannsWithoutFloats) {
  const Json doc = {{"name", "m"},
                    {"empty_object", Json::object()},
                    {"empty_array", Json::array()},
                    {"shape", {1, 28, 28, 3}},
                    {"nested", {{"b", true}, {"n", nullptr}, {"i", -7}, {"u", uint64_t{1} << 63}}}};
  EXPECT_EQ(formatJson(doc), doc.dump(1));
  EXPECT_EQ(formatJson(doc, {2}), doc.dump(2));
  EXPECT_EQ(formatJson(doc),
            "{\n \"name\": \"m\",\n \"empty_object\": {},\n \"empty_array\": [],\n \"shape\": [\n"
            "  1,\n  28,\n  28,\n  3\n ],\n \"nested\": {\n  \"b\": true,\n  \"n\": null,\n"
            "  \"i\": -7,\n  \"u\": 9223372036854775808\n }\n}");
}

TEST(Json, OneLineLayoutSeparatesWithCommaSpaceAndKeepsMemberOrder) {
  const Json event = {{"ph", "X"}, {"pid", 1}, {"args", {{"z", 1}, {"a", "b"}}}, {"list", {1, 2}}};
  EXPECT_EQ(formatJson(event, {0}),
            R"({"ph": "X", "pid": 1, "args": {"z": 1, "a": "b"}, "list": [1, 2]})");
  EXPECT_EQ(formatJson(Json::object(), {0}), "{}");
  EXPECT_EQ(formatJson(Json::array(), {0}), "[]");
}

TEST(Json, FloatsAreTheShortestTextThatReadsBackExactly) {
  EXPECT_EQ(shortestNumber(2.0), "2");
  EXPECT_EQ(shortestNumber(0.1), "0.1");
  EXPECT_EQ(shortestNumber(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(shortestNumber(123456789012.0), "123456789012");
  EXPECT_EQ(shortestNumber(1e-7), "1e-07");
  const Json doc = {{"a", 2.0}, {"b", 0.25}, {"c", 1.0 / 3.0}};
  EXPECT_EQ(formatJson(doc, {0}), R"({"a": 2, "b": 0.25, "c": 0.3333333333333333})");
  // Every double reads back as itself, as a JSON parser reads it.
  uint64_t state = 1;
  for (int i = 0; i < 100000; ++i) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    double value;
    const uint64_t bits = (state >> 2) & 0x7fefffffffffffffu;  // finite, non-negative
    std::memcpy(&value, &bits, sizeof value);
    const std::string text = formatJson(Json(value));
    ASSERT_EQ(Json::parse(text).get<double>(), value) << text;
  }
}

TEST(Json, NonFiniteNumbersAreNull) {
  const Json doc = {std::numeric_limits<double>::infinity(), std::nan("")};
  EXPECT_EQ(formatJson(doc, {0}), "[null, null]");
}

TEST(Json, NumberTextSeesThePathOfMemberNames) {
  const Json doc = {{"config", {{"clock_mhz", 400.0}}}, {"rows", {{{"x", 1.5}}}}, {"top", 2.0}};
  JsonLayout layout{0};
  std::vector<std::string> seen;
  layout.number = [&seen](double v, const JsonPath& path) {
    std::string joined;
    for (std::string_view p : path) joined += (joined.empty() ? "" : ".") + std::string(p);
    seen.push_back(joined);
    return joined == "config.clock_mhz" ? std::string("400.0") : shortestNumber(v);
  };
  EXPECT_EQ(formatJson(doc, layout),
            R"({"config": {"clock_mhz": 400.0}, "rows": [{"x": 1.5}], "top": 2})");
  EXPECT_EQ(seen, (std::vector<std::string>{"config.clock_mhz", "rows.x", "top"}));
}

TEST(Json, StringsAreEscapedAndInvalidUtf8Replaced) {
  const Json doc = {{"k\"ey", std::string("a\"b\\c\n\t\x01\x7f\xc3\xa9")}};
  EXPECT_EQ(formatJson(doc, {0}), "{\"k\\\"ey\": \"a\\\"b\\\\c\\n\\t\\u0001\x7f\xc3\xa9\"}");
  EXPECT_EQ(formatJson(Json(std::string("x\xff")), {0}), "\"x\xef\xbf\xbd\"");
  // What it writes reads back as the same document.
  const Json parsed = Json::parse(formatJson(doc));
  EXPECT_EQ(parsed, doc);
}

// A document written with its array streamed is the text of the document holding the array, at
// any indent, nested or at the top, empty or not.
TEST(Json, StreamedArrayGivesTheSameTextAsTheWholeDocument) {
  const std::vector<Json> elements = {Json{{"a", 1}, {"b", {1.5, "x\ny"}}}, Json(2), Json::array(),
                                      Json{{"c", Json::object()}}};
  for (int indent : {0, 1, 2})
    for (size_t count : {size_t{0}, size_t{1}, elements.size()}) {
      Json whole = {{"head", 1}, {"inner", {{"rows", Json::array()}, {"after", true}}}, {"z", 0}};
      for (size_t i = 0; i < count; ++i) whole["inner"]["rows"].push_back(elements[i]);
      Json doc = whole;
      doc["inner"]["rows"] = "@rows@";
      JsonLayout layout;
      layout.indent = indent;
      std::string text;
      writeJsonWithArray(
          doc, layout, "@rows@",
          [&](const JsonEmit& emit) {
            for (size_t i = 0; i < count; ++i) emit(formatJson(elements[i], layout));
          },
          [&text](std::string_view piece) { text += piece; });
      EXPECT_EQ(text, formatJson(whole, layout)) << "indent " << indent << ", " << count;
    }
  EXPECT_THROW(writeJsonWithArray(
                   Json{{"a", 1}}, {}, "@rows@", [](const JsonEmit&) {}, [](std::string_view) {}),
               std::logic_error);
}

}  // namespace
}  // namespace hilsim
