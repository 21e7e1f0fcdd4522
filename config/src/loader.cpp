#include "hilsim/config/loader.h"

#include "raw.h"
#include "resolve.h"

namespace hilsim::config {

HardwareConfig loadConfig(const std::string& path, const std::vector<Override>& overrides) {
  detail::RawConfig raw;
  if (!path.empty()) detail::readConfigFile(path, raw);
  for (const Override& o : overrides) detail::applyOverride(o.text, raw);
  return detail::resolve(raw);
}

HardwareConfig loadConfigText(const std::string& text, const std::string& name,
                              const std::vector<Override>& overrides) {
  detail::RawConfig raw;
  detail::readConfigText(text, name, raw);
  for (const Override& o : overrides) detail::applyOverride(o.text, raw);
  return detail::resolve(raw);
}

}  // namespace hilsim::config
