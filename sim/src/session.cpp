#include "hilsim/sim/session.h"

#include <algorithm>
#include <memory>

#include "hilsim/base/log.h"
#include "hilsim/config/derived.h"
#include "hilsim/errors.h"
#include "hilsim/firmware/driver_timing.h"
#include "hilsim/model/host_firmware.h"
#include "hilsim/planner/planner_timing.h"
#include "hilsim/rt/kernels/conv_accel.h"

namespace hilsim::sim {
namespace {

rt::OffloadMode offloadMode(Mode mode) {
  switch (mode) {
    case Mode::kAccel:
      return rt::OffloadMode::kAccel;
    case Mode::kCompare:
      return rt::OffloadMode::kCompare;
    default:
      return rt::OffloadMode::kAuto;
  }
}

uint64_t simulatedPs(const void* platform) {
  return static_cast<const model::Platform*>(platform)->nowPs();
}

// Clears the log's time source when the session ends, however it ends.
struct TimeStamping {
  explicit TimeStamping(const model::Platform& platform) {
    log::setTimeSource(simulatedPs, &platform);
  }
  ~TimeStamping() { log::setTimeSource(nullptr, nullptr); }
};

}  // namespace

Mode parseMode(const std::string& text, const std::string& option) {
  if (text == "auto") return Mode::kAuto;
  if (text == "accel") return Mode::kAccel;
  if (text == "ref") return Mode::kRef;
  if (text == "compare") return Mode::kCompare;
  throw UsageError(option + ": '" + text + "' is not one of auto|accel|ref|compare");
}

const char* modeName(Mode mode) {
  switch (mode) {
    case Mode::kAuto:
      return "auto";
    case Mode::kAccel:
      return "accel";
    case Mode::kRef:
      return "ref";
    case Mode::kCompare:
      return "compare";
  }
  return "?";
}

std::unique_ptr<firmware::HostMcu> makeHostMcu(const config::HardwareConfig& config,
                                               rt::HostClock& clock) {
  if (config.cpu.model != config::CpuModel::kIss) return nullptr;
  return std::make_unique<firmware::HostMcu>(config.cpu, clock);
}

drv::DriverOptions driverOptions(const config::HardwareConfig& c) {
  drv::DriverOptions o;
  o.job_cycles = c.cpu.driver_job_cycles;
  o.irq_handler_cycles = c.cpu.irq_handler_cycles;
  o.reg_cycles = c.cpu.driver_reg_cycles;
  // Half the watchdog period: a lost interrupt is detected, and recovered from, by the driver
  // before the watchdog would call the run hung.
  o.timeout_cycles = std::max<uint64_t>(1, c.sim.watchdog_cycles / 2);
  return o;
}

void runSession(const config::HardwareConfig& config, Mode mode, model::Tracer* tracer,
                const std::function<void(HostSide&)>& program) {
  static std::unique_ptr<model::Platform> platform;
  platform = std::make_unique<model::Platform>("platform", config, tracer);
  log::get("sim")->debug("platform: {} cores of {}x{} ({}), {}-byte bus, {} MHz host CPU ({})",
                         config.accel.num_cores, config.accel.core.array_rows,
                         config.accel.core.array_cols, config::toString(config.accel.core.dataflow),
                         config.bus.width_bytes, config.cpu.clock_mhz, config.cpu.preset);
  model::Platform& p = *platform;
  const TimeStamping stamping(p);
  model::runOnPlatform(p, [&] {
    const std::unique_ptr<firmware::HostMcu> mcu = makeHostMcu(config, p.host());
    std::unique_ptr<model::HostFirmware> job_path;
    if (mcu) {
      job_path = std::make_unique<model::HostFirmware>(p.host(), *mcu, config.accel.num_cores,
                                                       config.memory.size_bytes);
      p.host().setFirmwareJobPath(job_path.get());
    }
    drv::Driver driver(p.host(), driverOptions(config));
    if (driver.open() != drv::Status::kOk)
      throw SimulationError("driver cannot open the accelerator: " + driver.lastError());
    const timing::PlatformTiming planner_timing =
        planner::plannerTiming(config, firmware::measureDriverPath);
    rt::AccelContext accel(driver, config::accelGeometry(config), planner_timing,
                           config::costModel(config), planner::plannerCpu(config, planner_timing),
                           offloadMode(mode));
    accel.setEnergy(config.energy.params(), planner::Objective::kCycles);
    accel.setTransactionDescriber([&p] { return p.jobFailureTransaction().describe(); });
    rt::OpResolver resolver = rt::referenceOpResolver();
    if (mode != Mode::kRef) {
      resolver.add(tflite::BuiltinOperator::FULLY_CONNECTED,
                   [&accel] { return rt::makeFullyConnectedAccel(accel); });
      resolver.add(tflite::BuiltinOperator::CONV_2D,
                   [&accel] { return rt::makeConv2DAccel(accel); });
      resolver.add(tflite::BuiltinOperator::DEPTHWISE_CONV_2D,
                   [&accel] { return rt::makeDepthwiseConv2DAccel(accel); });
    }
    HostSide side{p, p.host(), driver, accel, resolver, mcu.get()};
    program(side);
    p.host().setFirmwareJobPath(nullptr);
  });
}

}  // namespace hilsim::sim
