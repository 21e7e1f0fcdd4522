// Every kind of config error: one line naming the file and line (or the --set text) and the key.

#include <gtest/gtest.h>

#include "config_test_util.h"

namespace hilsim::test {
namespace {

class ConfigErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = makeTempDir(std::string("config_errors_") +
                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  // Loads `text` as a file and returns the error, with the file's path replaced by "F".
  std::string errorOf(const std::string& text) {
    const std::string path = writeText(dir_, "c" + std::to_string(count_++) + ".yaml", text);
    std::string message = loadError(path);
    for (size_t at = message.find(path); at != std::string::npos; at = message.find(path, at))
      message.replace(at, path.size(), "F");
    return message;
  }
  std::string errorOfSet(const std::string& set) { return loadError("", {{set}}); }

  std::string dir_;
  int count_ = 0;
};

TEST_F(ConfigErrors, UnknownKeySuggestsTheNearestKey) {
  EXPECT_EQ(errorOf("accel:\n  core:\n    arary_rows: 4\n"),
            "F:3: unknown key 'accel.core.arary_rows' (did you mean 'accel.core.array_rows'?)");
  EXPECT_EQ(errorOf("acel:\n  num_cores: 4\n"), "F:1: unknown key 'acel' (did you mean 'accel'?)");
  // The right name under the wrong group.
  EXPECT_EQ(errorOf("num_cores: 4\n"),
            "F:1: unknown key 'num_cores' (did you mean 'accel.num_cores'?)");
  EXPECT_EQ(errorOf("bus:\n  sram_bytes: 4\n"),
            "F:2: unknown key 'bus.sram_bytes' (did you mean 'accel.core.sram_bytes'?)");
  EXPECT_EQ(errorOf("cpu:\n  coefficients:\n    fc_per_macs: 1\n"),
            "F:3: unknown key 'cpu.coefficients.fc_per_macs' (did you mean "
            "'cpu.coefficients.fc_per_mac'?)");
}

TEST_F(ConfigErrors, UnknownKeyFarFromAnyListsTheValidOnes) {
  EXPECT_EQ(
      errorOf("zzzz: 1\n"),
      "F:1: unknown key 'zzzz' (valid top-level keys: include, accel, bus, cpu, energy, mcu, memory, sim)");
  EXPECT_EQ(errorOf("accel:\n  core:\n    zzzzzzz: 1\n"),
            "F:3: unknown key 'accel.core.zzzzzzz' (valid keys under 'accel.core': array_rows, "
            "array_cols, dataflow, sram_bytes, startup_cycles, double_buffer)");
  // A long name is as far from every key as its length says: still no suggestion.
  const std::string long_name = "accel_num_cores" + std::string(1000, 'x');
  EXPECT_EQ(errorOf(long_name + ": 1\n"),
            "F:1: unknown key '" + long_name +
                "' (valid top-level keys: include, accel, bus, cpu, energy, mcu, memory, sim)");
  // Four characters longer than a key is beyond the suggestion limit; three is within it.
  EXPECT_EQ(errorOf("bus:\n  latency_cyclesxxxx: 1\n").find("did you mean"), std::string::npos);
  EXPECT_EQ(errorOf("bus:\n  latency_cyclesxxx: 1\n"),
            "F:2: unknown key 'bus.latency_cyclesxxx' (did you mean 'bus.latency_cycles'?)");
}

TEST_F(ConfigErrors, WrongTypes) {
  EXPECT_EQ(errorOf("accel:\n  num_cores: four\n"),
            "F:2: accel.num_cores: expected an integer, got 'four'");
  EXPECT_EQ(errorOf("accel:\n  num_cores: 4.5\n"),
            "F:2: accel.num_cores: expected an integer, got '4.5'");
  EXPECT_EQ(errorOf("accel:\n  num_cores: 4.0\n"),
            "F:2: accel.num_cores: expected an integer, got '4.0'");
  EXPECT_EQ(errorOf("accel:\n  num_cores: \"4\"\n"),
            "F:2: accel.num_cores: expected an integer, got the quoted string \"4\"");
  EXPECT_EQ(errorOf("accel:\n  clock_mhz: fast\n"),
            "F:2: accel.clock_mhz: expected a number, got 'fast'");
  EXPECT_EQ(errorOf("accel:\n  clock_mhz: .inf\n"),
            "F:2: accel.clock_mhz: expected a number, got '.inf'");
  EXPECT_EQ(
      errorOf("accel:\n  core:\n    double_buffer: \"true\"\n"),
      "F:3: accel.core.double_buffer: expected true or false, got the quoted string \"true\"");
  EXPECT_EQ(errorOf("accel:\n  core:\n    double_buffer: yes\n"),
            "F:3: accel.core.double_buffer: expected true or false, got 'yes'");
  EXPECT_EQ(errorOf("accel:\n  core:\n    double_buffer: 1\n"),
            "F:3: accel.core.double_buffer: expected true or false, got '1'");
}

TEST_F(ConfigErrors, NullValues) {
  EXPECT_EQ(errorOf("accel:\n  num_cores:\n"),
            "F:2: accel.num_cores: expected an integer, got no value (null)");
  EXPECT_EQ(errorOf("accel:\n  num_cores: null\n"),
            "F:2: accel.num_cores: expected an integer, got no value (null)");
  EXPECT_EQ(errorOf("accel:\n  core:\n    dataflow: ~\n"),
            "F:3: accel.core.dataflow: expected one of ws|os|is, got no value (null)");
}

TEST_F(ConfigErrors, MappingWhereAScalarIsExpectedAndViceVersa) {
  EXPECT_EQ(errorOf("accel:\n  num_cores:\n    a: 1\n"),
            "F:2: accel.num_cores: expected an integer, got a mapping");
  EXPECT_EQ(errorOf("accel:\n  num_cores: [4]\n"),
            "F:2: accel.num_cores: expected an integer, got a list");
  EXPECT_EQ(errorOf("accel: 4\n"),
            "F:1: accel: expected a mapping of the keys under 'accel', got '4'");
  EXPECT_EQ(errorOf("accel:\n  core: [1, 2]\n"),
            "F:2: accel.core: expected a mapping of the keys under 'accel.core', got a list");
}

TEST_F(ConfigErrors, TopLevelNotAMapping) {
  EXPECT_EQ(
      errorOf("- 1\n- 2\n"),
      "F:1: the top level must be a mapping of keys (include, accel, bus, memory, cpu, mcu, sim), "
      "got a list");
  EXPECT_EQ(
      errorOf("hello\n"),
      "F:1: the top level must be a mapping of keys (include, accel, bus, memory, cpu, mcu, sim), "
      "got 'hello'");
}

TEST_F(ConfigErrors, DuplicateKeys) {
  EXPECT_EQ(errorOf("accel:\n  num_cores: 4\n  num_cores: 5\n"),
            "F:3: duplicate key 'accel.num_cores' (first at line 2)");
  EXPECT_EQ(errorOf("accel:\n  num_cores: 4\nbus:\n  width_bytes: 16\naccel:\n  clock_mhz: 1\n"),
            "F:5: duplicate key 'accel' (first at line 1)");
  // The same key reached nested and as a dotted name.
  EXPECT_EQ(errorOf("accel.num_cores: 8\naccel:\n  num_cores: 4\n"),
            "F:3: duplicate key 'accel.num_cores' (first at line 1)");
}

TEST_F(ConfigErrors, YamlSyntax) {
  EXPECT_EQ(errorOf("accel:\n  num_cores: 4\n  clock_mhz: [1\n"),
            "F:4: YAML syntax error: end of sequence flow not found");
  EXPECT_EQ(errorOf("accel:\n  num_cores: 4\n bad: 2\n"),
            "F:3: YAML syntax error: end of map not found");
  EXPECT_EQ(errorOf("accel:\n  num_cores: 4\n---\nbus:\n  width_bytes: 8\n"),
            "F:3: more than one YAML document (a config file holds one mapping)");
}

TEST_F(ConfigErrors, OutOfRange) {
  EXPECT_EQ(errorOf("accel:\n  num_cores: 65\n"),
            "F:2: accel.num_cores = 65 is out of range (1..64)");
  EXPECT_EQ(errorOf("accel:\n  num_cores: 0\n"),
            "F:2: accel.num_cores = 0 is out of range (1..64)");
  EXPECT_EQ(errorOf("accel:\n  num_cores: -1\n"),
            "F:2: accel.num_cores = -1 is out of range (1..64)");
  EXPECT_EQ(errorOf("sim:\n  quantum_ns: -5\n"),
            "F:2: sim.quantum_ns = -5 is out of range (1..1000000000)");
  EXPECT_EQ(errorOf("accel:\n  num_cores: 99999999999999999999\n"),
            "F:2: accel.num_cores = 99999999999999999999 is out of range (1..64)");
  EXPECT_EQ(errorOf("memory:\n  size_bytes: 4294967297\n"),
            "F:2: memory.size_bytes = 4294967297 is out of range (65536..4294967296)");
  EXPECT_EQ(errorOf("accel:\n  clock_mhz: 1e999\n"),
            "F:2: accel.clock_mhz = 1e999 is out of range (1..10000)");
  EXPECT_EQ(errorOf("accel:\n  clock_mhz: 0.5\n"),
            "F:2: accel.clock_mhz = 0.5 is out of range (1..10000)");
  EXPECT_EQ(errorOf("cpu:\n  coefficients:\n    fc_per_mac: -1\n"),
            "F:3: cpu.coefficients.fc_per_mac = -1.0 is out of range (>= 0)");
  EXPECT_EQ(errorOf("cpu:\n  coefficients:\n    reduction_multiple: 0\n"),
            "F:3: cpu.coefficients.reduction_multiple = 0 is out of range (1..64)");
  EXPECT_EQ(errorOf("sim:\n  transaction_bytes: 32\n"),
            "F:2: sim.transaction_bytes = 32 is out of range (0 or 64..1073741824)");
  EXPECT_EQ(errorOf("bus:\n  width_bytes: 24\n"),
            "F:2: bus.width_bytes = 24 is not a power of two (1..1024, power of two)");
  EXPECT_EQ(errorOf("bus:\n  width_bytes: 2048\n"),
            "F:2: bus.width_bytes = 2048 is out of range (1..1024, power of two)");
}

TEST_F(ConfigErrors, EnumValues) {
  EXPECT_EQ(errorOf("accel:\n  core:\n    dataflow: WS\n"),
            "F:3: accel.core.dataflow = 'WS' is not one of ws|os|is (did you mean 'ws'?)");
  EXPECT_EQ(errorOf("bus:\n  arbitration: round-robin\n"),
            "F:2: bus.arbitration = 'round-robin' is not one of round_robin|fixed (did you mean "
            "'round_robin'?)");
  EXPECT_EQ(errorOf("sim:\n  log_level: loud\n"),
            "F:2: sim.log_level = 'loud' is not one of trace|debug|info|warn|error|off");
  EXPECT_EQ(errorOf("cpu:\n  preset: cortex-m5\n"),
            "F:2: cpu.preset = 'cortex-m5' is not one of cortex-m0plus|cortex-m33|cortex-m4f|"
            "cortex-m55|cortex-m55-helium|cortex-m7|fe310|nrf5340|ra6m4|rv32im|stm32g0b1|"
            "stm32l4r5|stm32u575 (did you mean 'cortex-m55'?)");
}

TEST_F(ConfigErrors, RulesBetweenKeysNameBothKeys) {
  EXPECT_EQ(errorOf("bus:\n  width_bytes: 512\n"),
            "F:2: accel.dma.max_burst_bytes = 256 is smaller than bus.width_bytes = 512: a burst "
            "must fill at least one bus beat (accel.dma.max_burst_bytes is the default)");
  EXPECT_EQ(errorOf("accel:\n  dma:\n    max_burst_bytes: 8\n"),
            "F:3: accel.dma.max_burst_bytes = 8 is smaller than bus.width_bytes = 16: a burst "
            "must fill at least one bus beat (bus.width_bytes is the default)");
  EXPECT_EQ(errorOf("accel:\n  dma:\n    max_burst_bytes: 8\nbus:\n  width_bytes: 32\n"),
            "F:3: accel.dma.max_burst_bytes = 8 is smaller than bus.width_bytes = 32: a burst "
            "must fill at least one bus beat (bus.width_bytes set at F:5)");
  EXPECT_EQ(errorOf("accel:\n  core:\n    array_rows: 1024\n    array_cols: 1024\n"),
            "F:3: accel.core.sram_bytes = 262144 cannot hold one weight tile of "
            "accel.core.array_rows x accel.core.array_cols = 1024 x 1024 = 1048576 bytes "
            "(accel.core.sram_bytes is the default; accel.core.array_cols set at F:4)");
  EXPECT_EQ(errorOf("cpu:\n  preset: cortex-m4f\n  kernels: cmsis_nn\n"),
            "F:3: cpu.kernels = 'cmsis_nn': the estimated CMSIS-NN library is replaced by "
            "hilsim's optimized kernels, executed on the instruction-set simulator: write "
            "'optimized'");
}

TEST_F(ConfigErrors, OneBelowTheSramRule) {
  EXPECT_EQ(errorOfSet("accel.core={array_rows: 64, array_cols: 65, sram_bytes: 4096}"),
            "--set accel.core={array_rows: 64, array_cols: 65, sram_bytes: 4096}: "
            "accel.core.sram_bytes = 4096 cannot hold one weight tile of accel.core.array_rows x "
            "accel.core.array_cols = 64 x 65 = 4160 bytes");
}

TEST_F(ConfigErrors, Overrides) {
  EXPECT_EQ(errorOfSet("accel.num_corse=8"),
            "--set accel.num_corse=8: unknown key 'accel.num_corse' (did you mean "
            "'accel.num_cores'?)");
  EXPECT_EQ(errorOfSet("accel.num_cores=x"),
            "--set accel.num_cores=x: accel.num_cores: expected an integer, got 'x'");
  EXPECT_EQ(errorOfSet("accel.num_cores=65"),
            "--set accel.num_cores=65: accel.num_cores = 65 is out of range (1..64)");
  EXPECT_EQ(errorOfSet("accel.num_cores"), "--set accel.num_cores: expected key=value");
  EXPECT_EQ(errorOfSet("=4"), "--set =4: expected key=value, got an empty key");
  EXPECT_EQ(errorOfSet("accel.num_cores="),
            "--set accel.num_cores=: accel.num_cores: expected an integer, got no value (null)");
  EXPECT_EQ(errorOfSet("accel.num_cores=[1"),
            "--set accel.num_cores=[1: YAML syntax error in the value: end of sequence flow not "
            "found");
  EXPECT_EQ(errorOfSet("accel=4"),
            "--set accel=4: accel: expected a mapping of the keys under 'accel', got '4'");
  EXPECT_EQ(errorOfSet("accel.core.double_buffer=\"true\""),
            "--set accel.core.double_buffer=\"true\": accel.core.double_buffer: expected true or "
            "false, got the quoted string \"true\"");
  EXPECT_EQ(errorOfSet("accel.core={array_rows: 2000}"),
            "--set accel.core={array_rows: 2000}: accel.core.array_rows = 2000 is out of range "
            "(1..1024)");
}

TEST_F(ConfigErrors, MissingTopLevelFile) {
  const std::string path = dir_ + "/nothere.yaml";
  EXPECT_EQ(loadError(path), path + ": file not found");
  EXPECT_EQ(loadError(dir_), dir_ + ": not a regular file");
}

TEST_F(ConfigErrors, ErrorsAreOneLine) {
  for (const char* text : {"accel:\n  num_cores: [1\n", "zzzz: 1\n", "- 1\n"})
    EXPECT_EQ(errorOf(text).find('\n'), std::string::npos);
}

}  // namespace
}  // namespace hilsim::test
