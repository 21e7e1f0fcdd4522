#include "hilsim/model/clocks.h"

namespace hilsim::model {
Clocks Clocks::fromTiming(const timing::Clocks& c) {
  return {sc_core::sc_time::from_value(c.accel_ps), sc_core::sc_time::from_value(c.bus_ps),
          sc_core::sc_time::from_value(c.cpu_ps)};
}

uint64_t toCycles(const sc_core::sc_time& t, const sc_core::sc_time& period) {
  const uint64_t p = period.value();
  return (t.value() + p / 2) / p;
}

sc_core::sc_time nextEdge(const sc_core::sc_time& t, const sc_core::sc_time& period) {
  const uint64_t p = period.value();
  const uint64_t edges = (t.value() + p - 1) / p;
  return sc_core::sc_time::from_value(edges * p);
}

}  // namespace hilsim::model
