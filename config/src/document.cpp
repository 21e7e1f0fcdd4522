#include "hilsim/config/document.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <sstream>

#include "hilsim/errors.h"
#include "yaml_documents.h"

namespace hilsim::config {

// Alias expansion can turn a few lines into billions of values; no config or spec needs this many.
constexpr size_t kMaxNodes = 200000;

struct NodeBuilder {
  size_t budget = kMaxNodes;
  bool exhausted = false;

  Node build(const YAML::Node& y) {
    Node n;
    if (budget == 0) {
      exhausted = true;
      return n;
    }
    --budget;
    n.line_ = y.Mark().is_null() ? 0 : y.Mark().line + 1;
    switch (y.Type()) {
      case YAML::NodeType::Scalar:
        n.kind_ = Node::Kind::kScalar;
        n.scalar_ = y.Scalar();
        n.quoted_ = y.Tag() == "!" || y.Tag() == "tag:yaml.org,2002:str";
        break;
      case YAML::NodeType::Sequence:
        n.kind_ = Node::Kind::kSequence;
        for (const YAML::Node& item : y) {
          n.items_.push_back(build(item));
          if (exhausted) break;
        }
        break;
      case YAML::NodeType::Map:
        n.kind_ = Node::Kind::kMapping;
        for (const auto& entry : y) {
          Node key = build(entry.first);
          n.entries_.emplace_back(std::move(key), build(entry.second));
          if (exhausted) break;
        }
        break;
      default:
        break;
    }
    return n;
  }
};

namespace {

// yaml-cpp's message for its nesting guard says "bad file"; say what is wrong.
std::string yamlProblem(const YAML::Exception& e) {
  if (dynamic_cast<const YAML::DeepRecursion*>(&e)) return "nested too deeply";
  return e.msg;
}

std::string located(const std::string& name, int line, const std::string& message) {
  return (line > 0 ? name + ":" + std::to_string(line) : name) + ": " + message;
}

}  // namespace

const Node* Node::find(const std::string& key) const {
  for (const auto& [k, v] : entries_)
    if (k.isScalar() && k.scalar() == key) return &v;
  return nullptr;
}

std::string Node::describe() const {
  switch (kind_) {
    case Kind::kMapping:
      return "a mapping";
    case Kind::kSequence:
      return "a list";
    case Kind::kScalar:
      return "'" + scalar_ + "'";
    case Kind::kNull:
      break;
  }
  return "no value (null)";
}

Document parseYaml(const std::string& text, const std::string& name) {
  YAML::Node root;
  try {
    const detail::DocumentScan scan = detail::scanDocuments(text, 3);
    if (scan.stuck) {
      const YAML::Mark& at = scan.starts.back();
      const size_t pos = static_cast<size_t>(at.pos);
      const bool printable = pos < text.size() && text[pos] > ' ' && text[pos] < 127;
      throw ConfigError(located(
          name, at.line + 1,
          "YAML syntax error: unexpected " +
              (printable ? "'" + std::string(1, text[pos]) + "'" : std::string("character")) +
              " at column " + std::to_string(at.column + 1)));
    }
    if (scan.starts.size() > 1)
      throw ConfigError(located(name, scan.starts[1].line + 1,
                                "more than one YAML document (a config file holds one mapping)"));
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(located(name, e.mark.is_null() ? 0 : e.mark.line + 1,
                              "YAML syntax error: " + yamlProblem(e)));
  }
  Document doc;
  doc.name = name;
  NodeBuilder builder;
  doc.root = builder.build(root);
  if (builder.exhausted)
    throw ConfigError(located(
        name, 0,
        "more than " + std::to_string(kMaxNodes) + " values (an alias expanded too often?)"));
  return doc;
}

Document parseYamlFile(const std::string& path, const std::string& shown) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw ConfigError(shown + ": cannot read the file");
  return parseYaml(text.str(), shown);
}

Node parseYamlValue(const std::string& text) {
  YAML::Node value;
  try {
    value = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError("YAML syntax error in the value: " + yamlProblem(e));
  }
  NodeBuilder builder;
  Node n = builder.build(value);
  if (builder.exhausted) throw ConfigError("the value holds too many values");
  return n;
}

void failAt(const Document& doc, const Node& at, const std::string& message) {
  throw ConfigError(located(doc.name, at.line(), message));
}

}  // namespace hilsim::config
