#pragma once

#include "hilsim/config/hardware_config.h"
#include "raw.h"

namespace hilsim::config::detail {

// Fills defaults (including those derived from other keys), checks every range and the rules
// between keys, and returns the resolved config. Errors name where the offending value was set.
HardwareConfig resolve(const RawConfig& raw);

}  // namespace hilsim::config::detail
