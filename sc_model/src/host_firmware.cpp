#include "hilsim/model/host_firmware.h"

#include <cstdio>
#include <cstring>

#include "hilsim/drv/driver.h"
#include "hilsim/drv/regs.h"
#include "hilsim/errors.h"
#include "hilsim/iss/memory_map.h"

namespace hilsim::model {

namespace {
std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
}  // namespace

HostFirmware::HostFirmware(HostCpu& host, firmware::HostMcu& mcu, uint32_t num_cores,
                           uint64_t memory_bytes)
    : host_(host), mcu_(mcu), registers_(*this, drv::regs::kRegisterBase), memory_(*this, 0) {
  iss::Cpu& cpu = mcu_.cpu();
  cpu.mapMmio(iss::kAcceleratorRegsBase, iss::kAcceleratorRegsBytes, registers_);
  cpu.mapMmio(iss::kSystemWindowBase, memory_bytes, memory_);
  submit_entry_ = mcu_.entry("hs_driver_submit");
  wait_entry_ = mcu_.entry("hs_driver_wait");
  handler_entry_ = mcu_.entry("hs_irq_handler");
  const iss::RunResult r = cpu.call(mcu_.entry("hs_driver_init"), {num_cores});
  if (r.reason != iss::StopReason::kReturned) fault("hs_driver_init", r);
}

sc_core::sc_time HostFirmware::now() const {
  const uint64_t cycles = mcu_.cpu().cycles() - base_cycles_ + stall_cycles_;
  return base_time_ + host_.clocks().cpu * static_cast<double>(cycles);
}

void HostFirmware::fault(const std::string& what, const iss::RunResult& r) const {
  throw SimulationError("firmware " + what + " stopped at pc " + hex(r.pc) + ": " +
                        (r.fault.empty() ? iss::toString(r.reason) : r.fault));
}

iss::RunResult HostFirmware::run(const std::function<iss::RunResult()>& step) {
  iss::Cpu& cpu = mcu_.cpu();
  base_time_ = host_.localTime();
  base_cycles_ = cpu.cycles();
  stall_cycles_ = 0;
  access_error_.clear();
  const uint64_t instructions = cpu.instructions();
  const iss::RunResult r = step();
  const uint64_t cycles = cpu.cycles() - base_cycles_ + stall_cycles_;
  job_.instructions += cpu.instructions() - instructions;
  job_.cycles += cycles;
  host_.spendUntil(now(), rt::CpuActivity::kDriver);
  if (!access_error_.empty()) throw SimulationError(access_error_);
  return r;
}

void HostFirmware::access(tlm::tlm_command command, uint64_t address, uint8_t* data,
                          unsigned bytes) {
  const sc_core::sc_time at = now();
  sc_core::sc_time done;
  if (!host_.firmwareAccess(command, address, data, bytes, at, &done) && access_error_.empty()) {
    access_error_ = std::string("firmware ") +
                    (command == tlm::TLM_READ_COMMAND ? "read" : "write") + " of " +
                    std::to_string(bytes) + " bytes at bus address " + hex(address) + " failed";
    mcu_.cpu().requestStop();
  }
  // The CPU waits for the access, like the driver model's register path.
  const uint64_t period = host_.clocks().cpu.value();
  stall_cycles_ += (done.value() - at.value() + period - 1) / period;
}

uint64_t HostFirmware::Window::read(uint32_t offset, unsigned size) {
  uint64_t value = 0;
  owner_.access(tlm::TLM_READ_COMMAND, bus_base_ + offset, reinterpret_cast<uint8_t*>(&value),
                size);
  return value;
}

void HostFirmware::Window::write(uint32_t offset, unsigned size, uint64_t value) {
  owner_.access(tlm::TLM_WRITE_COMMAND, bus_base_ + offset, reinterpret_cast<uint8_t*>(&value),
                size);
}

void HostFirmware::submit(const drv::Job& job) {
  job_ = {};
  iss::Cpu& cpu = mcu_.cpu();
  const iss::RunResult r = run([&] {
    return cpu.call(
        submit_entry_,
        {static_cast<uint32_t>(job.table_addr), static_cast<uint32_t>(job.table_addr >> 32),
         static_cast<uint32_t>(job.core_mask), static_cast<uint32_t>(job.core_mask >> 32)});
  });
  if (r.reason != iss::StopReason::kReturned) fault("hs_driver_submit", r);
}

bool HostFirmware::wait(uint64_t timeout_cycles, uint32_t* irq_status) {
  iss::Cpu& cpu = mcu_.cpu();
  const sc_core::sc_time deadline =
      host_.localTime() + host_.clocks().cpu * static_cast<double>(timeout_cycles);
  bool raised = true;
  iss::RunResult r = run([&] { return cpu.call(wait_entry_, {}); });
  while (r.reason != iss::StopReason::kReturned) {
    if (r.reason == iss::StopReason::kFault) fault("hs_driver_wait", r);
    if (r.reason == iss::StopReason::kWaitForInterrupt) {
      const sc_core::sc_time local = host_.localTime();
      const uint64_t left =
          deadline > local ? (deadline - local).value() / host_.clocks().cpu.value() : 0;
      // Without the interrupt the handler still runs once, so that the firmware's wait ends; the
      // driver then reports the timeout and soft-resets the device.
      if (!host_.waitForIrq(left)) raised = false;
      const iss::RunResult h = run([&] { return cpu.callInterrupt(handler_entry_); });
      if (h.reason != iss::StopReason::kReturned) fault("hs_irq_handler", h);
    }
    r = run([&] { return cpu.resume(); });
  }
  *irq_status = r.return_value;
  last_job_ = job_;
  return raised;
}

}  // namespace hilsim::model
