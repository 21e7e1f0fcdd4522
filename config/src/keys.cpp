#include "keys.h"

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "hilsim/energy/host_mcu.h"
#include "hilsim/energy/technology.h"
#include "text.h"

namespace hilsim::config::detail {
namespace {

using Kind = ConfigEntry::Kind;

// A closed interval; an integer key may allow several (sim.transaction_bytes: 0 or 64..1 GiB).
struct Interval {
  int64_t lo, hi;
};
struct IntRule {
  std::vector<Interval> intervals;
  bool power_of_two = false;
};

std::string rangeText(const IntRule& rule) {
  std::vector<std::string> parts;
  for (const Interval& i : rule.intervals)
    parts.push_back(i.lo == i.hi ? std::to_string(i.lo)
                                 : std::to_string(i.lo) + ".." + std::to_string(i.hi));
  return join(parts, " or ") + (rule.power_of_two ? ", power of two" : "");
}

bool inRange(int64_t v, const IntRule& rule) {
  bool inside = false;
  for (const Interval& i : rule.intervals) inside = inside || (v >= i.lo && v <= i.hi);
  return inside && (!rule.power_of_two || (v > 0 && (v & (v - 1)) == 0));
}

std::string rangeText(double lo, double hi) {
  const auto plain = [](double v) {
    std::string s = formatNumber(v);
    return s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0 ? s.substr(0, s.size() - 2) : s;
  };
  return std::isinf(hi) ? ">= " + plain(lo) : plain(lo) + ".." + plain(hi);
}

std::string got(const Scalar& s) {
  return s.quoted ? "the quoted string \"" + s.text + "\"" : "'" + s.text + "'";
}

// The type of the resolved field a key's accessor reaches.
template <class Field>
using Resolved = std::decay_t<std::invoke_result_t<Field, HardwareConfig&>>;

KeySpec base(const char* key, const char* type, const char* unit, std::string range,
             const char* doc, Kind kind, std::string expected) {
  KeySpec k;
  k.info = KeyInfo{key, type, unit, "", std::move(range), doc};
  k.kind = kind;
  k.expected = std::move(expected);
  return k;
}

void finish(KeySpec& k, const char* derived_default) {
  k.info.default_value = derived_default ? derived_default : k.read(HardwareConfig{});
}

template <class Field>
KeySpec intKey(const char* key, Field field, const char* unit, IntRule rule, const char* doc,
               const char* derived_default = nullptr) {
  using T = Resolved<Field>;
  static_assert(std::is_integral_v<T>);
  for (const Interval& i : rule.intervals)
    if (i.lo < 0 || static_cast<uint64_t>(i.hi) > std::numeric_limits<T>::max())
      throw std::logic_error(std::string("config key table: range of ") + key +
                             " exceeds its field");

  KeySpec k = base(key, "int", unit, rangeText(rule), doc, Kind::kInt, "an integer");
  const std::string name = key, range = k.info.range;
  k.store = [name, range](RawConfig& raw, const Scalar& s, const Origin& origin) {
    int64_t v = 0;
    const ParseStatus status = s.quoted ? ParseStatus::kBadSyntax : parseInteger(s.text, v);
    if (status == ParseStatus::kOverflow)
      fail(origin, name + " = " + s.text + " is out of range (" + range + ")");
    if (status != ParseStatus::kOk) fail(origin, name + ": expected an integer, got " + got(s));
    raw.set<int64_t>(name, v, origin);
  };
  k.apply = [field, name, rule](const RawConfig& raw, HardwareConfig& hw) {
    const RawInt slot = raw.get<int64_t>(name);
    if (!slot.value) return;
    if (!inRange(*slot.value, rule)) {
      const bool in_bounds =
          rule.power_of_two && inRange(*slot.value, IntRule{rule.intervals, false});
      fail(slot.origin, name + " = " + std::to_string(*slot.value) +
                            (in_bounds ? " is not a power of two (" : " is out of range (") +
                            rangeText(rule) + ")");
    }
    field(hw) = static_cast<T>(*slot.value);
  };
  k.read = [field](const HardwareConfig& hw) { return std::to_string(field(hw)); };
  finish(k, derived_default);
  return k;
}

constexpr double kUnbounded = std::numeric_limits<double>::infinity();

template <class Field>
KeySpec floatKey(const char* key, Field field, const char* unit, double lo, double hi,
                 const char* doc, const char* derived_default = nullptr) {
  static_assert(std::is_same_v<Resolved<Field>, double>);
  KeySpec k = base(key, "float", unit, rangeText(lo, hi), doc, Kind::kFloat, "a number");
  const std::string name = key, range = k.info.range;
  k.store = [name, range](RawConfig& raw, const Scalar& s, const Origin& origin) {
    double v = 0.0;
    const ParseStatus status = s.quoted ? ParseStatus::kBadSyntax : parseNumber(s.text, v);
    if (status == ParseStatus::kOverflow)
      fail(origin, name + " = " + s.text + " is out of range (" + range + ")");
    if (status != ParseStatus::kOk) fail(origin, name + ": expected a number, got " + got(s));
    raw.set<double>(name, v, origin);
  };
  k.apply = [field, name, range, lo, hi](const RawConfig& raw, HardwareConfig& hw) {
    const RawFloat slot = raw.get<double>(name);
    if (!slot.value) return;
    if (!(*slot.value >= lo && *slot.value <= hi))
      fail(slot.origin,
           name + " = " + formatNumber(*slot.value) + " is out of range (" + range + ")");
    field(hw) = *slot.value;
  };
  k.read = [field](const HardwareConfig& hw) { return formatNumber(field(hw)); };
  finish(k, derived_default);
  return k;
}

template <class Field>
KeySpec boolKey(const char* key, Field field, const char* doc,
                const char* derived_default = nullptr) {
  static_assert(std::is_same_v<Resolved<Field>, bool>);
  KeySpec k = base(key, "bool", "-", "true|false", doc, Kind::kBool, "true or false");
  const std::string name = key;
  k.store = [name](RawConfig& raw, const Scalar& s, const Origin& origin) {
    const std::optional<bool> v = s.quoted ? std::nullopt : parseBool(s.text);
    if (!v) fail(origin, name + ": expected true or false, got " + got(s));
    raw.set<bool>(name, *v, origin);
  };
  k.apply = [field, name](const RawConfig& raw, HardwareConfig& hw) {
    if (const RawBool slot = raw.get<bool>(name); slot.value) field(hw) = *slot.value;
  };
  k.read = [field](const HardwareConfig& hw) { return std::string(field(hw) ? "true" : "false"); };
  finish(k, derived_default);
  return k;
}

// A name a choice key no longer accepts, and the message that says what to write instead.
struct RetiredName {
  std::string name;
  std::string message;
};

// A key whose value is one of a fixed set of names, each standing for a resolved value.
template <class Field, class T = Resolved<Field>>
KeySpec choiceKey(const char* key, Field field, std::vector<std::pair<std::string, T>> choices,
                  const char* doc, const char* derived_default = nullptr,
                  std::vector<RetiredName> retired = {}) {
  std::vector<std::string> names;
  for (const auto& c : choices) names.push_back(c.first);
  const std::string range = join(names, "|");
  KeySpec k = base(key, "enum", "-", range, doc, Kind::kString, "one of " + range);
  const std::string name = key;
  k.store = [name](RawConfig& raw, const Scalar& s, const Origin& origin) {
    raw.set<std::string>(name, s.text, origin);
  };
  k.apply = [field, name, choices, names, range, retired](const RawConfig& raw,
                                                          HardwareConfig& hw) {
    const RawString slot = raw.get<std::string>(name);
    if (!slot.value) return;
    for (const auto& c : choices) {
      if (c.first == *slot.value) {
        field(hw) = c.second;
        return;
      }
    }
    for (const RetiredName& r : retired)
      if (r.name == *slot.value) fail(slot.origin, name + " = '" + r.name + "': " + r.message);
    const std::optional<std::string> hint = nearest(*slot.value, names);
    fail(slot.origin, name + " = '" + *slot.value + "' is not one of " + range +
                          (hint ? " (did you mean '" + *hint + "'?)" : ""));
  };
  k.read = [field, choices](const HardwareConfig& hw) {
    for (const auto& c : choices)
      if (c.second == field(hw)) return c.first;
    return std::string("?");
  };
  finish(k, derived_default);
  return k;
}

template <class E>
std::vector<std::pair<std::string, E>> named(std::initializer_list<E> values) {
  std::vector<std::pair<std::string, E>> out;
  for (E v : values) out.emplace_back(toString(v), v);
  return out;
}

std::vector<std::pair<std::string, std::string>> presetChoices() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& p : timing::cpuPresetNames()) out.emplace_back(p, p);
  return out;
}

std::vector<std::pair<std::string, energy::TechNode>> techChoices() {
  std::vector<std::pair<std::string, energy::TechNode>> out;
  for (const std::string& n : energy::techNodeNames())
    out.emplace_back(n, energy::techNodeFromName(n));
  return out;
}

std::vector<std::pair<std::string, std::string>> hostChoices() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& n : energy::hostMcuNames()) out.emplace_back(n, n);
  return out;
}

// The key's dotted path as text, and the accessor of the HardwareConfig field of the same path:
// the two cannot drift apart.
// clang-format off
#define HILSIM_FIELD(path) #path, [](auto& c) -> auto& { return c.path; }
// A key whose field lives in a module's own options struct under another path (cpu.flash.* in
// iss::MemoryOptions).
#define HILSIM_FIELD_AT(key, path) key, [](auto& c) -> auto& { return c.path; }
// clang-format on

std::vector<KeySpec> buildTable() {
  using timing::KernelLibrary;
  constexpr const char* kCycles = "cycles (accel clock)";
  constexpr const char* kBusCycles = "cycles (bus clock)";
  constexpr const char* kCpuCycles = "cycles (CPU clock)";
  constexpr const char* kPreset = "preset";
  const IntRule kCount64{{{1, 64}}};
  const IntRule kUpTo1M{{{0, 1'000'000}}};
  const IntRule kUpTo100k{{{0, 100'000}}};
  const IntRule kArraySide{{{1, 1024}}};
  const IntRule kClockRange{{{1, 10'000}}};

  std::vector<KeySpec> t;
  // accel
  t.push_back(intKey(HILSIM_FIELD(accel.num_cores), "cores", kCount64, "Accelerator cores."));
  t.push_back(floatKey(HILSIM_FIELD(accel.clock_mhz), "MHz", 1, 10'000, "Accelerator clock."));
  t.push_back(intKey(HILSIM_FIELD(accel.core.array_rows), "PEs", kArraySide,
                     "Rows of each core's systolic MAC array."));
  t.push_back(intKey(HILSIM_FIELD(accel.core.array_cols), "PEs", kArraySide,
                     "Columns of each core's systolic MAC array."));
  t.push_back(choiceKey(
      HILSIM_FIELD(accel.core.dataflow),
      named({Dataflow::kWeightStationary, Dataflow::kOutputStationary, Dataflow::kInputStationary}),
      "Systolic dataflow: weight, output or input stationary."));
  t.push_back(intKey(HILSIM_FIELD(accel.core.sram_bytes), "bytes", IntRule{{{4096, 1ll << 30}}},
                     "Local SRAM of each core; must hold at least one array_rows x array_cols "
                     "int8 weight tile."));
  t.push_back(intKey(HILSIM_FIELD(accel.core.startup_cycles), kCycles, kUpTo1M,
                     "From the start command to the first tile of a job."));
  t.push_back(boolKey(HILSIM_FIELD(accel.core.double_buffer),
                      "Load the next tile while the current one computes."));
  t.push_back(intKey(HILSIM_FIELD(accel.dma.setup_cycles), kCycles, kUpTo1M,
                     "Set-up cost of one DMA transfer."));
  t.push_back(intKey(HILSIM_FIELD(accel.dma.max_burst_bytes), "bytes", IntRule{{{1, 1 << 20}}},
                     "Largest burst the DMA issues; at least bus.width_bytes."));
  t.push_back(intKey(HILSIM_FIELD(accel.dma.channels), "channels", kCount64,
                     "DMA channels that transfer concurrently.", "accel.num_cores"));
  t.push_back(intKey(HILSIM_FIELD(accel.irq_latency_cycles), kCycles, kUpTo1M,
                     "From the end of a job to the interrupt reaching the CPU."));
  t.push_back(intKey(HILSIM_FIELD(accel.reg_access_cycles), kCycles, kUpTo100k,
                     "Register block response time per access."));
  // bus
  t.push_back(intKey(HILSIM_FIELD(bus.width_bytes), "bytes", IntRule{{{1, 1024}}, true},
                     "Data bus width: bytes per beat."));
  t.push_back(floatKey(HILSIM_FIELD(bus.clock_mhz), "MHz", 1, 10'000, "Bus clock."));
  t.push_back(intKey(HILSIM_FIELD(bus.latency_cycles), kBusCycles, kUpTo100k,
                     "From a request to its first beat, per transaction."));
  t.push_back(choiceKey(HILSIM_FIELD(bus.arbitration),
                        named({Arbitration::kRoundRobin, Arbitration::kFixed}),
                        "How the bus chooses between waiting initiators: in turn, or by fixed "
                        "priority."));
  // memory
  t.push_back(intKey(HILSIM_FIELD(memory.size_bytes), "bytes", IntRule{{{65'536, 4'294'967'296ll}}},
                     "Main memory size."));
  t.push_back(intKey(HILSIM_FIELD(memory.latency_cycles), kBusCycles, kUpTo100k,
                     "Main memory access latency."));
  t.push_back(intKey(HILSIM_FIELD(memory.bytes_per_cycle), "bytes/bus cycle", IntRule{{{1, 1024}}},
                     "Main memory bandwidth."));
  // cpu
  t.push_back(choiceKey(HILSIM_FIELD(cpu.preset), presetChoices(),
                        "Host CPU core or board: sets the default clock and cost coefficients (a "
                        "board also its memories: configs/README.md, \"Board presets\")."));
  t.push_back(choiceKey(
      HILSIM_FIELD(cpu.kernels), named({KernelLibrary::kReference, KernelLibrary::kOptimized}),
      "Kernel library the CPU runs, the baseline of every speed-up: TFLite Micro's reference "
      "kernels, or hilsim's optimized int8 kernels (DSP extension on cortex-m4f/m33).",
      nullptr,
      {{"cmsis_nn",
        "the estimated CMSIS-NN library is replaced by hilsim's optimized kernels, "
        "executed on the instruction-set simulator: write 'optimized'"}}));
  t.push_back(
      floatKey(HILSIM_FIELD(cpu.clock_mhz), "MHz", 1, 10'000, "Host CPU clock.", "preset clock"));
  t.push_back(choiceKey(HILSIM_FIELD(cpu.model), named({CpuModel::kIss, CpuModel::kCost}),
                        "Where CPU cycles come from: the firmware on the instruction-set "
                        "simulator, or the cost model.",
                        "iss where the preset has a timing table"));
  t.push_back(intKey(HILSIM_FIELD_AT("cpu.flash_wait_states", cpu.memory.flash_wait_states),
                     kCpuCycles, IntRule{{{0, 1023}}},
                     "Flash wait states (cpu.model iss): per flash line read the prefetch does "
                     "not hide (cpu.flash.*).",
                     "the preset's typical part"));
  t.push_back(intKey(HILSIM_FIELD_AT("cpu.sram_wait_states", cpu.memory.sram_wait_states),
                     kCpuCycles, IntRule{{{0, 15}}},
                     "SRAM wait states per load, and per store when cpu.sram_store_waits "
                     "(cpu.model iss).",
                     "the preset's typical part"));
  t.push_back(boolKey(HILSIM_FIELD_AT("cpu.sram_store_waits", cpu.memory.sram_store_waits),
                      "Whether SRAM stores pay cpu.sram_wait_states as loads do; false for SRAM "
                      "that adds its wait states to reads only (cpu.model iss).",
                      "the preset's typical part"));
  // cpu.flash
  t.push_back(intKey(HILSIM_FIELD_AT("cpu.flash.line_bytes", cpu.memory.flash.line_bytes), "bytes",
                     IntRule{{{4, 64}}, true},
                     "Bytes one flash access reads: the line of the prefetch and the caches "
                     "(cpu.model iss).",
                     "the preset's typical part"));
  t.push_back(boolKey(HILSIM_FIELD_AT("cpu.flash.prefetch", cpu.memory.flash.prefetch),
                      "Read the next flash line ahead: a sequential instruction fetch into it "
                      "costs no wait states (cpu.model iss).",
                      "the preset's typical part"));
  t.push_back(intKey(HILSIM_FIELD_AT("cpu.flash.icache_lines", cpu.memory.flash.icache_lines),
                     "lines", IntRule{{{0, 65'536}}},
                     "Instruction cache in front of the flash, in lines of line_bytes; 0: none "
                     "(cpu.model iss).",
                     "the preset's typical part"));
  t.push_back(intKey(HILSIM_FIELD_AT("cpu.flash.icache_ways", cpu.memory.flash.icache_ways), "ways",
                     IntRule{{{1, 64}}},
                     "Ways of the instruction cache (LRU); icache_lines / icache_ways sets, a "
                     "power of two.",
                     "the preset's typical part"));
  t.push_back(intKey(HILSIM_FIELD_AT("cpu.flash.dcache_lines", cpu.memory.flash.dcache_lines),
                     "lines", IntRule{{{0, 65'536}}},
                     "Data cache for loads from flash (literal pools, weights), in lines of "
                     "line_bytes; 0: none (cpu.model iss).",
                     "the preset's typical part"));
  t.push_back(intKey(HILSIM_FIELD_AT("cpu.flash.dcache_ways", cpu.memory.flash.dcache_ways), "ways",
                     IntRule{{{1, 64}}},
                     "Ways of the data cache (LRU); dcache_lines / dcache_ways sets, a power of "
                     "two.",
                     "the preset's typical part"));
  t.push_back(boolKey(
      HILSIM_FIELD_AT("cpu.flash.data_through_icache", cpu.memory.flash.data_through_icache),
      "Data loads from flash go through the instruction cache (a cache on the "
      "core's code bus); needs icache_lines > 0 and dcache_lines = 0.",
      "the preset's typical part"));
  t.push_back(choiceKey(HILSIM_FIELD(cpu.weight_memory),
                        named({WeightMemory::kFlash, WeightMemory::kSram, WeightMemory::kExternal}),
                        "Where layer weights live; sets cpu.coefficients.weight_memory_factor to "
                        "1.0, 0.6 or 2.5."));
  t.push_back(choiceKey(HILSIM_FIELD(cpu.firmware_opt), named({FirmwareOpt::kO2, FirmwareOpt::kOs}),
                        "Optimization level of the firmware image the ISS runs (cpu.model iss): "
                        "-O2 as TensorFlow Lite Micro's Makefile builds its kernels, or -Os."));
  t.push_back(intKey(HILSIM_FIELD(cpu.driver_job_cycles), kCpuCycles, IntRule{{{0, 10'000'000}}},
                     "Driver software cost of one accelerator job (cpu.model cost).",
                     "the preset's executed driver"));
  t.push_back(intKey(HILSIM_FIELD(cpu.driver_reg_cycles), kCpuCycles, kUpTo100k,
                     "Driver software cost per register access, on top of the bus trip "
                     "(cpu.model cost).",
                     "the preset's executed driver"));
  t.push_back(intKey(HILSIM_FIELD(cpu.irq_handler_cycles), kCpuCycles, kUpTo1M,
                     "Interrupt handler cost per accelerator interrupt (cpu.model cost).",
                     "the preset's executed driver"));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.fc_per_mac), "cycles/MAC", 0, kUnbounded,
                       "Int8 FULLY_CONNECTED, per MAC (K padded to reduction_multiple).", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.fc_per_weight_read), "cycles/weight", 0,
                       kUnbounded,
                       "Int8 FULLY_CONNECTED, per weight loaded: ceil(rows / 2) x K x N (kernels "
                       "that share each weight load between two rows).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.fc_per_tail_mac), "cycles/MAC", 0, kUnbounded,
                       "Int8 FULLY_CONNECTED, per MAC of an output left to a one-output loop (N "
                       "mod 2 per pair of rows, N mod 4 of a last single row).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.fc_per_output), "cycles/output", 0, kUnbounded,
                       "Int8 FULLY_CONNECTED, per output.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.fc_per_call), "cycles/call", 0, kUnbounded,
                       "Int8 FULLY_CONNECTED, per invocation.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.fc_float_per_mac), "cycles/MAC", 0, kUnbounded,
                       "Float32 FULLY_CONNECTED, per MAC.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.fc_float_per_zero_mac), "cycles/MAC", 0,
                       kUnbounded, "Float32 FULLY_CONNECTED, per MAC with a zero input or weight.",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.fc_float_per_output), "cycles/output", 0,
                       kUnbounded, "Float32 FULLY_CONNECTED, per output.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.fc_float_per_call), "cycles/call", 0,
                       kUnbounded, "Float32 FULLY_CONNECTED, per invocation.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.conv1x1_per_mac), "cycles/MAC", 0, kUnbounded,
                       "CONV_2D with a 1x1 kernel, per MAC.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.conv_per_mac), "cycles/MAC", 0, kUnbounded,
                       "CONV_2D with a larger kernel, per MAC.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.conv_per_output), "cycles/output", 0,
                       kUnbounded, "CONV_2D, per output.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.conv_per_call), "cycles/call", 0, kUnbounded,
                       "CONV_2D, per invocation.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.conv_per_tap), "cycles/tap", 0, kUnbounded,
                       "CONV_2D, per filter tap inside the input, summed over every output.",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.conv_per_padded_mac), "cycles/MAC", 0,
                       kUnbounded,
                       "CONV_2D other than 1x1, per MAC of a filter tap outside the input (a "
                       "kernel that multiplies the zero-filled padding; 0 for the reference "
                       "kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.conv_per_patch_element), "cycles/element", 0,
                       kUnbounded,
                       "CONV_2D other than 1x1, per im2col patch element (output pixels x KH x "
                       "KW x input channels per filter; 0 for the reference kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.conv_per_pixel_tap), "cycles/tap", 0,
                       kUnbounded,
                       "CONV_2D other than 1x1, per tap of an output pixel's window (output "
                       "pixels x KH x KW; 0 for the reference kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.conv_per_tail_mac), "cycles/MAC", 0,
                       kUnbounded,
                       "CONV_2D other than 1x1, per MAC in the K mod 4 rest of a dot product "
                       "(output pixels x filters x (K mod 4); 0 for the reference kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.conv_per_unaligned_load), "cycles/load", 0,
                       kUnbounded,
                       "CONV_2D other than 1x1, per word load of a filter row that starts at an "
                       "address not a multiple of 4 (0 for the reference kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.dwconv_per_mac), "cycles/MAC", 0, kUnbounded,
                       "DEPTHWISE_CONV_2D, per MAC of a tap inside the input.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.dwconv_per_tap), "cycles/tap", 0, kUnbounded,
                       "DEPTHWISE_CONV_2D, per filter tap checked against the input (outputs x "
                       "KH x KW).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.dwconv_per_row), "cycles/row", 0, kUnbounded,
                       "DEPTHWISE_CONV_2D, per filter row checked against the input (outputs x "
                       "KH).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.dwconv_per_output), "cycles/output", 0,
                       kUnbounded, "DEPTHWISE_CONV_2D, per output.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.dwconv_per_call), "cycles/call", 0, kUnbounded,
                       "DEPTHWISE_CONV_2D, per invocation.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.dwconv_per_scalar_mac), "cycles/MAC", 0,
                       kUnbounded,
                       "DEPTHWISE_CONV_2D, per MAC inside the input of a channel a four-channel "
                       "kernel leaves to scalar code (the last in_c mod 4 at depth multiplier 1, "
                       "every channel above it; 0 for the reference kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.dwconv_per_pixel), "cycles/pixel", 0,
                       kUnbounded,
                       "DEPTHWISE_CONV_2D, per output pixel (batches x OH x OW; 0 for the "
                       "reference kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.dwconv_per_general_pixel), "cycles/pixel", 0,
                       kUnbounded,
                       "DEPTHWISE_CONV_2D, per output pixel outside an unrolled 3x3 path: every "
                       "pixel unless the filter is 3x3 at dilation 1 and depth multiplier 1, "
                       "else those whose window is not wholly inside the input (0 for the "
                       "reference kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.dwconv_per_quad), "cycles/group", 0,
                       kUnbounded,
                       "DEPTHWISE_CONV_2D, per four-channel group of an output pixel outside the "
                       "unrolled 3x3 path (0 for the reference kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.dwconv_per_quad_row), "cycles/row", 0,
                       kUnbounded,
                       "DEPTHWISE_CONV_2D, per filter row inside the input of such a group (0 for "
                       "the reference kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.dwconv_per_scalar_channel), "cycles/channel",
                       0, kUnbounded,
                       "DEPTHWISE_CONV_2D, per scalar channel of an output pixel outside the "
                       "unrolled 3x3 path (0 for the reference kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.dwconv_per_scalar_row), "cycles/row", 0,
                       kUnbounded,
                       "DEPTHWISE_CONV_2D, per filter row inside the input of such a channel (0 "
                       "for the reference kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.dwconv_per_quad_pixel), "cycles/pixel", 0,
                       kUnbounded,
                       "DEPTHWISE_CONV_2D, per output pixel of a layer whose channels run four at "
                       "a time (0 for the reference kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.dwconv_per_filter_miss), "cycles/miss", 0,
                       kUnbounded,
                       "DEPTHWISE_CONV_2D, per filter load that misses the data cache in front "
                       "of the weights in flash (counted along the kernel library's loop "
                       "order).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.pool_per_element), "cycles/element", 0,
                       kUnbounded, "AVERAGE_POOL_2D, per window element (outputs x KH x KW).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.pool_per_output), "cycles/output", 0,
                       kUnbounded, "AVERAGE_POOL_2D, per output.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.maxpool_per_element), "cycles/element", 0,
                       kUnbounded, "MAX_POOL_2D, per window element (outputs x KH x KW).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.maxpool_per_output), "cycles/output", 0,
                       kUnbounded, "MAX_POOL_2D, per output.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.softmax_per_element), "cycles/element", 0,
                       kUnbounded, "SOFTMAX, per element.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.quantize_per_element), "cycles/element", 0,
                       kUnbounded,
                       "QUANTIZE from an integer type, per element; MEAN, per output; operators "
                       "without their own coefficient, per element.",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.quantize_float_per_element), "cycles/element",
                       0, kUnbounded, "QUANTIZE from float32, per element.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.dequantize_per_element), "cycles/element", 0,
                       kUnbounded, "DEQUANTIZE, per element.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.reshape_per_call), "cycles/call", 0,
                       kUnbounded, "RESHAPE, per invocation.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.reshape_per_byte), "cycles/byte", 0,
                       kUnbounded, "RESHAPE, per byte copied.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.op_per_call), "cycles/call", 0, kUnbounded,
                       "Per invocation of the element-wise and data-movement ops without a "
                       "per-call coefficient of their own.",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.pool_per_call), "cycles/call", 0, kUnbounded,
                       "AVERAGE_POOL_2D, per invocation.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.maxpool_per_call), "cycles/call", 0,
                       kUnbounded, "MAX_POOL_2D, per invocation.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.pool_per_row), "cycles/row", 0, kUnbounded,
                       "AVERAGE_POOL_2D, per window row inside the input, summed over the output "
                       "pixels (0 for the reference kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.maxpool_per_row), "cycles/row", 0, kUnbounded,
                       "MAX_POOL_2D, per window row inside the input, summed over the output "
                       "pixels (0 for the reference kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.softmax_per_call), "cycles/call", 0,
                       kUnbounded, "SOFTMAX, per invocation.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.add_per_call), "cycles/call", 0, kUnbounded,
                       "ADD and SUB, per invocation.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.mul_per_call), "cycles/call", 0, kUnbounded,
                       "MUL, per invocation.", kPreset));
  t.push_back(
      floatKey(HILSIM_FIELD(cpu.coefficients.svdf_per_feature_mac), "cycles/MAC", 0, kUnbounded,
               "SVDF, per MAC of the feature product (batches x filters x input size).", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.svdf_per_time_mac), "cycles/MAC", 0,
                       kUnbounded,
                       "SVDF, per MAC of the time product (batches x filters x memory).", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.svdf_state_per_byte), "cycles/byte", 0,
                       kUnbounded, "SVDF, per byte of state shifted.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.svdf_per_filter), "cycles/filter", 0,
                       kUnbounded, "SVDF, per filter and batch.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.svdf_per_unit), "cycles/unit", 0, kUnbounded,
                       "SVDF, per unit and batch (output element).", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.svdf_per_call), "cycles/call", 0, kUnbounded,
                       "SVDF, per invocation.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.add_per_element), "cycles/element", 0,
                       kUnbounded, "ADD and SUB, per output element.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.mul_per_element), "cycles/element", 0,
                       kUnbounded, "MUL, per output element.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.minmax_per_element), "cycles/element", 0,
                       kUnbounded, "MAXIMUM and MINIMUM, per output element.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.activation_per_element), "cycles/element", 0,
                       kUnbounded, "LOGISTIC and TANH, per element.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.hard_swish_per_element), "cycles/element", 0,
                       kUnbounded, "HARD_SWISH, per element.", kPreset));
  t.push_back(
      floatKey(HILSIM_FIELD(cpu.coefficients.copy_per_element), "cycles/element", 0, kUnbounded,
               "CONCATENATION, PAD, PADV2, TRANSPOSE, STRIDED_SLICE and SQUEEZE, per output "
               "element.",
               kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.mean_per_element), "cycles/element", 0,
                       kUnbounded, "MEAN, per input element.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.lstm_per_mac), "cycles/MAC", 0, kUnbounded,
                       "UNIDIRECTIONAL_SEQUENCE_LSTM, per gate MAC of the input product.",
                       kPreset));
  t.push_back(
      floatKey(HILSIM_FIELD(cpu.coefficients.lstm_per_recurrent_mac), "cycles/MAC", 0, kUnbounded,
               "UNIDIRECTIONAL_SEQUENCE_LSTM, per gate MAC of the recurrent product.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.lstm_per_unaligned_load), "cycles/load", 0,
                       kUnbounded,
                       "UNIDIRECTIONAL_SEQUENCE_LSTM, per word load of the gate products at an "
                       "address not a multiple of 4 (optimized kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.lstm_per_tail_mac), "cycles/MAC", 0,
                       kUnbounded,
                       "UNIDIRECTIONAL_SEQUENCE_LSTM, per gate MAC in the K mod 4 rest of a dot "
                       "product (optimized kernels).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.lstm_cell_per_element), "cycles/element", 0,
                       kUnbounded,
                       "UNIDIRECTIONAL_SEQUENCE_LSTM, per cell and time step: the eight product "
                       "requantizations, four gate activations, cell and hidden updates.",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.lstm_per_step), "cycles/step", 0, kUnbounded,
                       "UNIDIRECTIONAL_SEQUENCE_LSTM, per sequence step (time steps, x batch when "
                       "batch-major).",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.lstm_per_call), "cycles/call", 0, kUnbounded,
                       "UNIDIRECTIONAL_SEQUENCE_LSTM, per invocation.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.fc_first_call), "cycles/call", 0, kUnbounded,
                       "FULLY_CONNECTED (int8), added to the first invocation in an inference.",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.fc_float_first_call), "cycles/call", 0,
                       kUnbounded,
                       "FULLY_CONNECTED in float32, added to the first invocation in an "
                       "inference.",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.fc_path_first_call), "cycles/path", 0,
                       kUnbounded,
                       "FULLY_CONNECTED (int8) after the first, per code path of the optimized "
                       "kernel it runs that no earlier one in the inference ran.",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.conv_first_call), "cycles/call", 0, kUnbounded,
                       "CONV_2D, added to the first invocation in an inference.", kPreset));
  t.push_back(
      floatKey(HILSIM_FIELD(cpu.coefficients.dwconv_first_call), "cycles/call", 0, kUnbounded,
               "DEPTHWISE_CONV_2D, added to the first invocation in an inference.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.svdf_first_call), "cycles/call", 0, kUnbounded,
                       "SVDF, added to the first invocation in an inference.", kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.lstm_first_call), "cycles/call", 0, kUnbounded,
                       "UNIDIRECTIONAL_SEQUENCE_LSTM, added to the first invocation in an "
                       "inference.",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.reshape_first_call), "cycles/call", 0,
                       kUnbounded, "RESHAPE, added to the first invocation in an inference.",
                       kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.op_first_call), "cycles/call", 0, kUnbounded,
                       "Every other operator, added to its first invocation in an inference.",
                       kPreset));
  t.push_back(intKey(HILSIM_FIELD(cpu.coefficients.reduction_multiple), "elements", kCount64,
                     "FULLY_CONNECTED pads K up to a multiple of this (16 for Helium kernels).",
                     kPreset));
  t.push_back(floatKey(HILSIM_FIELD(cpu.coefficients.weight_memory_factor), "factor", 0, kUnbounded,
                       "Multiplies fc_per_mac and the LSTM's per-MAC terms for where weights live.",
                       "from cpu.weight_memory"));
  // mcu
  const IntRule kBudget{{{0, 1ll << 32}}};
  t.push_back(intKey(HILSIM_FIELD(mcu.flash_bytes), "bytes", kBudget,
                     "Flash of the microcontroller for the model and the firmware; a run that "
                     "needs more warns (0: not checked)."));
  t.push_back(intKey(HILSIM_FIELD(mcu.sram_bytes), "bytes", kBudget,
                     "SRAM of the microcontroller for the tensor arena; a run whose arena is "
                     "larger warns (0: not checked)."));
  // sim
  t.push_back(intKey(HILSIM_FIELD(sim.quantum_ns), "ns", IntRule{{{1, 1'000'000'000}}},
                     "TLM quantum: how far the host CPU may run ahead before it synchronizes."));
  t.push_back(choiceKey(
      HILSIM_FIELD(sim.log_level),
      named({LogLevel::kTrace, LogLevel::kDebug, LogLevel::kInfo, LogLevel::kWarn, LogLevel::kError,
             LogLevel::kOff}),
      "Least severe library log message printed on stderr (debug: every accelerator job)."));
  t.push_back(intKey(HILSIM_FIELD(sim.watchdog_cycles), "cycles (CPU clock)",
                     IntRule{{{1000, 1'000'000'000'000ll}}},
                     "A run with no progress for this long is reported as a hang; the driver stops "
                     "waiting for an interrupt after half of it."));
  t.push_back(
      choiceKey(HILSIM_FIELD(sim.fault),
                named({Fault::kNone, Fault::kBusError, Fault::kIrqLost, Fault::kDmaUnmapped}),
                "Fault injected into one accelerator job: an error response, a lost interrupt or a "
                "transfer to unmapped memory."));
  t.push_back(intKey(HILSIM_FIELD(sim.fault_at_job), "jobs", IntRule{{{0, 1'000'000'000}}},
                     "Accelerator job that receives sim.fault (0: the first job of the run)."));
  t.push_back(intKey(HILSIM_FIELD(sim.transaction_bytes), "bytes",
                     IntRule{{{0, 0}, {64, 1ll << 30}}},
                     "Size of the TLM transactions DMA data is split into (0: one per transfer); "
                     "timing does not depend on it."));
  constexpr const char* kTechPreset = "energy.preset";
  constexpr const char* kHostPreset = "energy.host.preset";
  t.push_back(choiceKey(HILSIM_FIELD(energy.preset), techChoices(),
                        "Technology of the accelerator's energies, leakage and area: 45 nm "
                        "published figures, 28 and 22 nm scaled from them (docs/ENERGY.md)."));
  t.push_back(boolKey(HILSIM_FIELD(energy.power_gating),
                      "Charge a core's static power only while it is busy."));
  t.push_back(floatKey(HILSIM_FIELD(energy.mac_pj), "pJ", 0, kUnbounded,
                       "One int8 MAC: multiplier, 32-bit accumulate, pipeline registers.",
                       kTechPreset));
  t.push_back(floatKey(HILSIM_FIELD(energy.sram_read_pj_per_byte), "pJ/byte", 0, kUnbounded,
                       "A byte read from a core's SRAM.",
                       "energy.preset at accel.core.sram_bytes"));
  t.push_back(floatKey(HILSIM_FIELD(energy.sram_write_pj_per_byte), "pJ/byte", 0, kUnbounded,
                       "A byte written to a core's SRAM.",
                       "energy.preset at accel.core.sram_bytes"));
  t.push_back(floatKey(HILSIM_FIELD(energy.dma_pj_per_byte), "pJ/byte", 0, kUnbounded,
                       "A byte through the DMA engine.", kTechPreset));
  t.push_back(floatKey(HILSIM_FIELD(energy.bus_pj_per_beat), "pJ", 0, kUnbounded,
                       "One beat on the shared bus.", "energy.preset at bus.width_bytes"));
  t.push_back(floatKey(HILSIM_FIELD(energy.register_access_pj), "pJ", 0, kUnbounded,
                       "One register block access.", kTechPreset));
  t.push_back(floatKey(HILSIM_FIELD(energy.system_memory_read_pj_per_byte), "pJ/byte", 0,
                       kUnbounded, "A byte read from system memory.", kTechPreset));
  t.push_back(floatKey(HILSIM_FIELD(energy.system_memory_write_pj_per_byte), "pJ/byte", 0,
                       kUnbounded, "A byte written to system memory.", kTechPreset));
  t.push_back(floatKey(HILSIM_FIELD(energy.sram_leakage_uw_per_kib), "uW/KiB", 0, kUnbounded,
                       "Static power of a core's SRAM.", kTechPreset));
  t.push_back(floatKey(HILSIM_FIELD(energy.pe_leakage_uw), "uW", 0, kUnbounded,
                       "Static power of one processing element.", kTechPreset));
  t.push_back(floatKey(HILSIM_FIELD(energy.area.sram_array_efficiency), "fraction", 0.05, 1,
                       "Bit cells over SRAM macro area.", kTechPreset));
  t.push_back(floatKey(HILSIM_FIELD(energy.area.control_fraction), "fraction", 0, 10,
                       "A core's control area over its array and SRAM.", kTechPreset));
  t.push_back(choiceKey(HILSIM_FIELD(energy.host.preset), hostChoices(),
                        "Host MCU whose datasheet figures apply.", "cpu.preset"));
  t.push_back(floatKey(HILSIM_FIELD(energy.host.run_ua_per_mhz), "uA/MHz", 0, kUnbounded,
                       "Run-mode current, code from flash.", kHostPreset));
  t.push_back(floatKey(HILSIM_FIELD(energy.host.sleep_ua_per_mhz), "uA/MHz", 0, kUnbounded,
                       "Sleep (WFI) current at the same clock.", kHostPreset));
  t.push_back(floatKey(HILSIM_FIELD(energy.host.supply_v), "V", 0.5, 5.5,
                       "Supply the currents are drawn at.", kHostPreset));
  t.push_back(floatKey(HILSIM_FIELD(energy.host.flash_line_read_pj), "pJ", 0, kUnbounded,
                       "One line of model data read from flash.", kHostPreset));
  t.push_back(floatKey(HILSIM_FIELD(energy.host.sram_access_pj), "pJ", 0, kUnbounded,
                       "A host SRAM access beyond the run current.", kHostPreset));
  return t;
}

#undef HILSIM_FIELD

struct Index {
  std::vector<KeySpec> specs;
  std::vector<KeyInfo> infos;
  std::map<std::string, size_t> by_key;
  std::set<std::string> groups;
  std::vector<std::string> paths;  // every key and every group: candidates for suggestions

  Index() : specs(buildTable()) {
    for (size_t i = 0; i < specs.size(); ++i) {
      const std::string& key = specs[i].info.key;
      infos.push_back(specs[i].info);
      by_key.emplace(key, i);
      for (size_t dot = key.find('.'); dot != std::string::npos; dot = key.find('.', dot + 1))
        groups.insert(key.substr(0, dot));
      paths.push_back(key);
    }
    paths.insert(paths.end(), groups.begin(), groups.end());
  }
};

const Index& index() {
  static const Index instance;
  return instance;
}

std::string parentOf(const std::string& path) {
  const size_t dot = path.rfind('.');
  return dot == std::string::npos ? "" : path.substr(0, dot);
}

std::string leafOf(const std::string& path) {
  const size_t dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

}  // namespace

const std::vector<KeySpec>& keySpecs() {
  return index().specs;
}

const KeySpec* findKey(const std::string& key) {
  const auto& by_key = index().by_key;
  const auto it = by_key.find(key);
  return it == by_key.end() ? nullptr : &index().specs[it->second];
}

bool isGroup(const std::string& path) {
  return index().groups.count(path) > 0;
}

std::string unknownKeyMessage(const std::string& path) {
  // Score every key and group by the whole dotted path, and by the last name alone (a sibling
  // costs nothing extra; the same name under another group costs one edit).
  const std::string parent = parentOf(path), leaf = leafOf(path);
  std::string best;
  size_t best_score = std::numeric_limits<size_t>::max();
  for (const std::string& candidate : index().paths) {
    const size_t whole = suggestionDistance(path, candidate);
    const size_t by_leaf =
        suggestionDistance(leaf, leafOf(candidate)) + (parentOf(candidate) == parent ? 0 : 1);
    const size_t score = std::min(whole, by_leaf);
    if (score < best_score) best_score = score, best = candidate;
  }
  std::string message = "unknown key '" + path + "'";
  if (closeEnough(best_score, leaf.size())) return message + " (did you mean '" + best + "'?)";

  std::vector<std::string> siblings;
  if (parent.empty()) siblings.push_back("include");
  for (const std::string& candidate : index().paths)
    if (parentOf(candidate) == parent) siblings.push_back(leafOf(candidate));
  if (siblings.empty()) return message;
  return message + " (valid " +
         (parent.empty() ? "top-level keys" : "keys under '" + parent + "'") + ": " +
         join(siblings, ", ") + ")";
}

}  // namespace hilsim::config::detail

namespace hilsim::config {

const std::vector<KeyInfo>& configKeys() {
  return detail::index().infos;
}

}  // namespace hilsim::config
