#pragma once
// The raw layer: the config as written, every value optional and remembering where it came from.
// Field names mirror HardwareConfig (hardware_config.h) so that one table row (keys.cpp) can reach
// both the raw and the resolved field of a key.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace hilsim::config::detail {

// Where a value came from: a file and 1-based line, or one `--set key=value` override.
struct Origin {
  std::string file;
  int line = 0;                              // 0: not known
  std::optional<std::string> override_text;  // "accel.num_cores=8" for a value from --set

  static Origin inFile(std::string file, int line) { return Origin{std::move(file), line, {}}; }
  static Origin fromOverride(std::string text) { return Origin{"", 0, std::move(text)}; }
  // "configs/x.yaml:12", "configs/x.yaml" or "--set accel.num_cores=8".
  std::string where() const;
};

// Throws hilsim::ConfigError("<where>: <message>").
[[noreturn]] void fail(const Origin& origin, const std::string& message);

template <class T>
struct Opt {
  std::optional<T> value;
  Origin origin;
};
using RawInt = Opt<int64_t>;
using RawFloat = Opt<double>;
using RawBool = Opt<bool>;
using RawString = Opt<std::string>;  // enums and names, checked by the resolver

struct RawCore {
  RawInt array_rows, array_cols;
  RawString dataflow;
  RawInt sram_bytes, startup_cycles;
  RawBool double_buffer;
};

struct RawDma {
  RawInt setup_cycles, max_burst_bytes, channels;
};

struct RawAccel {
  RawInt num_cores;
  RawFloat clock_mhz;
  RawCore core;
  RawDma dma;
  RawInt irq_latency_cycles, reg_access_cycles;
};

struct RawBus {
  RawInt width_bytes;
  RawFloat clock_mhz;
  RawInt latency_cycles;
  RawString arbitration;
};

struct RawMemory {
  RawInt size_bytes, latency_cycles, bytes_per_cycle;
};

struct RawCoefficients {
  RawFloat fc_per_mac, fc_per_output, fc_per_call;
  RawFloat fc_float_per_mac, fc_float_per_zero_mac, fc_float_per_output, fc_float_per_call;
  RawFloat conv1x1_per_mac, conv_per_mac, conv_per_output, conv_per_call;
  RawFloat conv_per_tap, conv_per_padded_mac, conv_per_patch_element, conv_per_pixel_tap,
      dwconv_per_mac, dwconv_per_tap, dwconv_per_row, dwconv_per_output, dwconv_per_call,
      dwconv_per_scalar_mac, dwconv_per_pixel, dwconv_per_general_pixel;
  RawFloat pool_per_element, pool_per_output, softmax_per_element, quantize_per_element,
      quantize_float_per_element, dequantize_per_element;
  RawFloat reshape_per_call, reshape_per_byte, op_per_call;
  RawFloat svdf_per_feature_mac, svdf_per_time_mac, svdf_state_per_byte, svdf_per_filter,
      svdf_per_unit, svdf_per_call;
  RawFloat add_per_element, mul_per_element, minmax_per_element, activation_per_element;
  RawFloat hard_swish_per_element, copy_per_element, mean_per_element;
  RawFloat lstm_per_mac, lstm_cell_per_element, lstm_per_step, lstm_per_call;
  RawInt reduction_multiple;
  RawFloat weight_memory_factor;
};

struct RawFlash {
  RawInt line_bytes;
  RawBool prefetch;
  RawInt icache_lines, icache_ways, dcache_lines, dcache_ways;
  RawBool data_through_icache;
};

struct RawCpu {
  RawString preset, kernels, model;
  RawFloat clock_mhz;
  RawInt flash_wait_states, sram_wait_states;
  RawFlash flash;
  RawString weight_memory;
  RawString firmware_opt;
  RawInt driver_job_cycles, driver_reg_cycles, irq_handler_cycles;
  RawCoefficients coefficients;
};

struct RawMcu {
  RawInt flash_bytes, sram_bytes;
};

struct RawSim {
  RawInt quantum_ns;
  RawString log_level;
  RawInt watchdog_cycles;
  RawString fault;
  RawInt fault_at_job, transaction_bytes;
};

struct RawHostEnergy {
  RawString preset;
  RawFloat run_ua_per_mhz, sleep_ua_per_mhz, supply_v, flash_line_read_pj, sram_access_pj;
};

struct RawArea {
  RawFloat sram_array_efficiency, control_fraction;
};

struct RawEnergy {
  RawString preset;
  RawBool power_gating;
  RawFloat mac_pj, sram_read_pj_per_byte, sram_write_pj_per_byte, dma_pj_per_byte, bus_pj_per_beat,
      register_access_pj, system_memory_read_pj_per_byte, system_memory_write_pj_per_byte,
      sram_leakage_uw_per_kib, pe_leakage_uw;
  RawArea area;
  RawHostEnergy host;
};

struct RawConfig {
  RawAccel accel;
  RawBus bus;
  RawMemory memory;
  RawCpu cpu;
  RawMcu mcu;
  RawSim sim;
  RawEnergy energy;
};

// Reads `path` and the files it includes (included files first, then the file's own keys).
void readConfigFile(const std::string& path, RawConfig& raw);
// The same for text already in memory, shown in messages as `name`.
void readConfigText(const std::string& text, const std::string& name, RawConfig& raw);
// Applies one `--set key=value` override; the value is a YAML scalar (or a mapping for a group).
void applyOverride(const std::string& text, RawConfig& raw);

}  // namespace hilsim::config::detail
