// Per-preset engine configuration and defaults. Every number is derived in iss/README.md and, for
// the board presets, configs/README.md ("Board presets").
// Flash wait states of the typical part at the preset's clock (iss/README.md, "Wait states"):
// STM32G0 at 48 MHz (RM0444), STM32L4R5 at 120 MHz (RM0432), STM32U5 at 128 MHz (RM0456); the
// E31's ITIM and DTIM have none, and every part's SRAM runs at the core clock.
// Their flash memory systems (iss/README.md, "Flash memory system"): the STM32G0's prefetch and
// 2 x 64-bit instruction cache (RM0444), the STM32L4R5's ART accelerator with 1 KB of instruction
// and 256 bytes of data cache in 64-bit lines, prefetch off as ST's HAL leaves it (RM0432), the
// STM32U5's 8 KB 2-way ICACHE of 16-byte lines on the code bus, which serves literal and constant
// loads too (RM0456), and the FE310's 16 KB 2-way instruction cache of 32-byte lines (FE310-G002
// manual).

#include "hilsim/iss/core_model.h"

#include <unicorn/unicorn.h>

namespace hilsim::iss {
namespace {

constexpr int kArmMClass = UC_MODE_THUMB | UC_MODE_MCLASS;

// Flash memory systems: line bytes, prefetch, instruction cache lines and ways, data cache lines
// and ways, data loads through the instruction cache.
constexpr FlashOptions kStm32g0Flash{8, true, 2, 2, 0, 1, false};
constexpr FlashOptions kStm32l4Art{8, false, 128, 4, 32, 4, false};
constexpr FlashOptions kStm32u5Icache{16, true, 512, 2, 0, 1, true};
constexpr FlashOptions kFe310Icache{32, false, 512, 2, 0, 1, false};
// Branch predictors: the E31 Core Complex's (E31 manual v2p0, 3.2 "Instruction Fetch Unit") and
// the FE310-G002's E31 (FE310-G002 manual, "E31 RISC-V Core", Instruction Fetch Unit): history
// table, target buffer and return-address stack entries.
constexpr BranchPredictorOptions kE31CoreComplexPredictor{512, 28, 6};
constexpr BranchPredictorOptions kFe310Predictor{128, 40, 2};
// The Arm cores: their timing tables charge branches without a predictor.
constexpr BranchPredictorOptions kNoPredictor{};
// nRF5340 application core: 8 KB 2-way cache of 128-bit lines for instruction and data accesses
// to flash (nRF5340 PS, "CACHE"); no prefetch is documented.
constexpr FlashOptions kNrf5340Cache{16, false, 512, 2, 0, 1, true};
// RA6M4: Renesas' FSP enables its code flash cache (FCACHE) and documents no flash prefetch
// buffer (bsp_feature.h). The cache's size and line are not in the sources found: the nRF5340's
// documented cache stands in (configs/README.md, "Board presets").
constexpr FlashOptions kRa6m4FlashCache = kNrf5340Cache;

// A board preset: its core's row under the board's name; withWaitStates, withFlash and
// withPredictor state where the board's memories and branch predictor differ from its core's
// typical part.
CoreInfo board(CoreInfo core, const char* preset) {
  core.preset = preset;
  return core;
}

CoreInfo withWaitStates(CoreInfo info, uint32_t flash_wait_states) {
  info.memory.flash_wait_states = flash_wait_states;
  return info;
}

CoreInfo withSramWaitStates(CoreInfo info, uint32_t sram_wait_states, bool on_stores) {
  info.memory.sram_wait_states = sram_wait_states;
  info.memory.sram_store_waits = on_stores;
  return info;
}

CoreInfo withFlash(CoreInfo info, const FlashOptions& flash) {
  info.memory.flash = flash;
  return info;
}

CoreInfo withPredictor(CoreInfo info, const BranchPredictorOptions& predictor) {
  info.branch_predictor = predictor;
  return info;
}

const std::vector<CoreInfo>& table() {
  static const std::vector<CoreInfo> rows = [] {
    // Exception entry 15 (Cortex-M0+ TRM 3.6.1); exit 11 is an estimate (POP of 8 words with PC).
    const CoreInfo m0plus{Core::kCortexM0Plus,
                          "cortex-m0plus",
                          {UC_ARCH_ARM, kArmMClass, UC_CPU_ARM_CORTEX_M0},
                          true,
                          15,
                          11,
                          {1, 0, kStm32g0Flash},
                          kNoPredictor};
    // Exception entry 12, exit 10 (Cortex-M4 TRM; without FPU context stacking).
    const CoreInfo m4f{Core::kCortexM4F,
                       "cortex-m4f",
                       {UC_ARCH_ARM, kArmMClass, UC_CPU_ARM_CORTEX_M4},
                       true,
                       12,
                       10,
                       {5, 0, kStm32l4Art},
                       kNoPredictor};
    // Exception entry and exit as Cortex-M4.
    const CoreInfo m33{Core::kCortexM33,
                       "cortex-m33",
                       {UC_ARCH_ARM, kArmMClass, UC_CPU_ARM_CORTEX_M33},
                       true,
                       12,
                       10,
                       {3, 0, kStm32u5Icache},
                       kNoPredictor};
    // SiFive E31. Exception entry: 4 cycles of interrupt latency plus 16 stores of a trap
    // wrapper; exit: 16 loads, mret and its refill.
    const CoreInfo rv{Core::kRv32im,
                      "rv32im",
                      {UC_ARCH_RISCV, UC_MODE_RISCV32, UC_CPU_RISCV32_SIFIVE_E31},
                      false,
                      20,
                      20,
                      {0, 0, kFe310Icache},
                      kE31CoreComplexPredictor};
    // The core presets first: coreInfo(core) is a core's first row. Board presets, each its
    // core's row with only what differs (clock in timing/src/cpu_presets.cpp; sources in
    // configs/README.md, "Board presets"); the STM32L4R5 is the cortex-m4f row's own part, the
    // nRF5340 runs at the cortex-m33 row's 3 wait states with its own cache:
    // STM32G0B1 at 64 MHz: 2 wait states (RM0444, range 1 above 48 MHz); STM32L4R5 at 120 MHz: 5
    // (RM0432, range 1 boost); nRF5340 application core at 128 MHz: 3 (estimate, see
    // configs/README.md); STM32U575 at 160 MHz: 4 (RM0456, range 1 above 128 MHz); RA6M4 at
    // 200 MHz: 3 (FLWT above 150 MHz) and one SRAM wait state on reads (SRAMWTSC left on above
    // 100 MHz), as Renesas' FSP sets them; FE310-G002 at 320 MHz: 336 per 32-byte line from its
    // QSPI flash (quad I/O read at SCK = core / 4, configs/README.md).
    return std::vector<CoreInfo>{
        m0plus,
        m4f,
        m33,
        rv,
        withWaitStates(board(m0plus, "stm32g0b1"), 2),
        board(m4f, "stm32l4r5"),
        withFlash(board(m33, "nrf5340"), kNrf5340Cache),
        withWaitStates(board(m33, "stm32u575"), 4),
        withSramWaitStates(withFlash(board(m33, "ra6m4"), kRa6m4FlashCache), 1, false),
        withPredictor(withWaitStates(board(rv, "fe310"), 336), kFe310Predictor),
    };
  }();
  return rows;
}

}  // namespace

const CoreInfo* presetInfo(const std::string& preset) {
  for (const CoreInfo& info : table())
    if (preset == info.preset) return &info;
  return nullptr;
}

std::optional<Core> coreForPreset(const std::string& preset) {
  const CoreInfo* info = presetInfo(preset);
  if (!info) return std::nullopt;
  return info->core;
}

const CoreInfo& coreInfo(Core core) {
  for (const CoreInfo& info : table())
    if (info.core == core) return info;
  return table()[0];
}

std::vector<std::string> issPresetNames() {
  std::vector<std::string> names;
  for (const CoreInfo& info : table()) names.push_back(info.preset);
  return names;
}

std::vector<std::string> corePresetNames() {
  std::vector<std::string> names;
  for (const CoreInfo& info : table())
    if (&coreInfo(info.core) == &info) names.push_back(info.preset);
  return names;
}

}  // namespace hilsim::iss
