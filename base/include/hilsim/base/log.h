#pragma once
// Logging: one named spdlog logger per component ("driver", "runtime", "bus", "dma", "core",
// "host", "systemc", ...), all writing to stderr through one sink at one level (sim.log_level).
// While a simulation runs, every line carries the simulated time:
//   hilsim: debug: [driver @ 12.345678 us] job 3: done
// stdout stays for reports.

#include <cstdint>
#include <memory>

#include <spdlog/spdlog.h>

namespace hilsim {

enum class LogLevel : uint8_t { kTrace, kDebug, kInfo, kWarn, kError, kOff };

namespace log {

// The logger of `component`, created on first use with the shared sink and the current level.
std::shared_ptr<spdlog::logger> get(const char* component);
// Sets the level of every component's logger, present and future.
void setLevel(LogLevel level);
// The clock that stamps lines with simulated time, in picoseconds; nullptr when no simulation
// runs (lines then carry no time). The function must stay valid until it is cleared.
using TimeSource = uint64_t (*)(const void* context);
void setTimeSource(TimeSource source, const void* context);

}  // namespace log
}  // namespace hilsim
