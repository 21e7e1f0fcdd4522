#include "hilsim/firmware/driver_timing.h"

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "hilsim/drv/regs.h"
#include "hilsim/errors.h"
#include "hilsim/firmware/host_mcu.h"
#include "hilsim/iss/memory_map.h"
#include "hilsim/rt/host_clock.h"

namespace hilsim::firmware {
namespace {

// A register block that completes every job at once: IRQ_STATUS reads say done.
class InstantRegisters final : public iss::MmioHandler {
 public:
  uint64_t read(uint32_t offset, unsigned) override {
    return offset == drv::regs::IRQ_STATUS ? drv::regs::IRQ_DONE : 0;
  }
  void write(uint32_t, unsigned, uint64_t) override {}
};

[[noreturn]] void failed(const char* entry, const iss::RunResult& r) {
  throw SimulationError(std::string("firmware ") + entry + " did not complete (" +
                        (r.fault.empty() ? iss::toString(r.reason) : r.fault) + ")");
}

planner::DriverPathCycles measure(const config::HardwareConfig& config) {
  rt::CountingClock clock;  // the probe's cycles are read from the ISS, not from a clock
  HostMcu mcu(config.cpu, clock);
  iss::Cpu& cpu = mcu.cpu();
  InstantRegisters registers;
  cpu.mapMmio(iss::kAcceleratorRegsBase, iss::kAcceleratorRegsBytes, registers);
  const iss::RunResult init = cpu.call(mcu.entry("hs_driver_init"), {config.accel.num_cores});
  if (init.reason != iss::StopReason::kReturned) failed("hs_driver_init", init);
  // The job path runs twice and the second run is measured: a model's jobs follow each other,
  // so the flash memory system's caches hold the driver's code as they do on the board.
  planner::DriverPathCycles out;
  for (int pass = 0; pass < 2; ++pass) {
    const iss::RunResult submit = cpu.call(mcu.entry("hs_driver_submit"), {0x1000, 0, 1, 0});
    if (submit.reason != iss::StopReason::kReturned) failed("hs_driver_submit", submit);
    out.submit_cycles = submit.cycles;
    const iss::RunResult asleep = cpu.call(mcu.entry("hs_driver_wait"), {});
    if (asleep.reason != iss::StopReason::kWaitForInterrupt) failed("hs_driver_wait", asleep);
    const uint64_t woken_at = cpu.cycles();
    const iss::RunResult handler = cpu.callInterrupt(mcu.entry("hs_irq_handler"));
    if (handler.reason != iss::StopReason::kReturned) failed("hs_irq_handler", handler);
    const iss::RunResult rest = cpu.resume();
    if (rest.reason != iss::StopReason::kReturned) failed("hs_driver_wait", rest);
    out.completion_cycles = cpu.cycles() - woken_at;
  }
  return out;
}

}  // namespace

planner::DriverPathCycles measureDriverPath(const config::HardwareConfig& config) {
  // What the measurement depends on: the image, the core as configured, and the cores the driver
  // initializes.
  struct Key {
    std::string preset;
    config::FirmwareOpt firmware_opt;
    iss::CpuOptions cpu;
    uint32_t num_cores;
    bool operator==(const Key& o) const {
      return preset == o.preset && firmware_opt == o.firmware_opt && cpu == o.cpu &&
             num_cores == o.num_cores;
    }
  };
  static std::mutex mutex;
  static std::vector<std::pair<Key, planner::DriverPathCycles>> known;
  const Key key{config.cpu.preset, config.cpu.firmware_opt, hostCpuOptions(config.cpu),
                config.accel.num_cores};
  std::lock_guard<std::mutex> lock(mutex);
  for (const auto& [k, cycles] : known)
    if (k == key) return cycles;
  known.emplace_back(key, measure(config));
  return known.back().second;
}

}  // namespace hilsim::firmware
