#pragma once
// The resolved hardware configuration: plain typed structs with every default filled in and every
// value validated. Produced only by the loader (loader.h); modules receive these, never YAML.
// Cycle counts are in the clock of the component that owns them (accel, bus or host CPU).

#include <cstdint>
#include <string>

#include "hilsim/base/log.h"
#include "hilsim/energy/energy_params.h"
#include "hilsim/energy/technology.h"
#include "hilsim/iss/core_model.h"
#include "hilsim/timing/bus_scheduler.h"
#include "hilsim/timing/core_timing.h"
#include "hilsim/timing/cpu_cost_model.h"

namespace hilsim::config {

// The timing model's own enums: the config names their values (toString below).
using timing::Arbitration;
using timing::Dataflow;
using timing::FirmwareOpt;
enum class WeightMemory : uint8_t { kFlash, kSram, kExternal };
// Where the reference kernels' and the driver's cycles come from: the instruction-set simulator
// running the firmware, or the cost model's formulas.
enum class CpuModel : uint8_t { kIss, kCost };
enum class Fault : uint8_t { kNone, kBusError, kIrqLost, kDmaUnmapped };

struct CoreConfig {
  uint32_t array_rows = 16;
  uint32_t array_cols = 16;
  Dataflow dataflow = Dataflow::kWeightStationary;
  uint64_t sram_bytes = 256 * 1024;
  uint32_t startup_cycles = 32;
  bool double_buffer = true;
};

struct DmaConfig {
  uint32_t setup_cycles = 16;
  uint32_t max_burst_bytes = 256;
  uint32_t channels = 4;  // default: one per core
};

struct AccelConfig {
  uint32_t num_cores = 4;
  double clock_mhz = 400.0;
  CoreConfig core;
  DmaConfig dma;
  uint32_t irq_latency_cycles = 8;
  uint32_t reg_access_cycles = 2;
};

struct BusConfig {
  uint32_t width_bytes = 16;
  double clock_mhz = 400.0;
  uint32_t latency_cycles = 4;
  Arbitration arbitration = Arbitration::kRoundRobin;
};

struct MemoryConfig {
  uint64_t size_bytes = 64ull * 1024 * 1024;
  uint32_t latency_cycles = 10;   // bus clock
  uint32_t bytes_per_cycle = 16;  // bus clock
};

struct CpuConfig {
  std::string preset = "cortex-m4f";
  timing::KernelLibrary kernels = timing::KernelLibrary::kReference;
  double clock_mhz = 120.0;         // default: the preset's clock
  CpuModel model = CpuModel::kIss;  // default: iss where the preset has a timing table
  // Set when a preset or kernel library other than the default one has no ISS, so cpu.model
  // fell back to cost: one line for the user, empty otherwise.
  std::string model_note;
  // cpu.flash_wait_states, cpu.sram_wait_states, cpu.flash.*: the ISS's own options; default: the
  // preset's typical part (iss/core_model.h).
  iss::MemoryOptions memory = iss::coreInfo(iss::Core::kCortexM4F).memory;
  WeightMemory weight_memory = WeightMemory::kFlash;
  FirmwareOpt firmware_opt = FirmwareOpt::kO2;  // which firmware image the ISS runs
  // Default: the preset's driver figures (timing::cpuPresetDriver).
  uint32_t driver_job_cycles = 33;  // software cost of one accelerator job
  uint32_t driver_reg_cycles = 0;   // software cost per register access (plus the bus trip)
  uint32_t irq_handler_cycles = 54;
  timing::CpuCoefficients coefficients;  // preset values with any `cpu.coefficients.*` overrides
};

struct SimConfig {
  uint64_t quantum_ns = 100000;
  LogLevel log_level = LogLevel::kWarn;
  uint64_t watchdog_cycles = 100'000'000;  // host-clock cycles without progress
  Fault fault = Fault::kNone;
  uint32_t fault_at_job = 0;
  uint64_t transaction_bytes = 0;  // 0: one TLM transaction per DMA transfer
};

// The microcontroller's memory budget: a run whose figures exceed it warns (0: not checked).
struct McuConfig {
  uint64_t flash_bytes = 0;  // the model and the firmware
  uint64_t sram_bytes = 0;   // the tensor arena
};

// The host MCU's energy figures (energy.host.*): default to its preset's (energy/host_mcu.h).
struct HostEnergyConfig {
  std::string preset = "cortex-m55";  // default: cpu.preset
  double run_ua_per_mhz = 0;
  double sleep_ua_per_mhz = 0;
  double supply_v = 0;
  double flash_line_read_pj = 0;
  double sram_access_pj = 0;
};

// Area assumptions of the technology preset (energy.area.*).
struct AreaConfig {
  double sram_array_efficiency = 0;
  double control_fraction = 0;
};

// Energy per action and static power (energy.*): every value defaults to the technology preset's
// at the configured geometry (docs/ENERGY.md), and each can be given on its own.
struct EnergyConfig {
  energy::TechNode preset = energy::TechNode::k45nm;
  bool power_gating = false;
  double mac_pj = 0;
  double sram_read_pj_per_byte = 0;
  double sram_write_pj_per_byte = 0;
  double dma_pj_per_byte = 0;
  double bus_pj_per_beat = 0;
  double register_access_pj = 0;
  double system_memory_read_pj_per_byte = 0;
  double system_memory_write_pj_per_byte = 0;
  double sram_leakage_uw_per_kib = 0;
  double pe_leakage_uw = 0;
  AreaConfig area;
  HostEnergyConfig host;

  // The values the energy model multiplies action counts by.
  energy::EnergyParams params() const;
};

struct HardwareConfig {
  AccelConfig accel;
  BusConfig bus;
  MemoryConfig memory;
  CpuConfig cpu;
  McuConfig mcu;
  SimConfig sim;
  EnergyConfig energy;
};

// The accelerator's geometry as the energy and area model sees it.
energy::AcceleratorGeometry acceleratorGeometry(const HardwareConfig& config);
// The technology preset with the configured area assumptions.
energy::Technology technology(const HardwareConfig& config);

const char* toString(Dataflow v);
const char* toString(Arbitration v);
const char* toString(WeightMemory v);
const char* toString(FirmwareOpt v);
const char* toString(CpuModel v);
const char* toString(Fault v);
const char* toString(LogLevel v);
const char* toString(timing::KernelLibrary v);

}  // namespace hilsim::config
