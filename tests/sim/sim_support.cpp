#include "sim_support.h"

#include <stdexcept>

namespace hilsim::test {

config::HardwareConfig testConfig(const std::vector<std::string>& overrides) {
  std::vector<config::Override> list;
  for (const std::string& o : overrides) list.push_back({o});
  return config::loadConfig("", list);
}

void runOnHost(const config::HardwareConfig& config,
               const std::function<void(model::Platform&)>& body, model::Tracer* tracer) {
  static bool elaborated = false;
  if (elaborated)
    throw std::logic_error("one SystemC elaboration per process: run one test per process "
                           "(ctest does; by hand use --gtest_filter)");
  elaborated = true;
  // The platform lives until the process ends, as SystemC expects.
  static std::unique_ptr<model::Platform> platform;
  platform = std::make_unique<model::Platform>("platform", config, tracer);
  model::Platform& p = *platform;
  model::runOnPlatform(p, [&p, &body] { body(p); });
}

}  // namespace hilsim::test
