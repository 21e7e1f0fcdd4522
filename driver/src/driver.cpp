#include "hilsim/drv/driver.h"

#include "device.h"
#include "hilsim/base/log.h"
#include "hilsim/drv/regs.h"

namespace hilsim::drv {
namespace {

spdlog::logger& logger() {
  static const std::shared_ptr<spdlog::logger> instance = log::get("driver");
  return *instance;
}

}  // namespace

const char* statusName(Status status) {
  switch (status) {
    case Status::kOk:
      return "ok";
    case Status::kNoDevice:
      return "no device";
    case Status::kBadArgument:
      return "bad argument";
    case Status::kOutOfMemory:
      return "out of device memory";
    case Status::kBusy:
      return "busy";
    case Status::kTimeout:
      return "timeout";
    case Status::kHardwareError:
      return "hardware error";
    case Status::kBusError:
      return "bus error";
  }
  return "unknown";
}

Driver::Driver(RegIo& io, DriverOptions options)
    : io_(io), options_(options), device_(std::make_unique<Device>(io)) {}

Driver::~Driver() = default;

Status Driver::fail(Status status, const std::string& what) {
  last_error_ = what;
  logger().info("{}: {}", statusName(status), what);
  return status;
}

Status Driver::open() {
  uint32_t version = 0;
  if (!device_->identify(&version))
    return fail(Status::kNoDevice, "identification registers do not read 'HSIM' version 1.x");
  info_ = device_->readInfo(version);
  if (info_.num_cores == 0 || info_.num_cores > regs::kMaxCores || info_.mem_size == 0)
    return fail(Status::kNoDevice, "device reports no cores or no memory");
  next_free_ = info_.mem_base;
  device_->enableInterrupts();
  last_error_.clear();
  logger().debug("device: {} cores, {} bytes of memory at {:#x}", info_.num_cores, info_.mem_size,
                 info_.mem_base);
  return Status::kOk;
}

Status Driver::allocate(uint64_t bytes, uint64_t alignment, Buffer* out) {
  if (bytes == 0 || alignment == 0 || (alignment & (alignment - 1)) != 0)
    return fail(Status::kBadArgument, "allocation of " + std::to_string(bytes) +
                                          " bytes aligned to " + std::to_string(alignment));
  const uint64_t addr = (next_free_ + alignment - 1) & ~(alignment - 1);
  const uint64_t end = info_.mem_base + info_.mem_size;
  if (addr < next_free_ || addr > end || bytes > end - addr)
    return fail(Status::kOutOfMemory, "cannot allocate " + std::to_string(bytes) +
                                          " bytes: " + std::to_string(end - next_free_) + " of " +
                                          std::to_string(info_.mem_size) +
                                          " bytes of device memory left");
  next_free_ = addr + bytes;
  *out = {addr, bytes};
  return Status::kOk;
}

Status Driver::write(const Buffer& buffer, uint64_t offset, const void* src, size_t bytes) {
  if (offset > buffer.bytes || bytes > buffer.bytes - offset)
    return fail(Status::kBadArgument, "write past the end of a device buffer");
  if (!io_.copyToDevice(buffer.addr + offset, src, bytes))
    return fail(Status::kBusError, "copy to device memory failed");
  return Status::kOk;
}

Status Driver::read(const Buffer& buffer, uint64_t offset, void* dst, size_t bytes) {
  if (offset > buffer.bytes || bytes > buffer.bytes - offset)
    return fail(Status::kBadArgument, "read past the end of a device buffer");
  if (!io_.copyFromDevice(dst, buffer.addr + offset, bytes))
    return fail(Status::kBusError, "copy from device memory failed");
  return Status::kOk;
}

Status Driver::submit(const Job& job) {
  if (job_running_) return fail(Status::kBusy, "a job is already running");
  const uint64_t all = info_.num_cores >= 64 ? ~uint64_t{0} : (uint64_t{1} << info_.num_cores) - 1;
  if (job.core_mask == 0 || (job.core_mask & ~all) != 0)
    return fail(Status::kBadArgument, "core mask 0x" + std::to_string(job.core_mask) +
                                          " names cores the device does not have");
  if (FirmwareJobPath* firmware = io_.firmwareJobPath()) {
    firmware->submit(job);
  } else {
    io_.spendCycles(options_.job_cycles);
    device_->submitJob(job, info_.num_cores);
  }
  job_running_ = true;
  ++jobs_submitted_;
  logger().debug("job {}: descriptor table at {:#x}, core mask {:#x}", jobs_submitted_ - 1,
                 job.table_addr, job.core_mask);
  return Status::kOk;
}

Status Driver::wait(uint64_t timeout_cycles) {
  if (!job_running_) return fail(Status::kBadArgument, "no job to wait for");
  job_running_ = false;
  FirmwareJobPath* firmware = io_.firmwareJobPath();
  uint32_t irq = 0;
  const bool raised =
      firmware ? firmware->wait(timeout_cycles, &irq) : io_.waitForIrq(timeout_cycles);
  if (!raised) {
    const std::string state = device_->describeStatus(info_.num_cores);
    (void)softReset();
    return fail(Status::kTimeout, "no interrupt within " + std::to_string(timeout_cycles) +
                                      " host cycles; " + state + "; device soft-reset");
  }
  if (!firmware) {
    io_.spendCycles(options_.irq_handler_cycles);
    irq = device_->acknowledgeIrq();
  }
  if (irq & regs::IRQ_ERROR) {
    const std::string state = device_->describeStatus(info_.num_cores);
    (void)softReset();
    return fail(Status::kHardwareError, state + "; device soft-reset");
  }
  last_error_.clear();
  logger().debug("job {}: done", jobs_submitted_ - 1);
  return Status::kOk;
}

Status Driver::run(const Job& job) {
  const Status submitted = submit(job);
  if (submitted != Status::kOk) return submitted;
  return wait(options_.timeout_cycles);
}

Status Driver::softReset() {
  device_->softReset();
  job_running_ = false;
  if (device_->busy()) return fail(Status::kHardwareError, "device still busy after soft reset");
  return Status::kOk;
}

DriverWork Driver::lastJobWork() {
  if (FirmwareJobPath* firmware = io_.firmwareJobPath()) return firmware->lastJob();
  const JobRegisterTraffic t = jobRegisterTraffic(info_.num_cores);
  DriverWork w;
  w.cycles =
      options_.job_cycles + options_.irq_handler_cycles +
      uint64_t{t.submit_writes + t.completion_reads + t.completion_writes} * options_.reg_cycles;
  return w;
}

CoreCounters Driver::counters(uint32_t core) {
  return device_->counters(core);
}

}  // namespace hilsim::drv
