#pragma once
// Reads hardware configs: YAML file(s) -> raw values with their source locations -> resolved,
// validated HardwareConfig (through the YAML front end, document.h).

#include <string>
#include <vector>

#include "hilsim/config/hardware_config.h"

namespace hilsim::config {

// One `--set key=value` override, as typed on the command line.
struct Override {
  std::string text;  // "accel.num_cores=8"
};

// Loads `path` (following `include:`), applies `overrides` in order, fills defaults, validates.
// An empty path means the built-in defaults only (the same values as configs/default.yaml).
// Throws hilsim::ConfigError naming the file, line, key and valid range.
HardwareConfig loadConfig(const std::string& path, const std::vector<Override>& overrides = {});

// The same for YAML text in memory; `name` stands for the file in messages and includes resolve
// relative to it.
HardwareConfig loadConfigText(const std::string& text, const std::string& name,
                              const std::vector<Override>& overrides = {});

// One leaf of the resolved configuration, in document order.
struct ConfigEntry {
  enum class Kind { kInt, kFloat, kBool, kString };
  std::string key;    // dotted path, e.g. "accel.core.array_rows"
  std::string value;  // as it would be written in YAML
  Kind kind = Kind::kString;
};

// Every key of the resolved config (all defaults filled in), for printing and reports.
std::vector<ConfigEntry> describeConfig(const HardwareConfig& config);
// The resolved config as a YAML document (what `hilsim config` prints).
std::string toYaml(const HardwareConfig& config);

// Every key the loader accepts with its unit, default, range and meaning (drives validation,
// `hilsim config --keys` and the check that configs/README.md documents every key).
struct KeyInfo {
  std::string key;
  std::string type;  // "int", "float", "bool", "enum", "string"
  std::string unit;
  std::string default_value;
  std::string range;  // e.g. "1..64" or "ws|os|is"
  std::string doc;
};
const std::vector<KeyInfo>& configKeys();

}  // namespace hilsim::config
