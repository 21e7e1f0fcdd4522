#include "resolve.h"

#include <optional>
#include <stdexcept>
#include <vector>

#include "hilsim/energy/energy_params.h"
#include "hilsim/energy/host_mcu.h"
#include "hilsim/errors.h"
#include "hilsim/iss/core_model.h"
#include "keys.h"
#include "text.h"

namespace hilsim::config::detail {
namespace {

void applyGiven(const RawConfig& raw, HardwareConfig& hw) {
  for (const KeySpec& key : keySpecs()) key.apply(raw, hw);
}

double weightMemoryFactor(WeightMemory memory) {
  switch (memory) {
    case WeightMemory::kSram:
      return 0.6;
    case WeightMemory::kExternal:
      return 2.5;
    case WeightMemory::kFlash:
      break;
  }
  return 1.0;
}

// The data cache the model's weights are read through: the flash memory system's data cache, or
// its instruction cache when data goes through it, when the weights are in flash.
timing::WeightCache weightCache(const CpuConfig& cpu) {
  timing::WeightCache cache;
  if (cpu.weight_memory != WeightMemory::kFlash) return cache;
  const iss::FlashOptions& f = cpu.memory.flash;
  cache.line_bytes = f.line_bytes;
  if (f.data_through_icache) {
    cache.lines = f.icache_lines;
    cache.ways = f.icache_ways;
  } else {
    cache.lines = f.dcache_lines;
    cache.ways = f.dcache_ways;
  }
  return cache;
}

// Where a key of the table was given (null: its default); a path the table lacks is a bug here.
const Origin* given(const RawConfig& raw, const std::string& key) {
  if (!findKey(key)) throw std::logic_error("config resolver: no key '" + key + "'");
  return raw.given(key);
}

struct Term {
  std::string key;
  const Origin* origin;  // null: the default
};

// A rule between keys is broken: report it where the first of them was set, and say where the
// others came from.
[[noreturn]] void failRule(const std::string& message, const std::vector<Term>& terms) {
  const Origin* lead = nullptr;
  for (const Term& t : terms) lead = lead ? lead : t.origin;
  std::vector<std::string> notes;
  for (const Term& t : terms) {
    if (t.origin && t.origin->where() == lead->where()) continue;
    notes.push_back(t.key + (t.origin ? " set at " + t.origin->where() : " is the default"));
  }
  fail(lead ? *lead : Origin{}, message + (notes.empty() ? "" : " (" + join(notes, "; ") + ")"));
}

timing::CpuCoefficients presetCoefficients(const RawConfig& raw,
                                           const HardwareConfig& given_values) {
  const CpuConfig& cpu = given_values.cpu;
  try {
    return timing::cpuPreset(cpu.preset, cpu.kernels, cpu.firmware_opt);
  } catch (const ConfigError&) {
    if (cpu.firmware_opt == FirmwareOpt::kOs && cpu.kernels == timing::KernelLibrary::kOptimized)
      failRule(
          "cpu.firmware_opt = 'Os' applies to the reference kernels only: the optimized "
          "library (cpu.kernels = 'optimized') is built at -O2",
          {{"cpu.firmware_opt", given(raw, "cpu.firmware_opt")},
           {"cpu.kernels", given(raw, "cpu.kernels")}});
    if (cpu.firmware_opt == FirmwareOpt::kOs)
      failRule(std::string("cpu.firmware_opt = 'Os' is not available for cpu.preset = '") +
                   cpu.preset +
                   "': -Os cost-model coefficients exist for the presets with an "
                   "instruction-set simulator",
               {{"cpu.firmware_opt", given(raw, "cpu.firmware_opt")},
                {"cpu.preset", given(raw, "cpu.preset")}});
    failRule(
        std::string("cpu.kernels = '") + toString(cpu.kernels) +
            "' is not available for cpu.preset = '" + cpu.preset +
            "': the preset has no cost-model coefficients for that library",
        {{"cpu.kernels", given(raw, "cpu.kernels")}, {"cpu.preset", given(raw, "cpu.preset")}});
  }
}

// cpu.model defaults to the instruction-set simulator where the preset has a timing table; the
// simulator runs the firmware image of cpu.kernels' library.
void resolveCpuModel(const RawConfig& raw, const HardwareConfig& given_values, HardwareConfig& hw) {
  const CpuConfig& cpu = given_values.cpu;
  const std::optional<iss::Core> core = iss::coreForPreset(cpu.preset);
  const bool has_iss = core.has_value();
  const bool iss_possible = has_iss;
  hw.cpu.model = iss_possible ? CpuModel::kIss : CpuModel::kCost;
  // A preset without a timing table has no typical part's memories: 0 wait states, no flash
  // memory system (they apply to iss only).
  const iss::CoreInfo* info = iss::presetInfo(cpu.preset);
  hw.cpu.memory = info ? info->memory : iss::MemoryOptions{};
  if (!given(raw, "cpu.model") && !iss_possible)
    hw.cpu.model_note = std::string("note: cpu.model is cost: ") + "cpu.preset '" + cpu.preset +
                        "' has no instruction timing table" +
                        "; reference and driver cycles come from the cost model";
  if (given(raw, "cpu.model") && cpu.model == CpuModel::kIss && !iss_possible) {
    std::string with_iss;
    for (const std::string& p : timing::cpuPresetNames())
      if (iss::coreForPreset(p)) with_iss += (with_iss.empty() ? "" : ", ") + p;
    failRule("cpu.model = 'iss' needs a preset with a timing table (" + with_iss +
                 "); cpu.preset is '" + cpu.preset + "'",
             {{"cpu.model", given(raw, "cpu.model")}, {"cpu.preset", given(raw, "cpu.preset")}});
  }
}

// Every energy figure defaults to its preset's: the technology's at the configured geometry, the
// host MCU's of energy.host.preset, which follows cpu.preset.
void resolveEnergy(const RawConfig& raw, const HardwareConfig& given_values, HardwareConfig& hw) {
  const std::string host =
      given(raw, "energy.host.preset") ? given_values.energy.host.preset : given_values.cpu.preset;
  energy::HostMcu mcu;
  try {
    mcu = energy::hostMcu(host);
  } catch (const ConfigError& e) {
    failRule(std::string("energy.host.preset: ") + e.what(),
             {{"energy.host.preset", given(raw, "energy.host.preset")},
              {"cpu.preset", given(raw, "cpu.preset")}});
  }
  energy::Technology t = energy::technology(given_values.energy.preset);
  if (given(raw, "energy.area.sram_array_efficiency"))
    t.sram_array_efficiency = given_values.energy.area.sram_array_efficiency;
  if (given(raw, "energy.area.control_fraction"))
    t.control_fraction = given_values.energy.area.control_fraction;
  const energy::AcceleratorEnergyParams a = energy::acceleratorEnergyParams(
      t, acceleratorGeometry(given_values), given_values.energy.power_gating);
  EnergyConfig& e = hw.energy;
  e.mac_pj = a.mac_pj;
  e.sram_read_pj_per_byte = a.sram_read_pj_per_byte;
  e.sram_write_pj_per_byte = a.sram_write_pj_per_byte;
  e.dma_pj_per_byte = a.dma_pj_per_byte;
  e.bus_pj_per_beat = a.bus_pj_per_beat;
  e.register_access_pj = a.register_access_pj;
  e.system_memory_read_pj_per_byte = a.system_memory_read_pj_per_byte;
  e.system_memory_write_pj_per_byte = a.system_memory_write_pj_per_byte;
  e.sram_leakage_uw_per_kib = a.sram_leakage_uw_per_kib;
  e.pe_leakage_uw = a.pe_leakage_uw;
  e.area.sram_array_efficiency = t.sram_array_efficiency;
  e.area.control_fraction = t.control_fraction;
  e.host.preset = host;
  e.host.run_ua_per_mhz = mcu.run_ua_per_mhz;
  e.host.sleep_ua_per_mhz = mcu.sleep_ua_per_mhz;
  e.host.supply_v = mcu.supply_v;
  e.host.flash_line_read_pj = mcu.flash_line_read_pj;
  e.host.sram_access_pj = mcu.sram_access_pj;
}

void checkRules(const RawConfig& raw, const HardwareConfig& hw) {
  if (hw.accel.dma.max_burst_bytes < hw.bus.width_bytes) {
    failRule("accel.dma.max_burst_bytes = " + std::to_string(hw.accel.dma.max_burst_bytes) +
                 " is smaller than bus.width_bytes = " + std::to_string(hw.bus.width_bytes) +
                 ": a burst must fill at least one bus beat",
             {{"accel.dma.max_burst_bytes", given(raw, "accel.dma.max_burst_bytes")},
              {"bus.width_bytes", given(raw, "bus.width_bytes")}});
  }
  const iss::FlashOptions& flash = hw.cpu.memory.flash;
  const auto cache = [&](const char* name, uint32_t lines, uint32_t ways) {
    if (lines == 0) return;
    const uint32_t sets = lines / ways;
    if (ways > lines || lines % ways != 0 || (sets & (sets - 1)) != 0) {
      const std::string key = std::string("cpu.flash.") + name;
      failRule(key + "_lines = " + std::to_string(lines) + " and " + key +
                   "_ways = " + std::to_string(ways) +
                   " do not make a power-of-two number of sets (lines / ways)",
               {{key + "_lines", given(raw, key + "_lines")},
                {key + "_ways", given(raw, key + "_ways")}});
    }
  };
  cache("icache", flash.icache_lines, flash.icache_ways);
  cache("dcache", flash.dcache_lines, flash.dcache_ways);
  if (flash.data_through_icache && flash.icache_lines == 0)
    failRule(
        "cpu.flash.data_through_icache = true needs an instruction cache, and "
        "cpu.flash.icache_lines is 0",
        {{"cpu.flash.data_through_icache", given(raw, "cpu.flash.data_through_icache")},
         {"cpu.flash.icache_lines", given(raw, "cpu.flash.icache_lines")}});
  if (flash.data_through_icache && flash.dcache_lines != 0)
    failRule(
        "cpu.flash.data_through_icache = true sends data loads to the instruction cache, "
        "so cpu.flash.dcache_lines must be 0 (it is " +
            std::to_string(flash.dcache_lines) + ")",
        {{"cpu.flash.data_through_icache", given(raw, "cpu.flash.data_through_icache")},
         {"cpu.flash.dcache_lines", given(raw, "cpu.flash.dcache_lines")}});
  const CoreConfig& core = hw.accel.core;
  const uint64_t tile_bytes = uint64_t{core.array_rows} * core.array_cols;  // int8 weights
  if (core.sram_bytes < tile_bytes) {
    failRule(
        "accel.core.sram_bytes = " + std::to_string(core.sram_bytes) +
            " cannot hold one weight tile of accel.core.array_rows x accel.core.array_cols = " +
            std::to_string(core.array_rows) + " x " + std::to_string(core.array_cols) + " = " +
            std::to_string(tile_bytes) + " bytes",
        {{"accel.core.sram_bytes", given(raw, "accel.core.sram_bytes")},
         {"accel.core.array_rows", given(raw, "accel.core.array_rows")},
         {"accel.core.array_cols", given(raw, "accel.core.array_cols")}});
  }
}

}  // namespace

HardwareConfig resolve(const RawConfig& raw) {
  // The first pass checks every given value and yields the ones that other defaults derive from;
  // the second writes the given values over those derived defaults.
  HardwareConfig given_values;
  applyGiven(raw, given_values);

  HardwareConfig hw;
  hw.accel.dma.channels = given_values.accel.num_cores;
  hw.cpu.clock_mhz = timing::cpuPresetClockMhz(given_values.cpu.preset);
  hw.cpu.coefficients = presetCoefficients(raw, given_values);
  hw.cpu.coefficients.weight_memory_factor = weightMemoryFactor(given_values.cpu.weight_memory);
  const timing::CpuDriverCycles driver = timing::cpuPresetDriver(given_values.cpu.preset);
  hw.cpu.driver_job_cycles = driver.job_cycles;
  hw.cpu.driver_reg_cycles = driver.reg_cycles;
  hw.cpu.irq_handler_cycles = driver.irq_handler_cycles;
  resolveCpuModel(raw, given_values, hw);
  resolveEnergy(raw, given_values, hw);
  applyGiven(raw, hw);
  hw.cpu.coefficients.weight_cache = weightCache(hw.cpu);

  checkRules(raw, hw);
  return hw;
}

}  // namespace hilsim::config::detail
