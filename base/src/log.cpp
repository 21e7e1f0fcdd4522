#include "hilsim/base/log.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <cstdio>
#include <mutex>
#include <string>

namespace hilsim::log {
namespace {

struct State {
  std::shared_ptr<spdlog::sinks::sink> sink = std::make_shared<spdlog::sinks::stderr_sink_st>();
  spdlog::level::level_enum level = spdlog::level::warn;
  TimeSource time_source = nullptr;
  const void* time_context = nullptr;
};

State& state() {
  static State s;
  return s;
}

spdlog::level::level_enum spdlogLevel(LogLevel level) {
  switch (level) {
    case LogLevel::kTrace:
      return spdlog::level::trace;
    case LogLevel::kDebug:
      return spdlog::level::debug;
    case LogLevel::kInfo:
      return spdlog::level::info;
    case LogLevel::kWarn:
      return spdlog::level::warn;
    case LogLevel::kError:
      return spdlog::level::err;
    case LogLevel::kOff:
      return spdlog::level::off;
  }
  return spdlog::level::warn;
}

// "[driver @ 12.345678 us] " while a simulation runs, "[driver] " otherwise.
class ComponentAndTime final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    const State& s = state();
    std::string text = "[" + std::string(msg.logger_name.data(), msg.logger_name.size());
    if (s.time_source) {
      char at[48];
      std::snprintf(at, sizeof at, " @ %.6f us", double(s.time_source(s.time_context)) * 1e-6);
      text += at;
    }
    text += "] ";
    dest.append(text.data(), text.data() + text.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<ComponentAndTime>();
  }
};

std::unique_ptr<spdlog::formatter> makeFormatter() {
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<ComponentAndTime>('*').set_pattern("hilsim: %l: %*%v");
  return formatter;
}

}  // namespace

std::shared_ptr<spdlog::logger> get(const char* component) {
  if (std::shared_ptr<spdlog::logger> existing = spdlog::get(component)) return existing;
  State& s = state();
  auto logger = std::make_shared<spdlog::logger>(component, s.sink);
  logger->set_formatter(makeFormatter());
  logger->set_level(s.level);
  spdlog::register_logger(logger);
  return logger;
}

void setLevel(LogLevel level) {
  State& s = state();
  s.level = spdlogLevel(level);
  spdlog::apply_all([&s](const std::shared_ptr<spdlog::logger>& l) { l->set_level(s.level); });
}

void setTimeSource(TimeSource source, const void* context) {
  State& s = state();
  s.time_source = source;
  s.time_context = context;
}

}  // namespace hilsim::log
