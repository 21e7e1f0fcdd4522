// Built-in defaults, the bundled configs, CPU presets, derived defaults and the YAML round trip.

#include <gtest/gtest.h>

#include "config_test_util.h"
#include "hilsim/config/loader.h"
#include "hilsim/timing/cpu_cost_model.h"

namespace hilsim::test {
namespace {

using config::CpuModel;
using config::HardwareConfig;
using config::loadConfig;
using config::toYaml;
using timing::KernelLibrary;

void expectCoefficientsEq(const timing::CpuCoefficients& a, const timing::CpuCoefficients& b) {
  EXPECT_EQ(a.fc_per_mac, b.fc_per_mac);
  EXPECT_EQ(a.fc_per_output, b.fc_per_output);
  EXPECT_EQ(a.fc_per_call, b.fc_per_call);
  EXPECT_EQ(a.fc_per_weight_read, b.fc_per_weight_read);
  EXPECT_EQ(a.fc_per_tail_mac, b.fc_per_tail_mac);
  EXPECT_EQ(a.fc_first_call, b.fc_first_call);
  EXPECT_EQ(a.fc_float_first_call, b.fc_float_first_call);
  EXPECT_EQ(a.fc_path_first_call, b.fc_path_first_call);
  EXPECT_EQ(a.conv_first_call, b.conv_first_call);
  EXPECT_EQ(a.dwconv_first_call, b.dwconv_first_call);
  EXPECT_EQ(a.svdf_first_call, b.svdf_first_call);
  EXPECT_EQ(a.lstm_first_call, b.lstm_first_call);
  EXPECT_EQ(a.reshape_first_call, b.reshape_first_call);
  EXPECT_EQ(a.op_first_call, b.op_first_call);
  EXPECT_EQ(a.fc_float_per_mac, b.fc_float_per_mac);
  EXPECT_EQ(a.fc_float_per_zero_mac, b.fc_float_per_zero_mac);
  EXPECT_EQ(a.fc_float_per_output, b.fc_float_per_output);
  EXPECT_EQ(a.fc_float_per_call, b.fc_float_per_call);
  EXPECT_EQ(a.conv1x1_per_mac, b.conv1x1_per_mac);
  EXPECT_EQ(a.conv_per_mac, b.conv_per_mac);
  EXPECT_EQ(a.conv_per_output, b.conv_per_output);
  EXPECT_EQ(a.conv_per_call, b.conv_per_call);
  EXPECT_EQ(a.conv_per_tap, b.conv_per_tap);
  EXPECT_EQ(a.conv_per_padded_mac, b.conv_per_padded_mac);
  EXPECT_EQ(a.conv_per_patch_element, b.conv_per_patch_element);
  EXPECT_EQ(a.conv_per_pixel_tap, b.conv_per_pixel_tap);
  EXPECT_EQ(a.conv_per_tail_mac, b.conv_per_tail_mac);
  EXPECT_EQ(a.conv_per_unaligned_load, b.conv_per_unaligned_load);
  EXPECT_EQ(a.dwconv_per_mac, b.dwconv_per_mac);
  EXPECT_EQ(a.dwconv_per_call, b.dwconv_per_call);
  EXPECT_EQ(a.dwconv_per_tap, b.dwconv_per_tap);
  EXPECT_EQ(a.dwconv_per_row, b.dwconv_per_row);
  EXPECT_EQ(a.dwconv_per_output, b.dwconv_per_output);
  EXPECT_EQ(a.dwconv_per_scalar_mac, b.dwconv_per_scalar_mac);
  EXPECT_EQ(a.dwconv_per_pixel, b.dwconv_per_pixel);
  EXPECT_EQ(a.dwconv_per_general_pixel, b.dwconv_per_general_pixel);
  EXPECT_EQ(a.dwconv_per_quad, b.dwconv_per_quad);
  EXPECT_EQ(a.dwconv_per_quad_row, b.dwconv_per_quad_row);
  EXPECT_EQ(a.dwconv_per_scalar_channel, b.dwconv_per_scalar_channel);
  EXPECT_EQ(a.dwconv_per_scalar_row, b.dwconv_per_scalar_row);
  EXPECT_EQ(a.dwconv_per_quad_pixel, b.dwconv_per_quad_pixel);
  EXPECT_EQ(a.pool_per_element, b.pool_per_element);
  EXPECT_EQ(a.softmax_per_element, b.softmax_per_element);
  EXPECT_EQ(a.quantize_per_element, b.quantize_per_element);
  EXPECT_EQ(a.quantize_float_per_element, b.quantize_float_per_element);
  EXPECT_EQ(a.dequantize_per_element, b.dequantize_per_element);
  EXPECT_EQ(a.reshape_per_call, b.reshape_per_call);
  EXPECT_EQ(a.reshape_per_byte, b.reshape_per_byte);
  EXPECT_EQ(a.op_per_call, b.op_per_call);
  EXPECT_EQ(a.svdf_per_feature_mac, b.svdf_per_feature_mac);
  EXPECT_EQ(a.svdf_per_time_mac, b.svdf_per_time_mac);
  EXPECT_EQ(a.svdf_state_per_byte, b.svdf_state_per_byte);
  EXPECT_EQ(a.svdf_per_filter, b.svdf_per_filter);
  EXPECT_EQ(a.svdf_per_unit, b.svdf_per_unit);
  EXPECT_EQ(a.svdf_per_call, b.svdf_per_call);
  EXPECT_EQ(a.add_per_element, b.add_per_element);
  EXPECT_EQ(a.mul_per_element, b.mul_per_element);
  EXPECT_EQ(a.minmax_per_element, b.minmax_per_element);
  EXPECT_EQ(a.activation_per_element, b.activation_per_element);
  EXPECT_EQ(a.hard_swish_per_element, b.hard_swish_per_element);
  EXPECT_EQ(a.copy_per_element, b.copy_per_element);
  EXPECT_EQ(a.mean_per_element, b.mean_per_element);
  EXPECT_EQ(a.pool_per_call, b.pool_per_call);
  EXPECT_EQ(a.maxpool_per_element, b.maxpool_per_element);
  EXPECT_EQ(a.maxpool_per_output, b.maxpool_per_output);
  EXPECT_EQ(a.maxpool_per_call, b.maxpool_per_call);
  EXPECT_EQ(a.pool_per_row, b.pool_per_row);
  EXPECT_EQ(a.maxpool_per_row, b.maxpool_per_row);
  EXPECT_EQ(a.softmax_per_call, b.softmax_per_call);
  EXPECT_EQ(a.add_per_call, b.add_per_call);
  EXPECT_EQ(a.mul_per_call, b.mul_per_call);
  EXPECT_EQ(a.lstm_per_mac, b.lstm_per_mac);
  EXPECT_EQ(a.lstm_per_recurrent_mac, b.lstm_per_recurrent_mac);
  EXPECT_EQ(a.lstm_per_unaligned_load, b.lstm_per_unaligned_load);
  EXPECT_EQ(a.lstm_per_tail_mac, b.lstm_per_tail_mac);
  EXPECT_EQ(a.lstm_cell_per_element, b.lstm_cell_per_element);
  EXPECT_EQ(a.lstm_per_step, b.lstm_per_step);
  EXPECT_EQ(a.lstm_per_call, b.lstm_per_call);
  EXPECT_EQ(a.reduction_multiple, b.reduction_multiple);
  EXPECT_EQ(a.weight_memory_factor, b.weight_memory_factor);
}

TEST(ConfigDefaults, BuiltInDefaultsAreTheHeaderDefaults) {
  const HardwareConfig c = loadConfig("");
  const HardwareConfig h;
  EXPECT_EQ(c.accel.num_cores, h.accel.num_cores);
  EXPECT_EQ(c.accel.clock_mhz, h.accel.clock_mhz);
  EXPECT_EQ(c.accel.core.array_rows, h.accel.core.array_rows);
  EXPECT_EQ(c.accel.core.array_cols, h.accel.core.array_cols);
  EXPECT_EQ(c.accel.core.dataflow, h.accel.core.dataflow);
  EXPECT_EQ(c.accel.core.sram_bytes, h.accel.core.sram_bytes);
  EXPECT_EQ(c.accel.core.startup_cycles, h.accel.core.startup_cycles);
  EXPECT_EQ(c.accel.core.double_buffer, h.accel.core.double_buffer);
  EXPECT_EQ(c.accel.dma.setup_cycles, h.accel.dma.setup_cycles);
  EXPECT_EQ(c.accel.dma.max_burst_bytes, h.accel.dma.max_burst_bytes);
  EXPECT_EQ(c.accel.dma.channels, h.accel.dma.channels);
  EXPECT_EQ(c.accel.irq_latency_cycles, h.accel.irq_latency_cycles);
  EXPECT_EQ(c.accel.reg_access_cycles, h.accel.reg_access_cycles);
  EXPECT_EQ(c.bus.width_bytes, h.bus.width_bytes);
  EXPECT_EQ(c.bus.clock_mhz, h.bus.clock_mhz);
  EXPECT_EQ(c.bus.latency_cycles, h.bus.latency_cycles);
  EXPECT_EQ(c.bus.arbitration, h.bus.arbitration);
  EXPECT_EQ(c.memory.size_bytes, h.memory.size_bytes);
  EXPECT_EQ(c.memory.latency_cycles, h.memory.latency_cycles);
  EXPECT_EQ(c.memory.bytes_per_cycle, h.memory.bytes_per_cycle);
  EXPECT_EQ(c.cpu.preset, h.cpu.preset);
  EXPECT_EQ(c.cpu.kernels, h.cpu.kernels);
  EXPECT_EQ(c.cpu.clock_mhz, h.cpu.clock_mhz);
  EXPECT_EQ(c.cpu.weight_memory, h.cpu.weight_memory);
  EXPECT_EQ(c.cpu.driver_job_cycles, h.cpu.driver_job_cycles);
  EXPECT_EQ(c.cpu.driver_reg_cycles, h.cpu.driver_reg_cycles);
  EXPECT_EQ(c.cpu.irq_handler_cycles, h.cpu.irq_handler_cycles);
  EXPECT_EQ(c.cpu.model, h.cpu.model);
  EXPECT_TRUE(c.cpu.memory == h.cpu.memory);
  expectCoefficientsEq(c.cpu.coefficients,
                       timing::cpuPreset("cortex-m4f", KernelLibrary::kReference));
  EXPECT_EQ(c.sim.quantum_ns, h.sim.quantum_ns);
  EXPECT_EQ(c.sim.log_level, h.sim.log_level);
  EXPECT_EQ(c.sim.watchdog_cycles, h.sim.watchdog_cycles);
  EXPECT_EQ(c.sim.fault, h.sim.fault);
  EXPECT_EQ(c.sim.fault_at_job, h.sim.fault_at_job);
  EXPECT_EQ(c.sim.transaction_bytes, h.sim.transaction_bytes);
  // The header's derived defaults agree with the rules that derive them.
  EXPECT_EQ(h.accel.dma.channels, h.accel.num_cores);
  EXPECT_EQ(h.cpu.clock_mhz, timing::cpuPresetClockMhz(h.cpu.preset));
  // The default host CPU executes its kernels and driver on the instruction-set simulator.
  EXPECT_EQ(c.cpu.model, CpuModel::kIss);
  EXPECT_EQ(h.cpu.driver_job_cycles, timing::cpuPresetDriver(h.cpu.preset).job_cycles);
  EXPECT_EQ(h.cpu.irq_handler_cycles, timing::cpuPresetDriver(h.cpu.preset).irq_handler_cycles);
}

TEST(ConfigDefaults, DefaultYamlResolvesToTheBuiltInDefaults) {
  EXPECT_EQ(toYaml(loadConfig(sourcePath("configs/default.yaml"))), toYaml(loadConfig("")));
}

TEST(ConfigDefaults, BundledMultiCoreConfigs) {
  struct Case {
    const char* file;
    uint32_t cores, bus_width, bytes_per_cycle;
  };
  for (const Case& c : {Case{"m1.yaml", 1, 16, 16}, Case{"m4.yaml", 4, 16, 16},
                        Case{"m8.yaml", 8, 32, 32}, Case{"m16.yaml", 16, 64, 64}}) {
    SCOPED_TRACE(c.file);
    const HardwareConfig hw = loadConfig(sourcePath(std::string("configs/") + c.file));
    EXPECT_EQ(hw.accel.num_cores, c.cores);
    EXPECT_EQ(hw.accel.dma.channels, c.cores);
    EXPECT_EQ(hw.bus.width_bytes, c.bus_width);
    EXPECT_EQ(hw.memory.bytes_per_cycle, c.bytes_per_cycle);
    EXPECT_EQ(hw.accel.core.sram_bytes, HardwareConfig{}.accel.core.sram_bytes);
  }
}

TEST(ConfigDefaults, EveryCpuPresetAndKernelLibrary) {
  for (const std::string& preset : timing::cpuPresetNames()) {
    for (const auto library : {KernelLibrary::kReference, KernelLibrary::kOptimized}) {
      const std::string kernels = config::toString(library);
      SCOPED_TRACE(preset + " " + kernels);
      const std::vector<config::Override> sets = {{"cpu.preset=" + preset},
                                                  {"cpu.kernels=" + kernels}};
      const HardwareConfig hw = loadConfig("", sets);
      EXPECT_EQ(hw.cpu.preset, preset);
      EXPECT_EQ(hw.cpu.kernels, library);
      EXPECT_EQ(hw.cpu.clock_mhz, timing::cpuPresetClockMhz(preset));
      expectCoefficientsEq(hw.cpu.coefficients, timing::cpuPreset(preset, library));
    }
  }
}

// The presets with an instruction-set simulator run it by default, at their typical part's wait
// states; the others use the cost model.
TEST(ConfigDefaults, PresetsWithAnIssDefaultToItAtTheirPartsWaitStates) {
  struct Case {
    std::string preset;
    CpuModel model;
    uint32_t flash_wait_states;
    uint32_t sram_wait_states = 0;
    bool sram_store_waits = true;
  };
  const std::vector<Case> cases = {
      {"cortex-m0plus", CpuModel::kIss, 1},
      {"cortex-m33", CpuModel::kIss, 3},
      {"cortex-m4f", CpuModel::kIss, 5},
      {"cortex-m55", CpuModel::kCost, 0},
      {"cortex-m55-helium", CpuModel::kCost, 0},
      {"cortex-m7", CpuModel::kCost, 0},
      {"fe310", CpuModel::kIss, 336},
      {"nrf5340", CpuModel::kIss, 3},
      {"ra6m4", CpuModel::kIss, 3, 1},
      {"rv32im", CpuModel::kIss, 0},
      {"stm32g0b1", CpuModel::kIss, 2},
      {"stm32l4r5", CpuModel::kIss, 5},
      {"stm32u575", CpuModel::kIss, 4},
  };
  std::vector<std::string> covered;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.preset);
    const HardwareConfig hw = withSets({"cpu.preset=" + c.preset});
    EXPECT_EQ(hw.cpu.model, c.model);
    EXPECT_EQ(hw.cpu.memory.flash_wait_states, c.flash_wait_states);
    EXPECT_EQ(hw.cpu.memory.sram_wait_states, c.sram_wait_states);
    covered.push_back(c.preset);
  }
  EXPECT_EQ(covered, timing::cpuPresetNames());
}

// A board preset is its core's timing and coefficients at the part's clock, wait states and flash
// memory system (configs/README.md, "Board presets").
// cpu.sram_store_waits follows the preset unless it is given.
TEST(ConfigDefaults, SramStoreWaitsFollowThePresetUnlessGiven) {
  EXPECT_TRUE(withSets({"cpu.preset=cortex-m33"}).cpu.memory.sram_store_waits);
  EXPECT_FALSE(withSets({"cpu.preset=ra6m4"}).cpu.memory.sram_store_waits);
  EXPECT_TRUE(
      withSets({"cpu.preset=ra6m4", "cpu.sram_store_waits=true"}).cpu.memory.sram_store_waits);
  EXPECT_FALSE(withSets({"cpu.sram_store_waits=false"}).cpu.memory.sram_store_waits);
}

TEST(ConfigDefaults, BoardPresetsResolveToTheirPart) {
  struct Case {
    std::string board, core;
    double clock_mhz;
    uint32_t flash_wait_states;
    iss::FlashOptions flash;
    bool own_calibration;  // else the core's coefficients
    bool own_optimized;    // the optimized kernels' figures too
    uint32_t sram_wait_states = 0;
    bool sram_store_waits = true;
  };
  const std::vector<Case> cases = {
      {"stm32g0b1", "cortex-m0plus", 64, 2, {8, true, 2, 2, 0, 1, false}, true, true},
      {"stm32l4r5", "cortex-m4f", 120, 5, {8, false, 128, 4, 32, 4, false}, false, false},
      {"nrf5340", "cortex-m33", 128, 3, {16, false, 512, 2, 0, 1, true}, true, true},
      {"stm32u575", "cortex-m33", 160, 4, {16, true, 512, 2, 0, 1, true}, false, true},
      // SRAMWTSC: one wait state on SRAM0 reads, none on writes.
      {"ra6m4", "cortex-m33", 200, 3, {16, false, 512, 2, 0, 1, true}, true, true, 1, false},
      {"fe310", "rv32im", 320, 336, {32, false, 512, 2, 0, 1, false}, true, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.board);
    const HardwareConfig hw = withSets({"cpu.preset=" + c.board});
    EXPECT_EQ(hw.cpu.model, CpuModel::kIss);
    EXPECT_EQ(hw.cpu.clock_mhz, c.clock_mhz);
    EXPECT_EQ(hw.cpu.memory.flash_wait_states, c.flash_wait_states);
    EXPECT_EQ(hw.cpu.memory.sram_wait_states, c.sram_wait_states);
    EXPECT_EQ(hw.cpu.memory.sram_store_waits, c.sram_store_waits);
    EXPECT_TRUE(hw.cpu.memory.flash == c.flash);
    const timing::CpuCoefficients core = timing::cpuPreset(c.core, KernelLibrary::kReference);
    if (c.own_calibration)
      EXPECT_GT(hw.cpu.coefficients.fc_per_mac, core.fc_per_mac);  // its memories cost more
    else
      expectCoefficientsEq(hw.cpu.coefficients, core);
    // The optimized kernels' figures: the board's own where it has a calibration, else the
    // core's.
    // Compared on a 640 -> 128 layer (its per-MAC and weight-read terms).
    const uint64_t board_optimized =
        timing::CpuCostModel(
            withSets({"cpu.preset=" + c.board, "cpu.kernels=optimized"}).cpu.coefficients)
            .fullyConnectedCycles(1, 640, 128);
    const uint64_t core_optimized =
        timing::CpuCostModel(timing::cpuPreset(c.core, KernelLibrary::kOptimized))
            .fullyConnectedCycles(1, 640, 128);
    if (c.own_optimized)
      EXPECT_GT(board_optimized, core_optimized);  // its memories cost more
    else
      EXPECT_EQ(board_optimized, core_optimized);
    // Each key can still be given over the board's value.
    const HardwareConfig given =
        withSets({"cpu.preset=" + c.board, "cpu.flash_wait_states=1", "cpu.flash.icache_lines=0",
                  "cpu.flash.data_through_icache=false"});
    EXPECT_EQ(given.cpu.memory.flash_wait_states, 1u);
    EXPECT_EQ(given.cpu.memory.flash.icache_lines, 0u);
  }
}

TEST(ConfigDefaults, HeliumKernelsPadTheReduction) {
  const HardwareConfig hw = withSets({"cpu.preset=cortex-m55-helium", "cpu.kernels=optimized"});
  EXPECT_EQ(hw.cpu.coefficients.reduction_multiple, 16u);
}

TEST(ConfigDefaults, DerivedDefaultsFollowTheirSource) {
  EXPECT_EQ(withSets({"accel.num_cores=8"}).accel.dma.channels, 8u);
  EXPECT_EQ(withSets({"accel.num_cores=8", "accel.dma.channels=2"}).accel.dma.channels, 2u);
  EXPECT_EQ(withSets({"cpu.preset=cortex-m7"}).cpu.clock_mhz, 480.0);
  EXPECT_EQ(withSets({"cpu.clock_mhz=216", "cpu.preset=cortex-m7"}).cpu.clock_mhz, 216.0);
}

TEST(ConfigDefaults, WeightMemorySetsTheFactorUnlessItIsGiven) {
  EXPECT_EQ(withSets({}).cpu.coefficients.weight_memory_factor, 1.0);
  EXPECT_EQ(withSets({"cpu.weight_memory=sram"}).cpu.coefficients.weight_memory_factor, 0.6);
  EXPECT_EQ(withSets({"cpu.weight_memory=external"}).cpu.coefficients.weight_memory_factor, 2.5);
  // An explicit factor wins whichever comes first.
  EXPECT_EQ(withSets({"cpu.coefficients.weight_memory_factor=0.5", "cpu.weight_memory=external"})
                .cpu.coefficients.weight_memory_factor,
            0.5);
  EXPECT_EQ(withSets({"cpu.weight_memory=external", "cpu.coefficients.weight_memory_factor=0.5"})
                .cpu.coefficients.weight_memory_factor,
            0.5);
}

// The cost model sees the data cache in front of weights in flash: cortex-m4f's ART data cache,
// stm32u575's ICACHE (data goes through it), none for weights in SRAM or on a part without one.
TEST(ConfigDefaults, TheWeightsDataCacheFollowsTheFlashMemorySystem) {
  const timing::WeightCache m4f = withSets({"cpu.preset=cortex-m4f"}).cpu.coefficients.weight_cache;
  EXPECT_EQ(m4f.line_bytes, 8u);
  EXPECT_EQ(m4f.lines, 32u);
  EXPECT_EQ(m4f.ways, 4u);
  const timing::WeightCache u575 = withSets({"cpu.preset=stm32u575"}).cpu.coefficients.weight_cache;
  EXPECT_EQ(u575.line_bytes, 16u);
  EXPECT_EQ(u575.lines, 512u);
  EXPECT_EQ(u575.ways, 2u);
  EXPECT_EQ(withSets({"cpu.preset=cortex-m4f", "cpu.weight_memory=sram"})
                .cpu.coefficients.weight_cache.lines,
            0u);
  EXPECT_EQ(withSets({"cpu.preset=stm32g0b1"}).cpu.coefficients.weight_cache.lines, 0u);
  // A given cache geometry is the one the cost model sees.
  const timing::WeightCache given =
      withSets({"cpu.preset=cortex-m4f", "cpu.flash.dcache_lines=64", "cpu.flash.dcache_ways=2"})
          .cpu.coefficients.weight_cache;
  EXPECT_EQ(given.lines, 64u);
  EXPECT_EQ(given.ways, 2u);
}

TEST(ConfigDefaults, OneCoefficientOverridesOnlyItself) {
  const HardwareConfig hw =
      withSets({"cpu.preset=cortex-m4f", "cpu.kernels=optimized", "cpu.coefficients.fc_per_mac=5"});
  timing::CpuCoefficients expected = timing::cpuPreset("cortex-m4f", KernelLibrary::kOptimized);
  expected.fc_per_mac = 5.0;
  expectCoefficientsEq(hw.cpu.coefficients, expected);
}

TEST(ConfigDefaults, EveryValueTypeThroughSet) {
  const HardwareConfig hw =
      withSets({"accel.num_cores=0x10", "accel.clock_mhz=1e3", "accel.core.double_buffer=false",
                "accel.core.dataflow=os", "bus.arbitration=fixed", "sim.log_level=off",
                "sim.fault=irq_lost", "memory.size_bytes=4294967296",
                "sim.watchdog_cycles=1000000000000", "accel.clock_mhz=250.5"});
  EXPECT_EQ(hw.accel.num_cores, 16u);
  EXPECT_EQ(hw.accel.clock_mhz, 250.5);  // the later override wins
  EXPECT_FALSE(hw.accel.core.double_buffer);
  EXPECT_EQ(hw.accel.core.dataflow, config::Dataflow::kOutputStationary);
  EXPECT_EQ(hw.bus.arbitration, config::Arbitration::kFixed);
  EXPECT_EQ(hw.sim.log_level, LogLevel::kOff);
  EXPECT_EQ(hw.sim.fault, config::Fault::kIrqLost);
  EXPECT_EQ(hw.memory.size_bytes, 4294967296ull);
  EXPECT_EQ(hw.sim.watchdog_cycles, 1'000'000'000'000ull);
}

TEST(ConfigDefaults, SetAcceptsAMappingForAGroup) {
  const HardwareConfig hw = withSets({"accel.core={array_rows: 8, array_cols: 32}"});
  EXPECT_EQ(hw.accel.core.array_rows, 8u);
  EXPECT_EQ(hw.accel.core.array_cols, 32u);
}

TEST(ConfigDefaults, RangeBoundaries) {
  EXPECT_EQ(withSets({"accel.num_cores=1"}).accel.num_cores, 1u);
  EXPECT_EQ(withSets({"accel.num_cores=64"}).accel.num_cores, 64u);
  EXPECT_EQ(withSets({"accel.core.sram_bytes=67108864"}).accel.core.sram_bytes, 64ull << 20);
  EXPECT_EQ(withSets({"accel.core.sram_bytes=1073741824"}).accel.core.sram_bytes, 1ull << 30);
  EXPECT_EQ(withSets({"sim.transaction_bytes=64"}).sim.transaction_bytes, 64u);
  EXPECT_EQ(withSets({"bus.width_bytes=1", "accel.dma.max_burst_bytes=1"}).bus.width_bytes, 1u);
  EXPECT_EQ(withSets({"cpu.coefficients.fc_per_mac=0"}).cpu.coefficients.fc_per_mac, 0.0);
  EXPECT_EQ(withSets({"accel.core.array_rows=64", "accel.core.array_cols=64",
                      "accel.core.sram_bytes=4096"})
                .accel.core.sram_bytes,
            4096u);
}

TEST(ConfigDefaults, SixtyFourMebibyteSramInAFile) {
  const std::string dir = makeTempDir("config_sram");
  const std::string path = writeText(dir, "c.yaml", "accel:\n  core:\n    sram_bytes: 67108864\n");
  EXPECT_EQ(loadConfig(path).accel.core.sram_bytes, 64ull * 1024 * 1024);
}

TEST(ConfigDefaults, EmptyFilesAndGroupsSetNothing) {
  const std::string dir = makeTempDir("config_empty");
  const std::string defaults = toYaml(loadConfig(""));
  EXPECT_EQ(toYaml(loadConfig(writeText(dir, "empty.yaml", ""))), defaults);
  EXPECT_EQ(toYaml(loadConfig(writeText(dir, "comments.yaml", "# nothing\n\n"))), defaults);
  EXPECT_EQ(toYaml(loadConfig(writeText(dir, "groups.yaml", "accel:\nsim:\n"))), defaults);
}

TEST(ConfigDefaults, DottedKeysInAFile) {
  const std::string dir = makeTempDir("config_dotted");
  const std::string path =
      writeText(dir, "c.yaml", "accel.num_cores: 2\naccel:\n  core.array_rows: 8\n");
  const HardwareConfig hw = loadConfig(path);
  EXPECT_EQ(hw.accel.num_cores, 2u);
  EXPECT_EQ(hw.accel.core.array_rows, 8u);
}

TEST(ConfigDefaults, DescribeConfigListsEveryKeyInTableOrder) {
  const std::vector<config::ConfigEntry> entries = config::describeConfig(loadConfig(""));
  const std::vector<config::KeyInfo>& keys = config::configKeys();
  ASSERT_EQ(entries.size(), keys.size());
  for (size_t i = 0; i < keys.size(); ++i) EXPECT_EQ(entries[i].key, keys[i].key);
}

TEST(ConfigDefaults, ToYamlRoundTrips) {
  const std::string dir = makeTempDir("config_round_trip");
  const std::vector<std::vector<std::string>> cases = {
      {},
      {"accel.num_cores=16", "bus.width_bytes=64", "memory.bytes_per_cycle=64"},
      {"cpu.preset=cortex-m55-helium", "cpu.kernels=optimized", "cpu.weight_memory=sram",
       "cpu.clock_mhz=123.456", "cpu.coefficients.softmax_per_element=0.1",
       "accel.core.dataflow=is", "accel.core.double_buffer=false", "bus.arbitration=fixed",
       "sim.log_level=trace", "sim.fault=dma_unmapped", "sim.fault_at_job=3",
       "sim.transaction_bytes=4096", "accel.dma.channels=3", "accel.clock_mhz=0.1e4"},
      {"cpu.preset=cortex-m0plus", "cpu.weight_memory=external"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(i);
    const HardwareConfig original = withSets(cases[i]);
    const std::string yaml = toYaml(original);
    const std::string path = writeText(dir, "c" + std::to_string(i) + ".yaml", yaml);
    const HardwareConfig reloaded = loadConfig(path);
    EXPECT_EQ(toYaml(reloaded), yaml);
    expectCoefficientsEq(reloaded.cpu.coefficients, original.cpu.coefficients);
    EXPECT_EQ(reloaded.cpu.clock_mhz, original.cpu.clock_mhz);
  }
}

}  // namespace
}  // namespace hilsim::test
