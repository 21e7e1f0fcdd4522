#include "hilsim/report/json.h"

#include <cmath>
#include <cstdio>

namespace hilsim::report {

std::string JsonWriter::escape(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string jsonNumber(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

void JsonWriter::newline() {
  if (indent_ <= 0) return;
  out_ << '\n' << std::string(first_.size() * static_cast<size_t>(indent_), ' ');
}

void JsonWriter::beforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ << ',';
    first_.back() = false;
    newline();
  }
}

JsonWriter& JsonWriter::beginObject() {
  beforeValue();
  out_ << '{';
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
  const bool empty = first_.back();
  first_.pop_back();
  if (!empty) newline();
  out_ << bracket;
  return *this;
}

JsonWriter& JsonWriter::endObject() {
  return close('}');
}

JsonWriter& JsonWriter::beginArray() {
  beforeValue();
  out_ << '[';
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::endArray() {
  return close(']');
}

JsonWriter& JsonWriter::key(const std::string& name) {
  beforeValue();
  out_ << escape(name) << (indent_ > 0 ? ": " : ":");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(const std::string& v) {
  beforeValue();
  out_ << escape(v);
  return *this;
}

JsonWriter& JsonWriter::value(int64_t v) {
  beforeValue();
  out_ << v;
  return *this;
}

JsonWriter& JsonWriter::value(uint64_t v) {
  beforeValue();
  out_ << v;
  return *this;
}

JsonWriter& JsonWriter::value(double v) {
  beforeValue();
  out_ << jsonNumber(v);
  return *this;
}

JsonWriter& JsonWriter::value(bool v) {
  beforeValue();
  out_ << (v ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::null() {
  beforeValue();
  out_ << "null";
  return *this;
}

JsonWriter& JsonWriter::raw(const std::string& json) {
  beforeValue();
  out_ << json;
  return *this;
}

}  // namespace hilsim::report
