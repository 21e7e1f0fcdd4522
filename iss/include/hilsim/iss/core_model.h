#pragma once
// The CPU cores the ISS executes, keyed by hilsim's CPU preset names: the one table of which
// presets have an instruction-set simulator (the configuration's cpu.model default, the firmware
// images, `cpu-run` and `calibrate` all ask it), with the Unicorn engine configuration of each and
// the memory wait states and flash memory system of the preset's typical part, the defaults of
// cpu.flash_wait_states, cpu.sram_wait_states and cpu.flash.* (iss/README.md names the parts).
// Needs no Unicorn at run time: the configuration links it alone (hilsim_iss_cores).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hilsim/iss/memory_options.h"

namespace hilsim::iss {

enum class Core { kCortexM0Plus, kCortexM4F, kCortexM33, kRv32im };

// The sizes of a core's branch predictor (E31 only; 0 on the Arm cores, whose timing tables
// charge branches without one): entries of the branch history table (a power of two), of the
// branch target buffer and of the return-address stack.
struct BranchPredictorOptions {
  uint32_t history_entries = 0;
  uint32_t target_entries = 0;
  uint32_t return_stack_entries = 0;

  bool operator==(const BranchPredictorOptions& o) const {
    return history_entries == o.history_entries && target_entries == o.target_entries &&
           return_stack_entries == o.return_stack_entries;
  }
};

// The Unicorn configuration of a core (values of uc_arch, uc_mode and the uc_cpu_* model).
struct EngineConfig {
  int arch = 0;
  int mode = 0;
  int cpu_model = 0;
};

struct CoreInfo {
  Core core;
  const char* preset;  // hilsim's CPU preset name, e.g. "cortex-m4f"
  EngineConfig engine;
  bool thumb = false;  // Arm Thumb (return addresses and entry points carry bit 0)
  // Exception entry and exit, in core cycles (charged by Cpu::callInterrupt).
  uint32_t exception_entry_cycles = 0;
  uint32_t exception_exit_cycles = 0;
  // The typical part's memories at the preset's clock: wait states and the flash memory system
  // (iss/README.md, "Flash memory system").
  MemoryOptions memory;
  // The part's branch predictor (iss/README.md, "rv32im on the SiFive E31").
  BranchPredictorOptions branch_predictor;
};

// The row of a CPU preset with an ISS: a core preset (cortex-m4f) or a board preset (stm32l4r5:
// its core's row with the board's name and memories); nullptr for presets without an ISS.
const CoreInfo* presetInfo(const std::string& preset);
// The core of a CPU preset; nullopt for presets without an ISS (e.g. cortex-m7, cortex-m55).
std::optional<Core> coreForPreset(const std::string& preset);
// The row of a core's own preset (cortex-m4f for Core::kCortexM4F).
const CoreInfo& coreInfo(Core core);
// The preset names that have an ISS (core presets, then board presets), in a stable order.
std::vector<std::string> issPresetNames();
// The core presets only: one per core, each with a firmware image that its board presets share.
std::vector<std::string> corePresetNames();

}  // namespace hilsim::iss
