#pragma once
// Everything the driver needs from the platform, injected so that the driver stays free of
// SystemC: register access, copies to and from device-visible memory, the interrupt, and the
// host CPU's time. One implementation issues TLM transactions from the simulated host CPU; a fake
// records the traffic for unit tests.

#include <cstddef>
#include <cstdint>

namespace hilsim::drv {

struct Job;

// What the driver's own code cost for one job (submit, wait and the interrupt handler).
struct DriverWork {
  uint64_t instructions = 0;  // 0 when the platform models the driver's cost instead
  uint64_t cycles = 0;        // host CPU cycles of driver software
};

// The driver's job path executed as firmware by the platform's model of the host CPU, with the
// timing of the executed instructions (and of its register accesses on the bus). When the platform
// offers one, Driver::submit and wait run it instead of charging DriverOptions' software cycles.
class FirmwareJobPath {
 public:
  virtual ~FirmwareJobPath() = default;
  // Runs the firmware's submission (its register writes start the job).
  virtual void submit(const Job& job) = 0;
  // Runs the firmware's wait: it sleeps until the interrupt, whose handler acknowledges it.
  // Returns false if no interrupt comes within `timeout_cycles` host cycles; else true with the
  // IRQ_STATUS bits the handler read in `*irq_status`.
  virtual bool wait(uint64_t timeout_cycles, uint32_t* irq_status) = 0;
  // The instructions and cycles of the firmware's submit, wait and handler of the last job.
  virtual DriverWork lastJob() const = 0;
};

class RegIo {
 public:
  virtual ~RegIo() = default;
  // Timed register access; `offset` is relative to the register block.
  virtual uint32_t read32(uint32_t offset) = 0;
  virtual void write32(uint32_t offset, uint32_t value) = 0;
  // Timed copies between host memory and device-visible memory. False on a bus error.
  virtual bool copyToDevice(uint64_t device_addr, const void* src, size_t bytes) = 0;
  virtual bool copyFromDevice(void* dst, uint64_t device_addr, size_t bytes) = 0;
  // Waits until the interrupt line is high or `timeout_cycles` host cycles pass; true if raised.
  virtual bool waitForIrq(uint64_t timeout_cycles) = 0;
  // Host CPU cycles spent in driver software.
  virtual void spendCycles(uint64_t cycles) = 0;
  virtual uint64_t nowCycles() const = 0;
  // Untimed register read for diagnostics and performance counters.
  virtual uint32_t debugRead32(uint32_t offset) = 0;
  // The firmware job path, when the platform executes the driver's code; nullptr otherwise.
  virtual FirmwareJobPath* firmwareJobPath() { return nullptr; }
  // Untimed read of `count` consecutive registers from `offset`.
  virtual void debugReadBlock(uint32_t offset, uint32_t* words, size_t count) {
    for (size_t i = 0; i < count; ++i)
      words[i] = debugRead32(offset + static_cast<uint32_t>(4 * i));
  }
};

}  // namespace hilsim::drv
