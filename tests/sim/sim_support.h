#pragma once
// Helpers for SystemC tests: a config with overrides, a platform whose host CPU runs the test
// body, and a guard against a second elaboration in one process.

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hilsim/config/loader.h"
#include "hilsim/model/platform.h"

namespace hilsim::test {

// The default config with `overrides` ("key=value") applied.
config::HardwareConfig testConfig(const std::vector<std::string>& overrides = {});

// Builds the platform (once per process) and runs `body` on its host CPU thread, where it may
// call sc_core::wait and drive the hardware through the platform.
void runOnHost(const config::HardwareConfig& config,
               const std::function<void(model::Platform&)>& body,
               model::Tracer* tracer = nullptr);

// Time in bus / accelerator cycles, for expected values.
inline sc_core::sc_time busCycles(const model::Platform& p, double n) { return p.clocks().bus * n; }
inline sc_core::sc_time accelCycles(const model::Platform& p, double n) {
  return p.clocks().accel * n;
}

}  // namespace hilsim::test
