#pragma once
// Log messages of the libraries (the driver's) go to stderr as "hilsim: <level>: <message>", at the
// level `sim.log_level` chooses; stdout stays for reports.

#include "hilsim/config/hardware_config.h"

namespace hilsim::cli {

void configureLogging(config::LogLevel level);

}  // namespace hilsim::cli
