#pragma once
// Clock periods of the platform, computed once from the resolved config. Periods are rounded to
// whole picoseconds (the simulator's time resolution).

#include <systemc>

#include "hilsim/timing/platform_timing.h"

namespace hilsim::model {

struct Clocks {
  sc_core::sc_time accel;
  sc_core::sc_time bus;
  sc_core::sc_time cpu;

  static Clocks fromTiming(const timing::Clocks& clocks);
};

// Whole cycles of `period` in `t`, rounded to nearest.
uint64_t toCycles(const sc_core::sc_time& t, const sc_core::sc_time& period);
// The first edge of `period` at or after `t`.
sc_core::sc_time nextEdge(const sc_core::sc_time& t, const sc_core::sc_time& period);

}  // namespace hilsim::model
