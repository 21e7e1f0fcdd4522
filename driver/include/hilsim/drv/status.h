#pragma once
// Result of every driver call that can fail.

#include <cstdint>

namespace hilsim::drv {

enum class Status : uint8_t {
  kOk,
  kNoDevice,        // identification registers do not match
  kBadArgument,     // a buffer or job outside what the device allows
  kOutOfMemory,     // device memory exhausted
  kBusy,            // a job is already running
  kTimeout,         // no interrupt within the timeout (the device was soft-reset)
  kHardwareError,   // the device reported an error (the device was soft-reset)
  kBusError,        // a copy to or from device memory failed
};

const char* statusName(Status status);

}  // namespace hilsim::drv
