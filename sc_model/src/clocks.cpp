#include "hilsim/model/clocks.h"

#include <cmath>

namespace hilsim::model {
namespace {

sc_core::sc_time periodOf(double mhz) {
  return sc_core::sc_time(std::round(1e6 / mhz), sc_core::SC_PS);
}

}  // namespace

Clocks Clocks::fromConfig(const config::HardwareConfig& config) {
  return {periodOf(config.accel.clock_mhz), periodOf(config.bus.clock_mhz),
          periodOf(config.cpu.clock_mhz)};
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
