#pragma once
// Helpers for the config loader tests: YAML files in a temp dir, and the error a load throws.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "files.h"
#include "hilsim/config/loader.h"
#include "hilsim/errors.h"

namespace hilsim::test {

// Writes `text` to `dir`/`name` (creating subdirectories) and returns the file's path.
inline std::string writeText(const std::string& dir, const std::string& name,
                             const std::string& text) {
  const std::string path = dir + "/" + name;
  const size_t slash = path.rfind('/');
  std::filesystem::create_directories(path.substr(0, slash));
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
  return path;
}

// The message of the ConfigError that loading throws; fails the test if nothing is thrown.
inline std::string loadError(const std::string& path,
                             const std::vector<config::Override>& overrides = {}) {
  try {
    config::loadConfig(path, overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "loading " << path << " did not fail";
  return "";
}

inline config::HardwareConfig withSets(const std::vector<std::string>& sets,
                                       const std::string& path = "") {
  std::vector<config::Override> overrides;
  for (const std::string& s : sets) overrides.push_back({s});
  return config::loadConfig(path, overrides);
}

inline std::string sourcePath(const std::string& relative) {
  return std::string(HILSIM_SOURCE_DIR) + "/" + relative;
}

}  // namespace hilsim::test
