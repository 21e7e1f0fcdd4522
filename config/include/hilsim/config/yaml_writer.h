#pragma once
// Writes YAML documents (block mappings and sequences, flow sequences, plain or quoted scalars as
// the text needs), for files hilsim writes and reads back.

#include <cstdint>
#include <memory>
#include <string>

namespace YAML {
class Emitter;
}

namespace hilsim::config {

class YamlWriter {
 public:
  YamlWriter();
  ~YamlWriter();
  YamlWriter(const YamlWriter&) = delete;
  YamlWriter& operator=(const YamlWriter&) = delete;

  YamlWriter& beginMap();
  YamlWriter& endMap();
  // A sequence: one item per line, or `[a, b]` when `flow`.
  YamlWriter& beginSeq(bool flow = false);
  YamlWriter& endSeq();
  // The key of the next mapping entry; its value follows.
  YamlWriter& key(const std::string& name);
  // A value: of the current key, or the next item of the current sequence.
  YamlWriter& value(const std::string& text);
  YamlWriter& value(const char* text) { return value(std::string(text)); }
  YamlWriter& value(uint64_t number);

  // The document, ending with a newline.
  std::string str() const;

 private:
  std::unique_ptr<YAML::Emitter> emitter_;
};

}  // namespace hilsim::config
