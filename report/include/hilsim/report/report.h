#pragma once
// The per-layer report of `hilsim run`: collected from the interpreter's profiler and written as
// JSON (--report), CSV (--csv) and the printed table (PRODUCT.md "The per-layer report").

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "hilsim/config/hardware_config.h"
#include "hilsim/iss/flash.h"
#include "hilsim/report/collector.h"
#include "hilsim/report/energy.h"
#include "hilsim/rt/arena.h"

namespace hilsim::report {

// Cycles, MACs and time of a run: summed over its invocations (RunReport::runTotals) or per
// invocation (RunReport::totals: the sums divided by the invocations, rounded to the nearest).
struct Totals {
  uint64_t cycles = 0;
  uint64_t accel_cycles = 0;  // cycles of layers on the accelerated path
  uint64_t cpu_cycles = 0;    // cycles of layers on the reference path
  uint64_t ref_cycles = 0;    // what every layer would cost on the reference path
  uint64_t macs = 0;
  double seconds = 0.0;  // cycles at the host clock
  // Energy of the layers (energy.h) and of every layer on the reference path, in uJ.
  energy::EnergyBreakdown energy;
  double energy_uj = 0.0;
  double ref_energy_uj = 0.0;
  // The action counts behind `energy`.
  LayerActions actions;
};

// compare mode: the accelerated layer invocations whose output was checked byte for byte against
// the reference kernel's. A difference stops the run (exit 3), so a report's figures all matched.
struct CompareSummary {
  uint32_t layers = 0;  // distinct layers
  uint64_t checks = 0;  // layer invocations
  uint64_t bytes = 0;   // output bytes compared, summed over the checks
};

// The accelerator cores without a share of an offloaded layer, and why.
struct IdleCores {
  std::vector<uint32_t> cores;  // ascending; empty when every core worked (or the CPU ran it)
  std::string why;
};
IdleCores idleCores(const rt::LayerRecord& record, const config::HardwareConfig& config);
// "1-3, 5"
std::string coreList(const std::vector<uint32_t>& cores);

// What the model needs of the microcontroller and of the accelerator's memories.
struct MemoryFootprint {
  rt::ArenaFootprint arena;  // the tensor arena on the 32-bit MCU
  uint64_t model_bytes = 0;
  // The preset's firmware image (kernels and driver) in flash: code, read-only data and the
  // initial values of its data; nullopt for a preset without an image.
  std::optional<uint64_t> firmware_bytes;
  uint64_t device_memory_bytes = 0;       // device memory the driver can allocate (0: not used)
  uint64_t device_memory_peak_bytes = 0;  // reserved by the offloaded layers' buffers
  std::vector<uint64_t> core_sram_peak_bytes;  // per accelerator core: the most any layer used
  uint64_t flashBytes() const { return model_bytes + firmware_bytes.value_or(0); }
};

struct RunReport {
  std::string model_path;
  std::string model_sha256;
  std::string mode;
  std::string config_source;  // path, or "embedded defaults"
  config::HardwareConfig config;
  // The run's system has the accelerator (every mode but ref): its cores leak while it runs.
  bool with_accelerator = true;
  // JSON `layers` and the CSV's rows: the first invocation's records, or every invocation's when
  // per_invocation (LayerCollector::records()).
  std::vector<rt::LayerRecord> layers;
  bool per_invocation = false;
  // Per layer over every invocation (LayerCollector::stats()): the table, the totals and JSON
  // `layer_stats` come from these.
  std::vector<LayerStats> layer_stats;
  uint32_t invocations = 0;
  double host_seconds = 0.0;
  uint64_t simulated_cycles = 0;  // host-clock cycles from start to end of the run
  MemoryFootprint memory;
  // Instructions the host MCU's instruction-set simulator executed (cpu.model iss).
  std::optional<uint64_t> iss_instructions;
  // What the host MCU's flash memory system did over the run (cpu.model iss).
  std::optional<iss::FlashStats> flash;
  std::vector<std::string> notes;  // one-time messages (e.g. planned in memory)
  // Accelerator jobs that failed; each such layer was computed on the CPU instead.
  std::vector<std::string> failures;

  // Per invocation, as the printed table shows: JSON `totals`.
  Totals totals() const;
  // Summed over every invocation of the run: JSON `run_totals`.
  Totals runTotals() const;
  // nullopt unless mode is "compare".
  std::optional<CompareSummary> compareSummary() const;
  // Layers that ran on the CPU because the device memory left could not hold their buffers.
  uint32_t layersWithoutDeviceMemory() const;
  // One warning per figure above its budget (mcu.flash_bytes, mcu.sram_bytes), "warning: ...".
  std::vector<std::string> budgetWarnings() const;
  // A layer's share of the run's cycles, in percent.
  double cyclesPercent(const LayerStats& stats) const;
};

std::string reportJson(const RunReport& report);
std::string reportCsv(const RunReport& report);
// How the printed table is laid out.
struct TableOptions {
  // Columns a line may take; longer reasons are cut to fit and end in "...". 0: no limit (--wide).
  size_t max_columns = 160;
};
void printReport(std::ostream& out, const RunReport& report, const TableOptions& options = {});

// "rows x k -> n" for FULLY_CONNECTED, "[in] -> [out]" otherwise.
std::string shapeText(const rt::LayerRecord& record);

}  // namespace hilsim::report
