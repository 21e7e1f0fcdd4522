#include "hilsim/firmware/driver_timing.h"

#include <map>
#include <mutex>
#include <tuple>

#include "hilsim/config/derived.h"
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

DriverPathCycles measure(const config::HardwareConfig& config) {
  rt::CountingClock clock;  // the probe's cycles are read from the ISS, not from a clock
  HostMcu mcu(hostMcuOptions(config), clock);
  iss::Cpu& cpu = mcu.cpu();
  InstantRegisters registers;
  cpu.mapMmio(iss::kAcceleratorRegsBase, iss::kAcceleratorRegsBytes, registers);
  const iss::RunResult init = cpu.call(mcu.entry("hs_driver_init"), {config.accel.num_cores});
  if (init.reason != iss::StopReason::kReturned) failed("hs_driver_init", init);
  // The job path runs twice and the second run is measured: a model's jobs follow each other,
  // so the flash memory system's caches hold the driver's code as they do on the board.
  DriverPathCycles out;
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

DriverPathCycles measureDriverPath(const config::HardwareConfig& config) {
  const timing::FlashSystemConfig& f = config.cpu.flash;
  using Key = std::tuple<std::string, uint32_t, uint32_t, uint32_t, uint32_t, bool, uint32_t,
                         uint32_t, uint32_t, uint32_t, bool>;
  static std::mutex mutex;
  static std::map<Key, DriverPathCycles> known;
  const Key key{config.cpu.preset,
                config.cpu.flash_wait_states,
                config.cpu.sram_wait_states,
                config.accel.num_cores,
                f.line_bytes,
                f.prefetch,
                f.icache_lines,
                f.icache_ways,
                f.dcache_lines,
                f.dcache_ways,
                f.data_through_icache};
  std::lock_guard<std::mutex> lock(mutex);
  const auto it = known.find(key);
  if (it != known.end()) return it->second;
  return known[key] = measure(config);
}

timing::PlatformTiming plannerTiming(const config::HardwareConfig& config) {
  timing::PlatformTiming t = config::platformTiming(config);
  if (config.cpu.model != config::CpuModel::kIss) return t;
  const DriverPathCycles d = measureDriverPath(config);
  t.host.driver_job_cycles = d.submit_cycles;
  t.host.driver_reg_cycles = 0;
  t.host.irq_handler_cycles = d.completion_cycles;
  return t;
}

}  // namespace hilsim::firmware
