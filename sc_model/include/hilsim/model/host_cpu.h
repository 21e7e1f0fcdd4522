#pragma once
// The host CPU: the only place where the runtime and the driver meet SystemC. Its thread runs the
// program (the runtime), whose reference kernels and driver software advance the CPU's local time
// (a TLM quantum keeper); register accesses and copies are TLM transactions over the bus; waiting
// for the accelerator waits for the interrupt line.

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>

#include "hilsim/config/hardware_config.h"
#include "hilsim/drv/reg_io.h"
#include "hilsim/model/bus.h"
#include "hilsim/model/clocks.h"
#include "hilsim/model/tracer.h"
#include "hilsim/rt/host_clock.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::model {

class HostCpu : public sc_core::sc_module,
                public rt::HostClock,
                public drv::RegIo,
                public BusClient {
 public:
  tlm_utils::simple_initiator_socket<HostCpu> socket;
  sc_core::sc_in<bool> irq;

  // The clock and the driver's software cost per register access from `timing`, the TLM quantum
  // and transaction size from `sim`.
  HostCpu(sc_core::sc_module_name name, const timing::PlatformTiming& timing,
          const config::SimConfig& sim, const Clocks& clocks, Bus& bus, uint32_t bus_port,
          Tracer* tracer);

  // The program run by the CPU thread; the simulation stops when it returns.
  void setProgram(std::function<void()> program) { program_ = std::move(program); }
  bool finished() const { return finished_; }
  std::exception_ptr failure() const { return failure_; }
  // What the CPU is blocked on, for hang reports ("interrupt", "copy", or "").
  const char* waitingFor() const { return waiting_for_; }
  // Counts what the CPU has done (time spent, accesses, wake-ups): the watchdog's progress.
  uint64_t progress() const { return progress_; }
  // The end of the time the CPU is spending now (a kernel, driver software); the watchdog counts
  // a CPU busy until later than now as progressing.
  const sc_core::sc_time& busyUntil() const { return busy_until_; }
  // Marks the layer being run (nullopt between layers) and the invocation in the trace, at the
  // CPU's local time.
  void traceLayer(std::optional<int> layer);
  void traceInvocation(uint32_t invocation);
  // The CPU's local time (ahead of the kernel's by up to a quantum), and whether the calling
  // SystemC process is the CPU's thread.
  sc_core::sc_time localTime() const { return sc_core::sc_time_stamp() + qk_.get_local_time(); }
  bool onCpuThread() const;
  const Clocks& clocks() const { return clocks_; }

  // rt::HostClock
  uint64_t now() const override;
  void advance(uint64_t cycles, rt::CpuActivity activity) override;
  uint64_t sleepCycles() const override { return sleep_ps_ / clocks_.cpu.value(); }

  // drv::RegIo
  uint32_t read32(uint32_t offset) override;
  void write32(uint32_t offset, uint32_t value) override;
  bool copyToDevice(uint64_t device_addr, const void* src, size_t bytes) override;
  bool copyFromDevice(void* dst, uint64_t device_addr, size_t bytes) override;
  bool waitForIrq(uint64_t timeout_cycles) override;
  void spendCycles(uint64_t cycles) override { advance(cycles, rt::CpuActivity::kDriver); }
  uint64_t nowCycles() const override { return now(); }
  uint32_t debugRead32(uint32_t offset) override;
  drv::FirmwareJobPath* firmwareJobPath() override { return firmware_; }

  // The host MCU's firmware (cpu.model iss) runs the driver's job path on this CPU.
  void setFirmwareJobPath(drv::FirmwareJobPath* firmware) { firmware_ = firmware; }
  // One access of the firmware to bus address `address` issued at local time `at`, as a TLM
  // transaction (no wait: callable from the instruction-set simulator's callbacks). False on an
  // error response. `*done`: when the access completes, the CPU having waited for it.
  bool firmwareAccess(tlm::tlm_command command, uint64_t address, uint8_t* data, unsigned bytes,
                      const sc_core::sc_time& at, sc_core::sc_time* done);
  // Spends the CPU's time up to local time `until` (on its clock edge) doing `activity`.
  void spendUntil(const sc_core::sc_time& until, rt::CpuActivity activity);
  void debugReadBlock(uint32_t offset, uint32_t* words, size_t count) override;

 private:
  void main();
  // Lets the kernel's time catch up with the CPU's local time.
  void sync();
  void registerAccess(tlm::tlm_command command, uint32_t offset, uint32_t* value);
  bool bulk(tlm::tlm_command command, uint64_t device_addr, uint8_t* host, size_t bytes);
  void transferDone(uint32_t port, const timing::Completion& completion) override;
  void setActivity(rt::CpuActivity activity, const sc_core::sc_time& at);
  void resumeAt(const sc_core::sc_time& earliest);
  void armDeadline(const sc_core::sc_time& deadline);

  Clocks clocks_;
  Bus& bus_;
  uint32_t bus_port_;
  uint64_t reg_software_cycles_;
  uint64_t transaction_bytes_;
  tlm_utils::tlm_quantumkeeper qk_;
  tlm::tlm_generic_payload payload_;  // reused for every transaction
  std::function<void()> program_;
  bool finished_ = false;
  std::exception_ptr failure_;
  const char* waiting_for_ = "";
  uint64_t progress_ = 0;
  sc_core::sc_event copy_done_;
  bool copy_pending_ = false;
  sc_core::sc_time wait_start_;       // the CPU's local time when it began waiting
  uint64_t sleep_ps_ = 0;             // time asleep in waitForIrq, summed
  sc_core::sc_event deadline_event_;  // interrupt-wait timeouts
  sc_core::sc_time deadline_armed_at_;
  bool deadline_armed_ = false;
  sc_core::sc_process_handle thread_;
  drv::FirmwareJobPath* firmware_ = nullptr;
  sc_core::sc_time busy_until_;
  Tracer* tracer_;
  Tracer::Signal sig_state_ = 0, sig_layer_ = 0, sig_invocation_ = 0;
};

}  // namespace hilsim::model
