#pragma once
// A small XML well-formedness check for the SVG files hilsim writes: every tag closed in order,
// attributes quoted, only the five predefined entities and numeric references.

#include <string>
#include <vector>

namespace hilsim::test {

struct XmlCheck {
  bool ok = false;
  std::string error;
  std::string root;                 // name of the root element
  std::vector<std::string> texts;   // the character data of every <text> element
};

XmlCheck checkXml(const std::string& xml);

}  // namespace hilsim::test
