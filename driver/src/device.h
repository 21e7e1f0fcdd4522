#pragma once
// The device layer: the only code that knows register offsets and fields (from regs.h).

#include <cstdint>
#include <string>

#include "hilsim/drv/driver.h"
#include "hilsim/drv/reg_io.h"

namespace hilsim::drv {

class Device {
 public:
  explicit Device(RegIo& io) : io_(io) {}

  bool identify(uint32_t* version);
  DeviceInfo readInfo(uint32_t version);
  void enableInterrupts();
  // The job path (hilsim/drv/job_path.h): starts `job`; reads and clears IRQ_STATUS.
  void submitJob(const Job& job, uint32_t num_cores);
  uint32_t acknowledgeIrq();
  void softReset();
  bool busy();
  CoreCounters counters(uint32_t core);
  // STATUS, IRQ_STATUS, JOB_COUNT, ERROR_ADDR and the failing core's status, as one line
  // (untimed reads: diagnostics do not change the simulated timeline).
  std::string describeStatus(uint32_t num_cores);

 private:
  uint64_t read64(uint32_t lo_offset);
  RegIo& io_;
};

}  // namespace hilsim::drv
