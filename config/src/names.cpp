// The names of enum values as written in config files.

#include "hilsim/config/hardware_config.h"

namespace hilsim::config {

const char* toString(Dataflow v) {
  switch (v) {
    case Dataflow::kWeightStationary:
      return "ws";
    case Dataflow::kOutputStationary:
      return "os";
    case Dataflow::kInputStationary:
      return "is";
  }
  return "?";
}

const char* toString(Arbitration v) {
  switch (v) {
    case Arbitration::kRoundRobin:
      return "round_robin";
    case Arbitration::kFixed:
      return "fixed";
  }
  return "?";
}

const char* toString(WeightMemory v) {
  switch (v) {
    case WeightMemory::kFlash:
      return "flash";
    case WeightMemory::kSram:
      return "sram";
    case WeightMemory::kExternal:
      return "external";
  }
  return "?";
}

const char* toString(FirmwareOpt v) {
  switch (v) {
    case FirmwareOpt::kO2:
      return "O2";
    case FirmwareOpt::kOs:
      return "Os";
  }
  return "?";
}

const char* toString(Fault v) {
  switch (v) {
    case Fault::kNone:
      return "none";
    case Fault::kBusError:
      return "bus_error";
    case Fault::kIrqLost:
      return "irq_lost";
    case Fault::kDmaUnmapped:
      return "dma_unmapped";
  }
  return "?";
}

const char* toString(LogLevel v) {
  switch (v) {
    case LogLevel::kTrace:
      return "trace";
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarn:
      return "warn";
    case LogLevel::kError:
      return "error";
    case LogLevel::kOff:
      return "off";
  }
  return "?";
}

const char* toString(CpuModel v) {
  switch (v) {
    case CpuModel::kIss:
      return "iss";
    case CpuModel::kCost:
      return "cost";
  }
  return "?";
}

const char* toString(timing::KernelLibrary v) {
  switch (v) {
    case timing::KernelLibrary::kReference:
      return "reference";
    case timing::KernelLibrary::kOptimized:
      return "optimized";
  }
  return "?";
}

}  // namespace hilsim::config
