#pragma once
// Clock conversions shared by the simulator and the planner. Simulated time has a resolution of
// one picosecond, so a clock period is a whole number of picoseconds.

#include <cmath>
#include <cstdint>

namespace hilsim {

// The period of a clock of `mhz`, rounded to whole picoseconds.
inline uint64_t periodPs(double mhz) {
  return static_cast<uint64_t>(std::llround(1e6 / mhz));
}

// The first edge of a clock with period `period_ps` at or after `t_ps`.
inline uint64_t nextEdgePs(uint64_t t_ps, uint64_t period_ps) {
  return (t_ps + period_ps - 1) / period_ps * period_ps;
}

// Whole cycles of `period_ps` in `t_ps`, rounded to nearest.
inline uint64_t toCyclesRounded(uint64_t t_ps, uint64_t period_ps) {
  return (t_ps + period_ps / 2) / period_ps;
}

}  // namespace hilsim
