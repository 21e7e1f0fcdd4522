#pragma once
// The table of config keys (keys.cpp): the single source of truth for parsing, validation,
// printing and documentation.

#include <functional>
#include <string>
#include <vector>

#include "hilsim/config/hardware_config.h"
#include "hilsim/config/loader.h"
#include "raw.h"

namespace hilsim::config::detail {

// One YAML scalar as written.
struct Scalar {
  std::string text;
  bool quoted = false;  // quoted or tagged !!str: a string, never a number or a boolean
};

struct KeySpec {
  KeyInfo info;
  ConfigEntry::Kind kind = ConfigEntry::Kind::kString;
  std::string expected;  // what a value must look like: "an integer", "one of ws|os|is"
  // Checks the scalar's type and stores it into the raw field (type errors name `origin`).
  std::function<void(RawConfig&, const Scalar&, const Origin&)> store;
  // If the raw field holds a value: checks its range and writes it into the resolved field.
  std::function<void(const RawConfig&, HardwareConfig&)> apply;
  // The resolved value as written in YAML.
  std::function<std::string(const HardwareConfig&)> read;
};

// Every key, grouped, in document order.
const std::vector<KeySpec>& keySpecs();
const KeySpec* findKey(const std::string& key);
// Whether `path` names a group of keys ("accel", "accel.core", "cpu.coefficients").
bool isGroup(const std::string& path);
// "unknown key 'accel.num_corse' (did you mean 'accel.num_cores'?)", or the valid names there.
std::string unknownKeyMessage(const std::string& path);

}  // namespace hilsim::config::detail
