#include "logging.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace hilsim::cli {
namespace {

spdlog::level::level_enum spdlogLevel(config::LogLevel level) {
  switch (level) {
    case config::LogLevel::kTrace:
      return spdlog::level::trace;
    case config::LogLevel::kDebug:
      return spdlog::level::debug;
    case config::LogLevel::kInfo:
      return spdlog::level::info;
    case config::LogLevel::kWarn:
      return spdlog::level::warn;
    case config::LogLevel::kError:
      return spdlog::level::err;
    case config::LogLevel::kOff:
      return spdlog::level::off;
  }
  return spdlog::level::warn;
}

}  // namespace

void configureLogging(config::LogLevel level) {
  static const std::shared_ptr<spdlog::logger> logger = [] {
    auto l = std::make_shared<spdlog::logger>("hilsim",
                                              std::make_shared<spdlog::sinks::stderr_sink_st>());
    l->set_pattern("hilsim: %l: %v");
    spdlog::set_default_logger(l);
    return l;
  }();
  logger->set_level(spdlogLevel(level));
}

}  // namespace hilsim::cli
