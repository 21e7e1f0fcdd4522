#include "hilsim/base/json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace hilsim {
namespace {

class JsonText {
 public:
  explicit JsonText(const JsonLayout& layout) : layout_(layout) {}

  void value(const Json& v) {
    switch (v.type()) {
      case Json::value_t::object:
        container(v, '{', '}');
        break;
      case Json::value_t::array:
        container(v, '[', ']');
        break;
      case Json::value_t::number_float: {
        const double number = v.get<double>();
        out_ += std::isfinite(number) ? layout_.number(number, path_) : "null";
        break;
      }
      case Json::value_t::string:
        string(v.get_ref<const std::string&>());
        break;
      case Json::value_t::number_integer:
        out_ += std::to_string(v.get<int64_t>());
        break;
      case Json::value_t::number_unsigned:
        out_ += std::to_string(v.get<uint64_t>());
        break;
      case Json::value_t::boolean:
        out_ += v.get<bool>() ? "true" : "false";
        break;
      case Json::value_t::null:
        out_ += "null";
        break;
      default:
        out_ += v.dump();
    }
  }

  std::string take() { return std::move(out_); }

 private:
  void container(const Json& v, char open, char close) {
    out_ += open;
    if (v.empty()) {
      out_ += close;
      return;
    }
    ++depth_;
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (!first) out_ += ',';
      first = false;
      separate();
      if (v.is_object()) {
        string(it.key());
        out_ += ": ";
        path_.push_back(it.key());
        value(it.value());
        path_.pop_back();
      } else {
        value(*it);
      }
    }
    --depth_;
    if (layout_.indent > 0) newline();
    out_ += close;
  }

  // Text that needs no escaping (printable ASCII without quotes and backslashes) is copied; the
  // rest is escaped by nlohmann/json.
  void string(const std::string& text) {
    const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
      return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
    });
    if (plain) {
      out_ += '"';
      out_ += text;
      out_ += '"';
    } else {
      out_ += Json(text).dump(-1, ' ', false, Json::error_handler_t::replace);
    }
  }

  // Before a member or element: a new line, or a space after the comma on one line.
  void separate() {
    if (layout_.indent > 0)
      newline();
    else if (out_.back() == ',')
      out_ += ' ';
  }

  void newline() {
    out_ += '\n';
    out_.append(static_cast<size_t>(depth_ * layout_.indent), ' ');
  }

  const JsonLayout& layout_;
  std::string out_;
  JsonPath path_;
  int depth_ = 0;
};

}  // namespace

std::string shortestNumber(double value) {
  char text[32];
  const std::to_chars_result r = std::to_chars(text, text + sizeof text, value);
  return std::string(text, r.ptr);
}

std::string formatJson(const Json& value, const JsonLayout& layout) {
  JsonText text(layout);
  text.value(value);
  return text.take();
}

void writeJsonWithArray(const Json& doc, const JsonLayout& layout, std::string_view placeholder,
                        const std::function<void(const JsonEmit&)>& elements,
                        const JsonWrite& write) {
  const std::string text = formatJson(doc, layout);
  const std::string quoted = formatJson(Json(std::string(placeholder)));
  const size_t at = text.find(": " + quoted);
  if (at == std::string::npos)
    throw std::logic_error("writeJsonWithArray: no member holds the placeholder");
  const size_t value_at = at + 2;
  // The member's depth: the spaces that start its line.
  const size_t line_start =
      text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
  const size_t member_indent = text.find_first_not_of(' ', line_start) - line_start;
  const int indent = layout.indent;
  const std::string element_indent(member_indent + static_cast<size_t>(std::max(indent, 0)), ' ');
  write(std::string_view(text).substr(0, value_at));
  write("[");
  bool first = true;
  elements([&](std::string_view formatted) {
    std::string piece = first ? "" : ",";
    if (indent > 0)
      piece += "\n" + element_indent;
    else if (!first)
      piece += ' ';
    first = false;
    // Raw newlines in formatted JSON are all layout (strings escape theirs): indent each line.
    for (char c : formatted) {
      piece += c;
      if (c == '\n' && indent > 0) piece += element_indent;
    }
    write(piece);
  });
  if (!first && indent > 0) write("\n" + std::string(member_indent, ' '));
  write("]");
  write(std::string_view(text).substr(value_at + quoted.size()));
}

}  // namespace hilsim
