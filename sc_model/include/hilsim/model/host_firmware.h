#pragma once
// The driver's job path as firmware on the host CPU's instruction-set simulator (cpu.model iss):
// hs_driver_submit's register writes, hs_driver_wait's WFI and the interrupt handler execute on
// the ISS, timed by their instructions. Their accesses to the accelerator's register block
// (0x40000000) and to the device-visible memory window (0x60000000) become TLM transactions at
// the CPU's local time, and the CPU waits for each one as it does for the driver model's. The
// simulator is never run from inside a SystemC wait: it stops at a WFI, the SystemC thread waits
// for the interrupt, then the handler runs and the wait resumes.

#include <cstdint>
#include <string>
#include <systemc>

#include "hilsim/drv/reg_io.h"
#include "hilsim/firmware/host_mcu.h"
#include "hilsim/model/host_cpu.h"

namespace hilsim::model {

class HostFirmware final : public drv::FirmwareJobPath {
 public:
  // Maps the accelerator's windows into `mcu`'s address map and tells the firmware the device's
  // core count. `memory_bytes`: the size of system memory behind the window.
  HostFirmware(HostCpu& host, firmware::HostMcu& mcu, uint32_t num_cores, uint64_t memory_bytes);

  void submit(const drv::Job& job) override;
  bool wait(uint64_t timeout_cycles, uint32_t* irq_status) override;
  drv::DriverWork lastJob() const override { return last_job_; }

 private:
  // One of the accelerator's windows: accesses go to the bus at `bus_base` + offset.
  class Window final : public iss::MmioHandler {
   public:
    Window(HostFirmware& owner, uint64_t bus_base) : owner_(owner), bus_base_(bus_base) {}
    uint64_t read(uint32_t offset, unsigned size) override;
    void write(uint32_t offset, unsigned size, uint64_t value) override;

   private:
    HostFirmware& owner_;
    uint64_t bus_base_;
  };

  // Runs the firmware from the CPU's local time; afterwards the CPU's time includes the executed
  // cycles and the bus accesses' waits.
  iss::RunResult run(const std::function<iss::RunResult()>& step);
  void access(tlm::tlm_command command, uint64_t address, uint8_t* data, unsigned bytes);
  // The local time of the instruction executing now.
  sc_core::sc_time now() const;
  [[noreturn]] void fault(const std::string& what, const iss::RunResult& r) const;

  HostCpu& host_;
  firmware::HostMcu& mcu_;
  Window registers_;
  Window memory_;
  uint32_t submit_entry_ = 0, wait_entry_ = 0, handler_entry_ = 0;
  // Time base of the running step: its start and the simulator's counts then.
  sc_core::sc_time base_time_;
  uint64_t base_cycles_ = 0;
  uint64_t stall_cycles_ = 0;  // CPU cycles waiting for bus accesses in this step
  std::string access_error_;
  drv::DriverWork job_, last_job_;
};

}  // namespace hilsim::model
