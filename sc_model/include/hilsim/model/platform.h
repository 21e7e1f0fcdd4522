#pragma once
// The whole platform, built and bound in one constructor from the resolved config:
//
//   host CPU ---\                     /--- system memory   [0, memory.size_bytes)
//                >--- shared bus ----<---- accelerator registers [kRegisterBase, +4 KiB)
//   DMA engine -/                     \--- core i SRAM      [kSramBase + i * kSramWindow, ...)
//
// The accelerator's interrupt line goes to the host CPU. A watchdog stops a simulation in which
// nothing progresses for sim.watchdog_cycles host cycles.

#include <memory>
#include <string>
#include <systemc>

#include "hilsim/config/hardware_config.h"
#include "hilsim/model/accelerator.h"
#include "hilsim/model/bus.h"
#include "hilsim/model/clocks.h"
#include "hilsim/model/host_cpu.h"
#include "hilsim/model/memory.h"
#include "hilsim/model/tracer.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::model {

class Platform : public sc_core::sc_module {
 public:
  Platform(sc_core::sc_module_name name, const config::HardwareConfig& config, Tracer* tracer);
  ~Platform() override;

  HostCpu& host() { return *host_; }
  Accelerator& accel() { return *accel_; }
  Memory& memory() { return *memory_; }
  Bus& bus() { return *bus_; }
  const Clocks& clocks() const { return clocks_; }
  const timing::PlatformTiming& timing() const { return timing_; }
  const config::HardwareConfig& config() const { return config_; }
  // Simulated time in picoseconds as the calling process sees it: the host CPU's local time on
  // its thread, the kernel's time elsewhere. Stamps log lines.
  uint64_t nowPs() const;
  // Why the watchdog stopped the simulation, or empty.
  const std::string& hang() const { return hang_; }
  // The transaction that best explains a failed accelerator job: the one answered with an error
  // since the job started, else the last one the DMA engine issued, else the last on the bus.
  TransactionRecord jobFailureTransaction() const;

 private:
  void watchdog();

  const config::HardwareConfig config_;
  const timing::PlatformTiming timing_;
  Clocks clocks_;
  std::unique_ptr<Bus> bus_;
  std::unique_ptr<Memory> memory_;
  std::unique_ptr<Accelerator> accel_;
  std::unique_ptr<HostCpu> host_;
  sc_core::sc_signal<bool> irq_;
  std::string hang_;
};

// Runs `program` on the platform's host CPU until it returns (one simulation per process).
// Throws SimulationError if the watchdog fires or the simulation stalls, naming the last
// transaction; an exception thrown by the program is rethrown (a SimulationError gains the last
// transaction in its message).
void runOnPlatform(Platform& platform, std::function<void()> program);

}  // namespace hilsim::model
