#include "xml_check.h"

#include <cctype>

namespace hilsim::test {
namespace {

bool nameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' || c == '.'; }

bool entityOk(const std::string& s, size_t amp, size_t* end) {
  const size_t semi = s.find(';', amp);
  if (semi == std::string::npos || semi - amp > 10) return false;
  const std::string e = s.substr(amp + 1, semi - amp - 1);
  *end = semi;
  if (e == "amp" || e == "lt" || e == "gt" || e == "quot" || e == "apos") return true;
  if (e.size() > 1 && e[0] == '#') return e.find_first_not_of("0123456789", 1) == std::string::npos ||
                                        (e[1] == 'x' && e.size() > 2);
  return false;
}

}  // namespace

XmlCheck checkXml(const std::string& s) {
  XmlCheck r;
  std::vector<std::string> open;
  size_t i = 0;
  auto fail = [&](const std::string& what) {
    r.error = what + " at byte " + std::to_string(i);
    return r;
  };
  std::string text;
  bool in_text = false;
  while (i < s.size()) {
    if (s[i] != '<') {
      if (s[i] == '&') {
        size_t end = 0;
        if (!entityOk(s, i, &end)) return fail("bad entity");
        if (in_text) text += s.substr(i, end - i + 1);
        i = end + 1;
        continue;
      }
      if (open.empty() && !std::isspace(static_cast<unsigned char>(s[i]))) return fail("text outside the root");
      if (in_text) text += s[i];
      ++i;
      continue;
    }
    if (s.compare(i, 4, "<!--") == 0) {
      const size_t end = s.find("-->", i);
      if (end == std::string::npos) return fail("unclosed comment");
      i = end + 3;
      continue;
    }
    if (s.compare(i, 2, "<?") == 0) {
      const size_t end = s.find("?>", i);
      if (end == std::string::npos) return fail("unclosed declaration");
      i = end + 2;
      continue;
    }
    const bool closing = s.compare(i, 2, "</") == 0;
    size_t j = i + (closing ? 2 : 1);
    const size_t name_start = j;
    while (j < s.size() && nameChar(s[j])) ++j;
    const std::string name = s.substr(name_start, j - name_start);
    if (name.empty()) return fail("tag without a name");
    if (closing) {
      while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      if (j >= s.size() || s[j] != '>') return fail("bad closing tag");
      if (open.empty() || open.back() != name) return fail("</" + name + "> does not close the open tag");
      if (name == "text") {
        r.texts.push_back(text);
        in_text = false;
      }
      open.pop_back();
      i = j + 1;
      continue;
    }
    // Attributes.
    bool self_closing = false;
    while (true) {
      while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      if (j >= s.size()) return fail("unclosed tag");
      if (s[j] == '>') break;
      if (s.compare(j, 2, "/>") == 0) {
        self_closing = true;
        ++j;
        break;
      }
      const size_t a = j;
      while (j < s.size() && nameChar(s[j])) ++j;
      if (j == a) return fail("bad attribute name");
      if (j >= s.size() || s[j] != '=') return fail("attribute without a value");
      ++j;
      if (j >= s.size() || (s[j] != '"' && s[j] != '\'')) return fail("unquoted attribute");
      const char q = s[j];
      const size_t close = s.find(q, j + 1);
      if (close == std::string::npos) return fail("unterminated attribute");
      if (s.find('<', j + 1) < close) return fail("'<' in an attribute");
      j = close + 1;
    }
    if (open.empty() && !r.root.empty()) return fail("a second root element");
    if (r.root.empty()) r.root = name;
    if (!self_closing) {
      open.push_back(name);
      if (name == "text") {
        in_text = true;
        text.clear();
      }
    }
    i = j + 1;
  }
  if (!open.empty()) return fail("<" + open.back() + "> is never closed");
  if (r.root.empty()) return fail("no element");
  r.ok = true;
  return r;
}

}  // namespace hilsim::test
