#pragma once
// One simulated platform with the host side of the runtime wired to it: the platform built from
// the resolved config, the driver opened on its host CPU, the accelerator context of the offload
// mode, and a resolver with the accelerated kernels in place. `run`, `crossover`, sweep points and
// the benchmarks all start here.

#include <functional>

#include "hilsim/config/hardware_config.h"
#include "hilsim/drv/driver.h"
#include "hilsim/firmware/host_mcu.h"
#include "hilsim/model/platform.h"
#include "hilsim/model/tracer.h"
#include "hilsim/rt/kernels/fully_connected_accel.h"
#include "hilsim/rt/op_resolver.h"

namespace hilsim::sim {

// Where layers run: `ref` everything on the CPU's reference kernels; `accel` every int8 layer the
// accelerator can take; `auto` where the plan's decision says it pays; `compare` both ways.
enum class Mode { kAuto, kAccel, kRef, kCompare };
// Parses auto|accel|ref|compare; throws UsageError naming `option`.
Mode parseMode(const std::string& text, const std::string& option);
const char* modeName(Mode mode);

// The driver's options from the config: software costs and the interrupt timeout.
drv::DriverOptions driverOptions(const config::HardwareConfig& config);

// What a program on the simulated host CPU works with; valid while the program runs.
struct HostSide {
  model::Platform& platform;
  model::HostCpu& host;
  drv::Driver& driver;
  rt::AccelContext& accel;
  // The reference kernels, and for every mode but `ref` the accelerated ones in their place.
  const rt::OpResolver& resolver;
  // The host MCU's firmware on the instruction-set simulator (cpu.model iss), else nullptr: the
  // interpreter's CPU target, whose driver job path the driver runs too.
  firmware::HostMcu* mcu;
};

// The host MCU for `config` when cpu.model is iss (its kernels' cycles go to `clock`), else
// nullptr.
std::unique_ptr<firmware::HostMcu> makeHostMcu(const config::HardwareConfig& config,
                                               rt::HostClock& clock);

// Builds the platform (one per process: SystemC's modules live until the process ends), opens
// the driver and runs `program` on the host CPU until it returns. Throws SimulationError if the
// device cannot be opened or the simulation hangs; rethrows what the program throws.
void runSession(const config::HardwareConfig& config, Mode mode, model::Tracer* tracer,
                const std::function<void(HostSide&)>& program);

}  // namespace hilsim::sim
