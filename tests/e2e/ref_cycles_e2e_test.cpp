// The reference kernels' executed cycles on the instruction-set simulators, per operator type, on
// person_detect at zero wait states, held against a committed table: a change to the kernels'
// structure (or to the firmware's build) that moves their cost shows up here. And the firmware
// image's optimization level (cpu.firmware_opt): -Os runs the same bytes in more cycles.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>

#include "files.h"
#include "golden_cases.h"
#include "json_file.h"
#include "runner.h"

namespace hilsim::test {
namespace {

using OpCycles = std::map<std::string, uint64_t>;

// Runs person_detect on the reference path of `preset` at zero wait states; returns its report.
JsonDoc runReference(const std::string& dir, const std::string& preset, const std::string& opt,
                     const std::string& output) {
  const std::string report = dir + "/" + preset + "-" + opt + ".json";
  const RunOutcome r = runHilsim({"run",
                                  "--model",
                                  sharedDir() + "/models/person_detect.tflite",
                                  "--mode",
                                  "ref",
                                  "--quiet",
                                  "--report",
                                  report,
                                  "--output",
                                  output,
                                  "--set",
                                  "cpu.preset=" + preset,
                                  "--set",
                                  "cpu.model=iss",
                                  "--set",
                                  "cpu.flash_wait_states=0",
                                  "--set",
                                  "cpu.sram_wait_states=0",
                                  "--set",
                                  "cpu.firmware_opt=" + opt});
  EXPECT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
  return readJsonFile(report);
}

OpCycles cyclesByOp(const JsonDoc& report) {
  OpCycles out;
  for (const JsonDoc& l : report.at("layers"))
    out[l.at("op").get<std::string>()] += l.at("ref_cycles").get<uint64_t>();
  return out;
}

// person_detect's reference cycles per operator type at zero wait states, firmware -O2, as the
// reference kernels (kernels/src) execute them. Re-measure with
//   hilsim run --model ../shared/models/person_detect.tflite --mode ref --set cpu.preset=P
//     --set cpu.flash_wait_states=0 --set cpu.sram_wait_states=0
// (the table's "summary by op type") when a kernel's structure changes on purpose.
// AVERAGE_POOL_2D is one 3x3 window over 3x3x256: 256 outputs, each in TFLite Micro's order (the
// window clamped per channel, nine taps each read through Offset(), the rounded division, the
// output written through Offset()): 221 cycles per output on cortex-m4f.
const std::map<std::string, OpCycles>& expectedCycles() {
  static const std::map<std::string, OpCycles> table = {
      {"cortex-m0plus",
       {{"CONV_2D", 109'922'791},
        {"DEPTHWISE_CONV_2D", 85'825'302},
        {"AVERAGE_POOL_2D", 133'573},
        {"SOFTMAX", 5'539},
        {"RESHAPE", 154}}},
      {"cortex-m4f",
       {{"CONV_2D", 77'166'164},
        {"DEPTHWISE_CONV_2D", 56'058'538},
        {"AVERAGE_POOL_2D", 56'668},
        {"SOFTMAX", 1'665},
        {"RESHAPE", 107}}},
      {"cortex-m33",
       {{"CONV_2D", 62'311'429},
        {"DEPTHWISE_CONV_2D", 46'813'051},
        {"AVERAGE_POOL_2D", 41'711},
        {"SOFTMAX", 1'559},
        {"RESHAPE", 85}}},
      {"rv32im",
       {{"CONV_2D", 86'139'824},
        {"DEPTHWISE_CONV_2D", 34'141'869},
        {"AVERAGE_POOL_2D", 39'809},
        {"SOFTMAX", 2'056},
        {"RESHAPE", 100}}},
  };
  return table;
}

// Within 0.5%: the per-layer cycles vary by a few hundred with the data (branches of the
// requantization), a structural change moves a type by far more.
constexpr double kTolerance = 0.005;

class RefCycles : public ::testing::TestWithParam<std::string> {};

TEST_P(RefCycles, PersonDetectPerOperatorTypeMatchesTheTable) {
  const std::string preset = GetParam();
  const std::string dir = makeTempDir("ref-cycles-" + preset);
  const OpCycles measured = cyclesByOp(runReference(dir, preset, "O2", dir + "/out.bin"));
  const auto want = expectedCycles().find(preset);
  ASSERT_NE(want, expectedCycles().end());
  std::printf("person_detect, %s, zero wait states, firmware -O2:\n", preset.c_str());
  for (const auto& [op, cycles] : measured)
    std::printf("  %-20s %12llu\n", op.c_str(), static_cast<unsigned long long>(cycles));
  ASSERT_EQ(measured.size(), want->second.size());
  for (const auto& [op, cycles] : want->second) {
    const auto got = measured.find(op);
    ASSERT_NE(got, measured.end()) << op;
    EXPECT_NEAR(double(got->second), double(cycles), kTolerance * double(cycles))
        << preset << " " << op;
  }
}

INSTANTIATE_TEST_SUITE_P(IssPresets, RefCycles,
                         ::testing::Values("cortex-m0plus", "cortex-m4f", "cortex-m33", "rv32im"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

// -Os keeps the bytes (the same sources) and costs more cycles on every convolution: the
// offset computation and the requantization stop being inlined.
TEST(FirmwareOpt, OsExecutesMoreCyclesForTheSameBytes) {
  const std::string dir = makeTempDir("firmware-opt");
  const JsonDoc o2 = runReference(dir, "cortex-m4f", "O2", dir + "/o2.bin");
  const JsonDoc os = runReference(dir, "cortex-m4f", "Os", dir + "/os.bin");
  EXPECT_EQ(o2.at("simulation").at("firmware_opt").get<std::string>(), "O2");
  EXPECT_EQ(os.at("simulation").at("firmware_opt").get<std::string>(), "Os");
  const std::vector<uint8_t> o2_bytes = readFile(dir + "/o2.bin");
  EXPECT_FALSE(o2_bytes.empty());
  EXPECT_EQ(o2_bytes, readFile(dir + "/os.bin"));
  const OpCycles o2_cycles = cyclesByOp(o2), os_cycles = cyclesByOp(os);
  for (const char* op : {"CONV_2D", "DEPTHWISE_CONV_2D"})
    EXPECT_GT(os_cycles.at(op), o2_cycles.at(op) * 3 / 2) << op;
}

// Total reference cycles of person_detect on cortex-m4f at the preset's wait states, from the
// given CPU model (iss or cost) with the firmware built at `opt`.
uint64_t personDetectTotal(const std::string& dir, const std::string& model,
                           const std::string& opt) {
  const std::string report = dir + "/" + model + "-" + opt + ".json";
  const RunOutcome r =
      runHilsim({"run", "--model", sharedDir() + "/models/person_detect.tflite", "--mode", "ref",
                 "--quiet", "--report", report, "--set", "cpu.preset=cortex-m4f", "--set",
                 "cpu.model=" + model, "--set", "cpu.firmware_opt=" + opt});
  EXPECT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
  uint64_t total = 0;
  for (const auto& [op, cycles] : cyclesByOp(readJsonFile(report))) total += cycles;
  return total;
}

// The cost model prices the -Os image with coefficients of its own: within 5% of the ISS, where
// the -O2 coefficients would be several times short.
TEST(FirmwareOpt, CostModelPricesTheOsImage) {
  const std::string dir = makeTempDir("firmware-opt-cost");
  const double iss = double(personDetectTotal(dir, "iss", "Os"));
  const double cost = double(personDetectTotal(dir, "cost", "Os"));
  const double cost_o2 = double(personDetectTotal(dir, "cost", "O2"));
  std::printf("person_detect, cortex-m4f, -Os: ISS %.0f, cost model %.0f (%+.1f%%)\n", iss, cost,
              100.0 * (cost - iss) / iss);
  EXPECT_NEAR(cost, iss, 0.05 * iss);
  EXPECT_GT(cost, 1.5 * cost_o2);
}

TEST(FirmwareOpt, OsWithoutCoefficientsIsAConfigError) {
  const RunOutcome optimized =
      runHilsim({"run", "--model", sharedDir() + "/models/person_detect.tflite", "--mode", "ref",
                 "--quiet", "--set", "cpu.kernels=optimized", "--set", "cpu.firmware_opt=Os"});
  EXPECT_EQ(optimized.exit_code, 2);
  EXPECT_NE(optimized.err.find("the optimized library (cpu.kernels = 'optimized') is built at -O2"),
            std::string::npos)
      << optimized.err;
  const RunOutcome no_iss =
      runHilsim({"run", "--model", sharedDir() + "/models/person_detect.tflite", "--mode", "ref",
                 "--quiet", "--set", "cpu.preset=cortex-m7", "--set", "cpu.firmware_opt=Os"});
  EXPECT_EQ(no_iss.exit_code, 2);
  EXPECT_NE(no_iss.err.find("cpu.firmware_opt = 'Os' is not available for cpu.preset = "
                            "'cortex-m7'"),
            std::string::npos)
      << no_iss.err;
}

}  // namespace
}  // namespace hilsim::test
