#include "hilsim/firmware/driver_timing.h"

#include <map>
#include <mutex>
#include <tuple>

#include "hilsim/config/derived.h"
#include "hilsim/drv/regs.h"
#include "hilsim/errors.h"
#include "hilsim/firmware/host_mcu.h"
#include "hilsim/firmware/images.h"
#include "hilsim/iss/memory_map.h"

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
  const HostMcuOptions options{config.cpu.preset, config.cpu.flash_wait_states,
                               config.cpu.sram_wait_states};
  const iss::ElfImage image = iss::ElfImage::fromFile(imagePath(options.preset));
  iss::Cpu cpu(hostCpuOptions(options));
  cpu.loadElf(image);
  const auto entry = [&](const char* name) {
    const iss::ElfSymbol s = image.symbol(name);
    return s.value | (s.thumb ? 1u : 0u);
  };
  InstantRegisters registers;
  cpu.mapMmio(iss::kAcceleratorRegsBase, iss::kAcceleratorRegsBytes, registers);
  for (const char* name : {"hs_cpu_init", "hs_driver_init"}) {
    const iss::RunResult r = cpu.call(entry(name), {config.accel.num_cores});
    if (r.reason != iss::StopReason::kReturned) failed(name, r);
  }
  DriverPathCycles out;
  const iss::RunResult submit = cpu.call(entry("hs_driver_submit"), {0x1000, 0, 1, 0});
  if (submit.reason != iss::StopReason::kReturned) failed("hs_driver_submit", submit);
  out.submit_cycles = submit.cycles;
  const iss::RunResult asleep = cpu.call(entry("hs_driver_wait"), {});
  if (asleep.reason != iss::StopReason::kWaitForInterrupt) failed("hs_driver_wait", asleep);
  const uint64_t woken_at = cpu.cycles();
  const iss::RunResult handler = cpu.callInterrupt(entry("hs_irq_handler"));
  if (handler.reason != iss::StopReason::kReturned) failed("hs_irq_handler", handler);
  const iss::RunResult rest = cpu.resume();
  if (rest.reason != iss::StopReason::kReturned) failed("hs_driver_wait", rest);
  out.completion_cycles = cpu.cycles() - woken_at;
  return out;
}

}  // namespace

DriverPathCycles measureDriverPath(const config::HardwareConfig& config) {
  using Key = std::tuple<std::string, uint32_t, uint32_t, uint32_t>;
  static std::mutex mutex;
  static std::map<Key, DriverPathCycles> known;
  const Key key{config.cpu.preset, config.cpu.flash_wait_states, config.cpu.sram_wait_states,
                config.accel.num_cores};
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
