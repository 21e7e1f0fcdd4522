#include "device.h"

#include <cstdio>

#include "hilsim/drv/job_path.h"
#include "hilsim/drv/regs.h"

namespace hilsim::drv {

bool Device::identify(uint32_t* version) {
  if (io_.read32(regs::ID) != regs::kMagic) return false;
  *version = io_.read32(regs::VERSION);
  return (*version >> 16) == (regs::kVersion >> 16);
}

uint64_t Device::read64(uint32_t lo_offset) {
  const uint64_t lo = io_.read32(lo_offset);
  const uint64_t hi = io_.read32(lo_offset + 4);
  return hi << 32 | lo;
}

DeviceInfo Device::readInfo(uint32_t version) {
  DeviceInfo info;
  info.version = version;
  const uint32_t config = io_.read32(regs::CONFIG);
  info.num_cores = (config >> regs::CONFIG_CORES_SHIFT) & regs::CONFIG_CORES_MASK;
  info.dma_channels = (config >> regs::CONFIG_CHANNELS_SHIFT) & regs::CONFIG_CHANNELS_MASK;
  info.dataflow = (config >> regs::CONFIG_DATAFLOW_SHIFT) & regs::CONFIG_DATAFLOW_MASK;
  info.double_buffer = (config & regs::CONFIG_DOUBLE_BUFFER) != 0;
  const uint32_t array = io_.read32(regs::ARRAY);
  info.array_rows = array & 0xFFFF;
  info.array_cols = array >> 16;
  info.sram_bytes = read64(regs::SRAM_BYTES_LO);
  info.mem_base = read64(regs::MEM_BASE_LO);
  info.mem_size = read64(regs::MEM_SIZE_LO);
  return info;
}

void Device::enableInterrupts() {
  io_.write32(regs::IRQ_MASK, regs::IRQ_DONE | regs::IRQ_ERROR);
  io_.write32(regs::IRQ_STATUS, regs::IRQ_DONE | regs::IRQ_ERROR);
}

void Device::submitJob(const Job& job, uint32_t num_cores) {
  job_path::submitJob(io_, job.table_addr, job.core_mask, num_cores);
}

uint32_t Device::acknowledgeIrq() { return job_path::acknowledgeInterrupt(io_); }

void Device::softReset() { io_.write32(regs::CTRL, regs::CTRL_SOFT_RESET); }

bool Device::busy() { return (io_.read32(regs::STATUS) & regs::STATUS_BUSY) != 0; }

CoreCounters Device::counters(uint32_t core) {
  // The whole bank in one read: status, then the seven counters in register order.
  uint32_t bank[regs::CORE_BANK_STRIDE / 4];
  io_.debugReadBlock(regs::coreReg(core, 0), bank, regs::CORE_BANK_STRIDE / 4);
  CoreCounters c;
  c.busy_cycles = bank[regs::CORE_BUSY_CYCLES / 4];
  c.startup_cycles = bank[regs::CORE_STARTUP_CYCLES / 4];
  c.compute_cycles = bank[regs::CORE_COMPUTE_CYCLES / 4];
  c.load_wait_cycles = bank[regs::CORE_LOAD_WAIT_CYCLES / 4];
  c.store_wait_cycles = bank[regs::CORE_STORE_WAIT_CYCLES / 4];
  c.tiles = bank[regs::CORE_TILES / 4];
  c.stall_cycles = bank[regs::CORE_STALL_CYCLES / 4];
  return c;
}

std::string Device::describeStatus(uint32_t num_cores) {
  const uint32_t status = io_.debugRead32(regs::STATUS);
  const uint32_t irq = io_.debugRead32(regs::IRQ_STATUS);
  const uint32_t jobs = io_.debugRead32(regs::JOB_COUNT);
  const uint64_t error_addr = uint64_t{io_.debugRead32(regs::ERROR_ADDR_HI)} << 32 |
                              io_.debugRead32(regs::ERROR_ADDR_LO);
  const auto code = static_cast<regs::ErrorCode>((status >> regs::STATUS_ERROR_CODE_SHIFT) &
                                                 regs::STATUS_ERROR_CODE_MASK);
  const uint32_t core = (status >> regs::STATUS_ERROR_CORE_SHIFT) & regs::STATUS_ERROR_CORE_MASK;
  char line[256];
  std::snprintf(line, sizeof line,
                "STATUS=0x%08x (busy %u, done %u, error %u: %s, core %u) IRQ_STATUS=0x%x "
                "JOB_COUNT=%u ERROR_ADDR=0x%llx",
                status, status & regs::STATUS_BUSY ? 1u : 0u, status & regs::STATUS_DONE ? 1u : 0u,
                status & regs::STATUS_ERROR ? 1u : 0u, regs::errorName(code), core, irq, jobs,
                static_cast<unsigned long long>(error_addr));
  std::string text = line;
  if ((status & regs::STATUS_ERROR) && core < num_cores) {
    std::snprintf(line, sizeof line, " CORE%u_STATUS=0x%08x", core,
                  io_.debugRead32(regs::coreReg(core, regs::CORE_STATUS)));
    text += line;
  }
  return text;
}

}  // namespace hilsim::drv
