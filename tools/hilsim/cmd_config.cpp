#include <iostream>

#include "args.h"
#include "commands.h"
#include "hilsim/config/loader.h"

namespace hilsim::cli {

int configCommand(int argc, char** argv, int first) {
  std::optional<std::string> config_path;
  std::vector<std::string> sets;
  bool keys = false;
  ArgParser args("config",
                 "Prints the fully resolved hardware configuration (every default filled in) as\n"
                 "YAML that hilsim reads back unchanged.");
  args.option("--config", &config_path, "C.yaml", "hardware config (default: embedded defaults)");
  args.repeated("--set", &sets, "key=value", "override one config key (repeatable)");
  args.flag("--keys", &keys, "list every key with its unit, default and valid range instead");
  if (!args.parse(argc, argv, first)) return 0;
  if (keys) {
    for (const config::KeyInfo& k : config::configKeys())
      std::cout << k.key << "  " << k.type << (k.unit.empty() ? "" : " [" + k.unit + "]")
                << "  default " << k.default_value << "  range " << k.range << "  " << k.doc
                << "\n";
    return 0;
  }
  std::vector<config::Override> overrides;
  for (const std::string& s : sets) overrides.push_back({s});
  std::cout << config::toYaml(config::loadConfig(config_path.value_or(""), overrides));
  return 0;
}

}  // namespace hilsim::cli
