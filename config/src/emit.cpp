// The resolved config as key/value leaves and as a YAML document, both in table order.

#include <sstream>

#include "hilsim/config/loader.h"
#include "keys.h"

namespace hilsim::config {

std::vector<ConfigEntry> describeConfig(const HardwareConfig& config) {
  std::vector<ConfigEntry> entries;
  for (const detail::KeySpec& key : detail::keySpecs())
    entries.push_back(ConfigEntry{key.info.key, key.read(config), key.kind});
  return entries;
}

std::string toYaml(const HardwareConfig& config) {
  // The table keeps the keys of a group together, so each group opens once.
  std::ostringstream out;
  std::vector<std::string> open;  // the groups of the previous key, outermost first
  for (const ConfigEntry& entry : describeConfig(config)) {
    std::vector<std::string> parts;
    std::istringstream path(entry.key);
    for (std::string part; std::getline(path, part, '.');) parts.push_back(part);

    size_t shared = 0;
    while (shared < open.size() && shared + 1 < parts.size() && open[shared] == parts[shared])
      ++shared;
    if (shared == 0 && !open.empty()) out << '\n';
    open.resize(shared);
    for (size_t depth = shared; depth + 1 < parts.size(); ++depth) {
      out << std::string(2 * depth, ' ') << parts[depth] << ":\n";
      open.push_back(parts[depth]);
    }
    out << std::string(2 * (parts.size() - 1), ' ') << parts.back() << ": " << entry.value << '\n';
  }
  return out.str();
}

}  // namespace hilsim::config
