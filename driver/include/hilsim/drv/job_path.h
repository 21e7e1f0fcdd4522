#pragma once
// The job path's register sequence, written once for every side that drives the accelerator:
// the host driver's device layer (drv::Device, through RegIo) and the firmware (volatile MMIO at
// the register block). Templates over a register accessor: any type with
//   uint32_t read32(uint32_t offset);
//   void write32(uint32_t offset, uint32_t value);
// where offsets are relative to the register block (regs.h). Freestanding: no allocation, no
// exceptions, so the firmware compiles the same source.

#include <cstdint>

#include "hilsim/drv/regs.h"

namespace hilsim::drv::job_path {

// Starts a job: JOB_TABLE_LO, JOB_TABLE_HI, CORE_MASK_LO, then CORE_MASK_HI on devices with more
// than 32 cores (fewer cores have no use for it), and CTRL = START. `table_addr` is the device
// address of the descriptor table, `core_mask` the cores taking part.
template <class Regs>
void submitJob(Regs& io, uint64_t table_addr, uint64_t core_mask, uint32_t num_cores) {
  io.write32(regs::JOB_TABLE_LO, static_cast<uint32_t>(table_addr));
  io.write32(regs::JOB_TABLE_HI, static_cast<uint32_t>(table_addr >> 32));
  io.write32(regs::CORE_MASK_LO, static_cast<uint32_t>(core_mask));
  if (num_cores > 32) io.write32(regs::CORE_MASK_HI, static_cast<uint32_t>(core_mask >> 32));
  io.write32(regs::CTRL, regs::CTRL_START);
}

// The interrupt handler's part: reads IRQ_STATUS, clears exactly the bits it read (write one to
// clear) and returns them (IRQ_DONE, IRQ_ERROR).
template <class Regs>
uint32_t acknowledgeInterrupt(Regs& io) {
  const uint32_t status = io.read32(regs::IRQ_STATUS);
  io.write32(regs::IRQ_STATUS, status);
  return status;
}

}  // namespace hilsim::drv::job_path
