#include "hilsim/config/yaml_writer.h"

#include <yaml-cpp/yaml.h>

namespace hilsim::config {

YamlWriter::YamlWriter() : emitter_(std::make_unique<YAML::Emitter>()) {}
YamlWriter::~YamlWriter() = default;

YamlWriter& YamlWriter::beginMap() {
  *emitter_ << YAML::BeginMap;
  return *this;
}
YamlWriter& YamlWriter::endMap() {
  *emitter_ << YAML::EndMap;
  return *this;
}
YamlWriter& YamlWriter::beginSeq(bool flow) {
  if (flow) *emitter_ << YAML::Flow;
  *emitter_ << YAML::BeginSeq;
  return *this;
}
YamlWriter& YamlWriter::endSeq() {
  *emitter_ << YAML::EndSeq;
  return *this;
}
YamlWriter& YamlWriter::key(const std::string& name) {
  *emitter_ << YAML::Key << name << YAML::Value;
  return *this;
}
YamlWriter& YamlWriter::value(const std::string& text) {
  *emitter_ << text;
  return *this;
}
YamlWriter& YamlWriter::value(uint64_t number) {
  *emitter_ << number;
  return *this;
}

std::string YamlWriter::str() const {
  return std::string(emitter_->c_str()) + "\n";
}

}  // namespace hilsim::config
