#pragma once
// A minimal streaming JSON writer (objects, arrays, strings, numbers, booleans) with indentation.

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace hilsim::report {

class JsonWriter {
 public:
  explicit JsonWriter(int indent = 1) : indent_(indent) {}

  JsonWriter& beginObject();
  JsonWriter& endObject();
  JsonWriter& beginArray();
  JsonWriter& endArray();
  // Starts a member of the current object; follow with a value or begin*.
  JsonWriter& key(const std::string& name);
  JsonWriter& value(const std::string& v);
  JsonWriter& value(const char* v) { return value(std::string(v)); }
  JsonWriter& value(int64_t v);
  JsonWriter& value(uint64_t v);
  JsonWriter& value(int v) { return value(static_cast<int64_t>(v)); }
  JsonWriter& value(uint32_t v) { return value(static_cast<uint64_t>(v)); }
  JsonWriter& value(double v);
  JsonWriter& value(bool v);
  JsonWriter& null();
  // Writes already-formatted JSON (a number or literal) as a value.
  JsonWriter& raw(const std::string& json);

  std::string str() const { return out_.str() + "\n"; }
  static std::string escape(const std::string& s);

 private:
  void beforeValue();
  JsonWriter& close(char bracket);
  void newline();

  std::ostringstream out_;
  int indent_;
  std::vector<bool> first_;  // per open container: no member written yet
  bool after_key_ = false;
};

// Formats a double the way JSON readers expect (no inf/nan: they become null).
std::string jsonNumber(double v);

}  // namespace hilsim::report
