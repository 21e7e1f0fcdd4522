#include "resolve.h"

#include <optional>
#include <vector>

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

template <class T>
const Origin* given(const Opt<T>& value) {
  return value.value ? &value.origin : nullptr;
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
    return timing::cpuPreset(cpu.preset, cpu.kernels);
  } catch (const ConfigError&) {
    failRule(std::string("cpu.kernels = '") + toString(cpu.kernels) +
                 "' is not available for cpu.preset = '" + cpu.preset +
                 "': the preset has no cost-model coefficients for that library",
             {{"cpu.kernels", given(raw.cpu.kernels)}, {"cpu.preset", given(raw.cpu.preset)}});
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
  if (core) {
    hw.cpu.flash_wait_states = iss::coreInfo(*core).flash_wait_states;
    hw.cpu.sram_wait_states = iss::coreInfo(*core).sram_wait_states;
  }
  // The default preset (documented as cost in default.yaml) runs without the note.
  const bool default_core =
      cpu.preset == CpuConfig{}.preset && cpu.kernels == timing::KernelLibrary::kReference;
  if (!raw.cpu.model.value && !iss_possible && !default_core)
    hw.cpu.model_note =
        std::string("note: cpu.model is cost: ") +
        "cpu.preset '" + cpu.preset + "' has no instruction timing table" +
        "; reference and driver cycles come from the cost model";
  if (raw.cpu.model.value && cpu.model == CpuModel::kIss && !iss_possible) {
    std::string with_iss;
    for (const std::string& p : timing::cpuPresetNames())
      if (iss::coreForPreset(p)) with_iss += (with_iss.empty() ? "" : ", ") + p;
    failRule("cpu.model = 'iss' needs a preset with a timing table (" + with_iss +
                 "); cpu.preset is '" + cpu.preset + "'",
             {{"cpu.model", given(raw.cpu.model)}, {"cpu.preset", given(raw.cpu.preset)}});
  }
}

void checkRules(const RawConfig& raw, const HardwareConfig& hw) {
  if (hw.accel.dma.max_burst_bytes < hw.bus.width_bytes) {
    failRule("accel.dma.max_burst_bytes = " + std::to_string(hw.accel.dma.max_burst_bytes) +
                 " is smaller than bus.width_bytes = " + std::to_string(hw.bus.width_bytes) +
                 ": a burst must fill at least one bus beat",
             {{"accel.dma.max_burst_bytes", given(raw.accel.dma.max_burst_bytes)},
              {"bus.width_bytes", given(raw.bus.width_bytes)}});
  }
  const CoreConfig& core = hw.accel.core;
  const uint64_t tile_bytes = uint64_t{core.array_rows} * core.array_cols;  // int8 weights
  if (core.sram_bytes < tile_bytes) {
    failRule(
        "accel.core.sram_bytes = " + std::to_string(core.sram_bytes) +
            " cannot hold one weight tile of accel.core.array_rows x accel.core.array_cols = " +
            std::to_string(core.array_rows) + " x " + std::to_string(core.array_cols) + " = " +
            std::to_string(tile_bytes) + " bytes",
        {{"accel.core.sram_bytes", given(raw.accel.core.sram_bytes)},
         {"accel.core.array_rows", given(raw.accel.core.array_rows)},
         {"accel.core.array_cols", given(raw.accel.core.array_cols)}});
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
  resolveCpuModel(raw, given_values, hw);
  applyGiven(raw, hw);

  checkRules(raw, hw);
  return hw;
}

}  // namespace hilsim::config::detail
