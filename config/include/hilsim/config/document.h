#pragma once
// The YAML front end of hilsim: a file or text parsed into a tree whose every node knows its
// line, with hardened reading (one document per file, bounded nesting and alias expansion) and
// errors of the form "file:line: message". Hardware configs and sweep specs are both read through
// it; no other code includes yaml-cpp.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace hilsim::config {

class Node {
 public:
  enum class Kind { kNull, kScalar, kSequence, kMapping };

  Kind kind() const { return kind_; }
  bool isNull() const { return kind_ == Kind::kNull; }
  bool isScalar() const { return kind_ == Kind::kScalar; }
  bool isSequence() const { return kind_ == Kind::kSequence; }
  bool isMapping() const { return kind_ == Kind::kMapping; }
  // 1-based line of the node in its document; 0 when not known.
  int line() const { return line_; }
  // The text of a scalar, and whether it was quoted (a string, never a number or a boolean).
  const std::string& scalar() const { return scalar_; }
  bool quoted() const { return quoted_; }
  // The items of a sequence, and the key/value entries of a mapping in document order.
  const std::vector<Node>& items() const { return items_; }
  const std::vector<std::pair<Node, Node>>& entries() const { return entries_; }
  // The value of a mapping's scalar key `key`, or nullptr.
  const Node* find(const std::string& key) const;
  // "a mapping", "a list", "'text'" or "no value (null)", for messages.
  std::string describe() const;

 private:
  friend struct NodeBuilder;
  Kind kind_ = Kind::kNull;
  int line_ = 0;
  std::string scalar_;
  bool quoted_ = false;
  std::vector<Node> items_;
  std::vector<std::pair<Node, Node>> entries_;
};

struct Document {
  std::string name;  // the file as shown in messages
  Node root;
};

// Parses the single YAML document in `text`; `name` stands for it in messages. Throws
// hilsim::ConfigError "name:line: YAML syntax error: ..." (or "more than one YAML document",
// "nested too deeply", "too many values").
Document parseYaml(const std::string& text, const std::string& name);
// Reads and parses a file, shown as `shown` in messages. Throws ConfigError ("cannot read").
Document parseYamlFile(const std::string& path, const std::string& shown);
// Parses one value given on the command line (`--set key=value`); throws ConfigError whose
// message has no location ("YAML syntax error in the value: ...").
Node parseYamlValue(const std::string& text);

// Throws ConfigError("<name>:<line>: <message>") ("<name>: <message>" when the line is unknown).
[[noreturn]] void failAt(const Document& doc, const Node& at, const std::string& message);

}  // namespace hilsim::config
