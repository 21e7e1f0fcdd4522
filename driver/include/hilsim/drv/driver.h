#pragma once
// The accelerator driver's public API, in the shape of Arm's Ethos-U core driver: open and
// identify the device, allocate buffers in device-visible memory, submit a job, wait for it with a
// timeout (or run it synchronously), soft-reset. On a hardware error or timeout the driver logs
// the status registers, soft-resets the device and returns an error. Free of SystemC.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hilsim/drv/reg_io.h"
#include "hilsim/drv/status.h"

namespace hilsim::drv {

class Device;

struct DeviceInfo {
  uint32_t version = 0;
  uint32_t num_cores = 0;
  uint32_t dma_channels = 0;
  uint32_t array_rows = 0;
  uint32_t array_cols = 0;
  uint32_t dataflow = 0;  // 0 ws, 1 os, 2 is
  bool double_buffer = false;
  uint64_t sram_bytes = 0;
  uint64_t mem_base = 0;
  uint64_t mem_size = 0;
};

// Built from the configuration (sim::driverOptions), where the defaults live.
struct DriverOptions {
  uint64_t job_cycles = 0;          // host cycles of driver software per submitted job
  uint64_t irq_handler_cycles = 0;  // host cycles of the interrupt handler
  uint64_t reg_cycles = 0;          // host cycles of driver software per register access
  uint64_t timeout_cycles = 0;      // default wait timeout, host cycles
};

// A region of device-visible memory owned by the caller.
struct Buffer {
  uint64_t addr = 0;
  uint64_t bytes = 0;
};

// One job: the descriptor table (one regs::JobDescriptor per core) and the cores that run it.
struct Job {
  uint64_t table_addr = 0;
  uint64_t core_mask = 0;
};

// Per-core performance counters of the last job, in accelerator cycles.
struct CoreCounters {
  uint32_t busy_cycles = 0;
  uint32_t startup_cycles = 0;
  uint32_t compute_cycles = 0;
  uint32_t load_wait_cycles = 0;
  uint32_t store_wait_cycles = 0;
  uint32_t tiles = 0;
  uint32_t stall_cycles = 0;  // bus clock
};

// The register accesses the driver makes for one job on a device of `num_cores` cores: submit()
// writes the job table address, the core mask (two words beyond 32 cores) and CTRL.START;
// wait() reads and clears IRQ_STATUS. The planner's estimate counts them.
struct JobRegisterTraffic {
  uint32_t submit_writes;
  uint32_t completion_reads;
  uint32_t completion_writes;
};
constexpr JobRegisterTraffic jobRegisterTraffic(uint32_t num_cores) {
  return {num_cores > 32 ? 5u : 4u, 1u, 1u};
}

class Driver {
 public:
  Driver(RegIo& io, DriverOptions options);
  ~Driver();
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  // Identifies the device from its ID registers and reads its configuration.
  [[nodiscard]] Status open();
  const DeviceInfo& info() const { return info_; }

  // Reserves `bytes` of device memory aligned to `alignment` (a power of two).
  [[nodiscard]] Status allocate(uint64_t bytes, uint64_t alignment, Buffer* out);
  // Bytes of device memory not yet allocated (before alignment of the next buffer).
  uint64_t freeBytes() const { return info_.mem_base + info_.mem_size - next_free_; }
  // Frees every buffer at once (their owners must be gone).
  void releaseAll() { next_free_ = info_.mem_base; }
  // Host -> device and device -> host copies within a buffer.
  [[nodiscard]] Status write(const Buffer& buffer, uint64_t offset, const void* src, size_t bytes);
  [[nodiscard]] Status read(const Buffer& buffer, uint64_t offset, void* dst, size_t bytes);

  // Starts a job; returns kBusy if one is running.
  [[nodiscard]] Status submit(const Job& job);
  // Waits for the running job. On timeout or error: logs, soft-resets, returns the error.
  [[nodiscard]] Status wait(uint64_t timeout_cycles);
  // submit + wait with the default timeout.
  [[nodiscard]] Status run(const Job& job);
  // Aborts any job and returns the device to idle.
  [[nodiscard]] Status softReset();

  // Performance counters of the last job for `core` (untimed reads).
  CoreCounters counters(uint32_t core);
  // Human-readable detail of the last failure (status registers), empty after success.
  const std::string& lastError() const { return last_error_; }
  uint64_t jobsSubmitted() const { return jobs_submitted_; }
  // What the driver's code cost for the last job: executed (firmware on the platform's CPU model)
  // or the modelled software cycles (DriverOptions) with no instruction count.
  DriverWork lastJobWork();
  // The wait timeout run() uses, in host cycles.
  uint64_t timeoutCycles() const { return options_.timeout_cycles; }

 private:
  Status fail(Status status, const std::string& what);

  RegIo& io_;
  DriverOptions options_;
  std::unique_ptr<Device> device_;
  DeviceInfo info_;
  uint64_t next_free_ = 0;  // bump allocator over the memory window
  bool job_running_ = false;
  uint64_t jobs_submitted_ = 0;
  std::string last_error_;
};

}  // namespace hilsim::drv
