// The driver's job path as firmware: the same register sequence as the host driver
// (hilsim/drv/job_path.h) on volatile MMIO at the register block.

#include <cstdint>

#include "cpu.h"
#include "entries.h"
#include "hilsim/drv/job_path.h"

namespace {

namespace job_path = hilsim::drv::job_path;

constexpr uintptr_t kRegisterBlock = 0x40000000;

struct Mmio {
  uint32_t read32(uint32_t offset) const {
    return *reinterpret_cast<volatile const uint32_t*>(kRegisterBlock + offset);
  }
  void write32(uint32_t offset, uint32_t value) const {
    *reinterpret_cast<volatile uint32_t*>(kRegisterBlock + offset) = value;
  }
};

uint32_t device_cores = 0;
volatile uint32_t irq_seen = 0;    // set by hs_irq_handler, cleared by submit and wait
volatile uint32_t irq_status = 0;  // what the handler read

}  // namespace

extern "C" {

void hs_driver_init(uint32_t num_cores) {
  device_cores = num_cores;
}

void hs_driver_submit(uint32_t table_lo, uint32_t table_hi, uint32_t mask_lo, uint32_t mask_hi) {
  irq_seen = 0;
  Mmio io;
  job_path::submitJob(io, uint64_t{table_hi} << 32 | table_lo, uint64_t{mask_hi} << 32 | mask_lo,
                      device_cores);
}

uint32_t hs_driver_wait(void) {
  // Masked while checking, so an interrupt between the check and WFI still ends the WFI.
  for (;;) {
    maskInterrupts();
    if (irq_seen) break;
    waitForInterrupt();
    unmaskInterrupts();
  }
  unmaskInterrupts();
  irq_seen = 0;
  return irq_status;
}

void hs_irq_handler(void) {
  Mmio io;
  irq_status = job_path::acknowledgeInterrupt(io);
  irq_seen = 1;
}

}  // extern "C"
