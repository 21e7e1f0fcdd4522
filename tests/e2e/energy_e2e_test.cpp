// Energy in the report: every figure recomputed from the report's action counts and the resolved
// energy.* config, the components summing to the totals, one per-action energy changing only its
// component, the presets' values as docs/ENERGY.md gives them, and errors for bad energy keys.

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>

#include "files.h"
#include "json_file.h"
#include "runner.h"

namespace hilsim::test {
namespace {

constexpr double kRel = 1e-9;

void expectClose(double got, double want, const std::string& what) {
  EXPECT_NEAR(got, want, kRel * std::max(1.0, std::fabs(want))) << what;
}

// A layer's energy components from its action counts and the config, as docs/ENERGY.md writes
// them (uJ).
struct Recomputed {
  double cpu_active, cpu_sleep, flash, mac, sram, dma_bus, system_memory, static_;
  double total() const {
    return cpu_active + cpu_sleep + flash + mac + sram + dma_bus + system_memory + static_;
  }
};

Recomputed recompute(const JsonDoc& a, const JsonDoc& config) {
  const JsonDoc& e = config.at("energy");
  const JsonDoc& h = e.at("host");
  const auto n = [&a](const char* key) { return a.at(key).get<double>(); };
  const auto p = [&e](const char* key) { return e.at(key).get<double>(); };
  Recomputed r{};
  const double supply = h.at("supply_v").get<double>();
  r.cpu_active = n("cpu_active_cycles") * h.at("run_ua_per_mhz").get<double>() * supply * 1e-6;
  r.cpu_sleep = n("cpu_sleep_cycles") * h.at("sleep_ua_per_mhz").get<double>() * supply * 1e-6;
  r.flash = n("flash_line_reads") * h.at("flash_line_read_pj").get<double>() * 1e-6;
  r.mac = n("macs") * p("mac_pj") * 1e-6;
  r.sram = (n("sram_read_bytes") * p("sram_read_pj_per_byte") +
            n("sram_write_bytes") * p("sram_write_pj_per_byte")) *
           1e-6;
  r.dma_bus = (n("dma_bytes") * p("dma_pj_per_byte") + n("bus_beats") * p("bus_pj_per_beat") +
               n("register_accesses") * p("register_access_pj")) *
              1e-6;
  r.system_memory = (n("system_memory_read_bytes") * p("system_memory_read_pj_per_byte") +
                     n("system_memory_write_bytes") * p("system_memory_write_pj_per_byte")) *
                    1e-6;
  const double leak_uw = config.at("accel").at("core").at("sram_bytes").get<double>() / 1024.0 *
                             p("sram_leakage_uw_per_kib") +
                         config.at("accel").at("core").at("array_rows").get<double>() *
                             config.at("accel").at("core").at("array_cols").get<double>() *
                             p("pe_leakage_uw");
  const bool gating = e.at("power_gating").get<bool>();
  for (const JsonDoc& busy : a.at("core_busy_ps"))
    r.static_ += leak_uw * (gating ? busy.get<double>() : n("simulated_ps")) * 1e-12;
  return r;
}

// The reference path's energy: its cycles at the run current and its flash line reads.
double recomputeRef(const JsonDoc& layer_stats, const JsonDoc& config) {
  const JsonDoc& host = config.at("energy").at("host");
  return layer_stats.at("ref_cycles").at("sum").get<double>() *
             host.at("run_ua_per_mhz").get<double>() * host.at("supply_v").get<double>() * 1e-6 +
         layer_stats.at("actions").at("ref_flash_line_reads").get<double>() *
             host.at("flash_line_read_pj").get<double>() * 1e-6;
}

class EnergyRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<std::string>(makeTestDir());
    ASSERT_EQ(
        runHilsim({"gen-model", "--layers", "64,48,16", "--out", *dir_ + "/mlp.tflite"}).exit_code,
        0);
  }
  RunOutcome run(const std::string& report, std::vector<std::string> extra) {
    std::vector<std::string> args{"run",    "--model",  *dir_ + "/mlp.tflite",
                                  "--mode", "accel",    "--invocations",
                                  "3",      "--report", *dir_ + "/" + report};
    args.insert(args.end(), extra.begin(), extra.end());
    return runHilsim(args);
  }
  std::unique_ptr<std::string> dir_;
};

TEST_F(EnergyRun, EveryLayersEnergyIsItsCountsTimesTheConfiguredEnergies) {
  const RunOutcome r = run("a.json", {});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const JsonDoc report = readJsonFile(*dir_ + "/a.json");
  const JsonDoc& config = report.at("config");
  double sum = 0, ref_sum = 0, sleep = 0;
  for (const JsonDoc& l : report.at("layer_stats")) {
    const Recomputed want = recompute(l.at("actions"), config);
    const JsonDoc& got = l.at("energy");
    const std::string what = "layer " + std::to_string(l.at("index").get<int>());
    expectClose(got.at("cpu_active").get<double>(), want.cpu_active, what + " cpu_active");
    expectClose(got.at("cpu_sleep").get<double>(), want.cpu_sleep, what + " cpu_sleep");
    expectClose(got.at("flash").get<double>(), want.flash, what + " flash");
    expectClose(got.at("mac").get<double>(), want.mac, what + " mac");
    expectClose(got.at("sram").get<double>(), want.sram, what + " sram");
    expectClose(got.at("dma_bus").get<double>(), want.dma_bus, what + " dma_bus");
    expectClose(got.at("system_memory").get<double>(), want.system_memory, what + " sysmem");
    expectClose(got.at("static").get<double>(), want.static_, what + " static");
    expectClose(got.at("cpu_sram").get<double>(), 0.0, what + " cpu_sram");
    expectClose(l.at("energy_uj").get<double>(), want.total(), what + " total");
    expectClose(l.at("ref_energy_uj").get<double>(), recomputeRef(l, config), what + " ref");
    sum += want.total();
    ref_sum += l.at("ref_energy_uj").get<double>();
    sleep += got.at("cpu_sleep").get<double>();
  }
  // The accelerated layers' CPU sleeps while it waits for the accelerator.
  EXPECT_GT(sleep, 0.0);
  expectClose(report.at("run_totals").at("energy_uj").get<double>(), sum, "run_totals");
  expectClose(report.at("run_totals").at("ref_energy_uj").get<double>(), ref_sum, "run ref");
  expectClose(report.at("totals").at("energy_uj").get<double>(), sum / 3, "totals");
  expectClose(report.at("totals").at("ref_energy_uj").get<double>(), ref_sum / 3, "totals ref");
  // The first invocation's records carry their own counts and energy.
  for (const JsonDoc& l : report.at("layers"))
    expectClose(l.at("energy_uj").get<double>(), recompute(l.at("actions"), config).total(),
                "layers[] " + std::to_string(l.at("index").get<int>()));
  const JsonDoc& area = report.at("simulation").at("area_mm2");
  expectClose(area.at("total").get<double>(), 4 * area.at("per_core").at("total").get<double>(),
              "area");
  EXPECT_NEAR(area.at("total").get<double>(), 5.342, 0.001);  // docs/ENERGY.md, 45nm default
  EXPECT_NE(r.out.find("energy: "), std::string::npos) << r.out;
}

TEST_F(EnergyRun, OnePerActionEnergyChangesOnlyItsComponentInProportion) {
  ASSERT_EQ(run("base.json", {}).exit_code, 0);
  const JsonDoc base = readJsonFile(*dir_ + "/base.json");
  const double mac_pj = base.at("config").at("energy").at("mac_pj").get<double>();
  const RunOutcome r = run("triple.json", {"--set", "energy.mac_pj=" + std::to_string(3 * mac_pj)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const JsonDoc triple = readJsonFile(*dir_ + "/triple.json");
  const double factor =
      triple.at("config").at("energy").at("mac_pj").get<double>() / mac_pj;  // 3 as printed
  const JsonDoc &a = base.at("layer_stats"), &b = triple.at("layer_stats");
  ASSERT_EQ(a.size(), b.size());
  bool some_mac = false;
  for (size_t i = 0; i < a.size(); ++i) {
    for (const auto& [name, value] : a[i].at("energy").items()) {
      const double want = name == "mac" ? value.get<double>() * factor : value.get<double>();
      expectClose(b[i].at("energy").at(name).get<double>(), want, name);
      some_mac = some_mac || (name == "mac" && value.get<double>() > 0);
    }
  }
  EXPECT_TRUE(some_mac);
}

TEST_F(EnergyRun, RefModeHasNoAcceleratorEnergy) {
  std::vector<std::string> args{"run", "--model",  *dir_ + "/mlp.tflite", "--mode",
                                "ref", "--report", *dir_ + "/ref.json"};
  ASSERT_EQ(runHilsim(args).exit_code, 0);
  const JsonDoc report = readJsonFile(*dir_ + "/ref.json");
  const JsonDoc& totals = report.at("totals");
  // Only the CPU runs: its energy is the reference path's.
  expectClose(totals.at("energy_uj").get<double>(), totals.at("ref_energy_uj").get<double>(),
              "ref mode");
  // The host's cycles and its flash line reads of the model's weights.
  expectClose(totals.at("energy").at("cpu_active").get<double>() +
                  totals.at("energy").at("flash").get<double>(),
              totals.at("energy_uj").get<double>(), "cpu only");
  EXPECT_TRUE(report.at("simulation").at("area_mm2").is_null());
}

// A CPU-only run on a board whose flash has wait states (STM32L4R5: 5, ART with a 256-byte data
// cache of 8-byte lines): the reference kernels executed on the ISS read the weights from flash,
// and each line read costs flash_line_read_pj.
TEST_F(EnergyRun, TheReferenceKernelsFlashLineReadsAreCharged) {
  std::vector<std::string> args{"run", "--model",  *dir_ + "/mlp.tflite",  "--mode",
                                "ref", "--set",    "cpu.preset=stm32l4r5", "--invocations",
                                "2",   "--report", *dir_ + "/board.json"};
  const RunOutcome r = runHilsim(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const JsonDoc report = readJsonFile(*dir_ + "/board.json");
  const JsonDoc& config = report.at("config");
  const double line_pj = config.at("energy").at("host").at("flash_line_read_pj").get<double>();
  EXPECT_DOUBLE_EQ(line_pj, 330.0);  // docs/ENERGY.md, "Host MCU"
  uint64_t reads = 0;
  std::map<int, uint64_t> first_reads;  // per layer, of the first invocation
  for (const JsonDoc& l : report.at("layers")) {
    const std::string what = "layer " + std::to_string(l.at("index").get<int>());
    const JsonDoc& a = l.at("actions");
    const uint64_t n = a.at("flash_line_reads").get<uint64_t>();
    // The count is the ISS's model-flash line reads of the layer, and the reference path's.
    EXPECT_EQ(n, l.at("flash").at("model_line_reads").get<uint64_t>()) << what;
    EXPECT_EQ(a.at("ref_flash_line_reads").get<uint64_t>(), n) << what;
    expectClose(l.at("energy").at("flash").get<double>(), double(n) * line_pj * 1e-6, what);
    expectClose(l.at("energy_uj").get<double>(), recompute(a, config).total(), what);
    expectClose(l.at("ref_energy_uj").get<double>(), l.at("energy_uj").get<double>(), what);
    if (l.at("op").get<std::string>() == "FULLY_CONNECTED") {
      // One output row: every int8 weight and int32 bias is loaded once, in order, and the data
      // cache keeps the line being read, so each 8-byte line of them is read once (one more
      // for each of the two arrays that does not start on a line).
      const JsonDoc& s = l.at("shape");
      const uint64_t k = s.at("k").get<uint64_t>(), features = s.at("n").get<uint64_t>();
      const uint64_t lines = (k * features + 7) / 8 + (4 * features + 7) / 8;
      EXPECT_GE(n, lines) << what;
      EXPECT_LE(n, lines + 2) << what;
    }
    reads += n;
    first_reads[l.at("index").get<int>()] = n;
  }
  EXPECT_GT(reads, 0u);
  // Totals add up over the layers and the two invocations (the second may find a line of the
  // first in the cache).
  const JsonDoc& run_totals = report.at("run_totals");
  uint64_t stats_reads = 0;
  for (const JsonDoc& l : report.at("layer_stats")) {
    const uint64_t n = l.at("actions").at("flash_line_reads").get<uint64_t>();
    const uint64_t first = first_reads.at(l.at("index").get<int>());
    EXPECT_GE(n, first);
    EXPECT_LE(n, 2 * first);
    if (first > 0) {
      EXPECT_GT(n, first * 3 / 2);
    }
    expectClose(l.at("ref_energy_uj").get<double>(), recomputeRef(l, config), "layer_stats ref");
    stats_reads += n;
  }
  const double stats_flash = double(stats_reads) * line_pj * 1e-6;
  expectClose(run_totals.at("energy").at("flash").get<double>(), stats_flash, "run_totals flash");
  expectClose(report.at("totals").at("energy").at("flash").get<double>(), stats_flash / 2,
              "totals flash");
  expectClose(run_totals.at("energy_uj").get<double>(),
              run_totals.at("ref_energy_uj").get<double>(), "ref mode");

  // The cost model executes nothing: no flash line reads are counted.
  args[args.size() - 1] = *dir_ + "/cost.json";
  args.insert(args.end(), {"--set", "cpu.model=cost"});
  ASSERT_EQ(runHilsim(args).exit_code, 0);
  const JsonDoc cost = readJsonFile(*dir_ + "/cost.json");
  EXPECT_EQ(cost.at("totals").at("energy").at("flash").get<double>(), 0.0);
  expectClose(cost.at("run_totals").at("energy_uj").get<double>(),
              cost.at("run_totals").at("ref_energy_uj").get<double>(), "cost");
}

// With the accelerator, the accelerated layers' driver code, executed on the ISS, reads no model
// data from flash, and their reference path's energy has no flash reads: its cycles come from
// the cost model.
TEST_F(EnergyRun, AcceleratedLayersReadNoModelFlash) {
  const RunOutcome r = run("board-accel.json", {"--set", "cpu.preset=stm32l4r5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const JsonDoc report = readJsonFile(*dir_ + "/board-accel.json");
  bool some_accel = false;
  for (const JsonDoc& l : report.at("layers")) {
    const JsonDoc& a = l.at("actions");
    const bool executed = l.at("ref_cycles_source").get<std::string>() == "iss";
    if (l.at("path").get<std::string>() == "accel") {
      some_accel = true;
      // The driver's code ran on the ISS (its fetches are counted) and read no model data.
      ASSERT_FALSE(l.at("flash").is_null());
      EXPECT_GT(l.at("flash").at("icache_hits").get<uint64_t>() +
                    l.at("flash").at("icache_misses").get<uint64_t>(),
                0u);
      EXPECT_EQ(a.at("flash_line_reads").get<uint64_t>(),
                l.at("flash").at("model_line_reads").get<uint64_t>());
      EXPECT_EQ(a.at("flash_line_reads").get<uint64_t>(), 0u);
      EXPECT_FALSE(executed);
    }
    if (!executed) {
      EXPECT_EQ(a.at("ref_flash_line_reads").get<uint64_t>(), 0u);
    }
  }
  EXPECT_TRUE(some_accel);
}

// compare mode: the reference kernel runs on the ISS beside the accelerated path; its flash line
// reads are the reference path's, and the accelerated layer's own are 0.
TEST_F(EnergyRun, CompareModesReferenceRunsFlashReadsAreTheReferencePaths) {
  const RunOutcome r =
      runHilsim({"run", "--model", *dir_ + "/mlp.tflite", "--mode", "compare", "--set",
                 "cpu.preset=stm32l4r5", "--report", *dir_ + "/board-compare.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const JsonDoc report = readJsonFile(*dir_ + "/board-compare.json");
  ASSERT_EQ(report.at("mode").get<std::string>(), "compare");
  const JsonDoc& config = report.at("config");
  for (const JsonDoc& l : report.at("layer_stats"))
    expectClose(l.at("ref_energy_uj").get<double>(), recomputeRef(l, config), "ref");
  uint64_t ref_reads = 0;
  for (const JsonDoc& l : report.at("layers")) {
    ASSERT_EQ(l.at("path").get<std::string>(), "accel");
    EXPECT_EQ(l.at("ref_cycles_source").get<std::string>(), "iss");
    EXPECT_EQ(l.at("actions").at("flash_line_reads").get<uint64_t>(), 0u);
    EXPECT_EQ(l.at("actions").at("ref_flash_line_reads").get<uint64_t>(),
              l.at("flash").at("model_line_reads").get<uint64_t>());
    ref_reads += l.at("actions").at("ref_flash_line_reads").get<uint64_t>();
  }
  EXPECT_GT(ref_reads, 0u);
}

// The number `hilsim config` prints for `leaf` in its YAML, after the line `section`.
double printed(const std::string& yaml, const std::string& section, const std::string& leaf) {
  const size_t at = yaml.find(section);
  EXPECT_NE(at, std::string::npos) << section;
  const size_t key = yaml.find(" " + leaf + ": ", at);
  EXPECT_NE(key, std::string::npos) << leaf;
  if (at == std::string::npos || key == std::string::npos) return -1;
  return std::stod(yaml.substr(key + leaf.size() + 3));
}

// The values `hilsim config` resolves for a preset against docs/ENERGY.md's tables (rounded as
// printed there).
TEST(EnergyConfig, PresetsMatchTheDocumentedValues) {
  struct Row {
    const char* preset;
    double mac_pj, sram_pj_per_byte, pe_leakage_uw;
  };
  for (const Row& row : {Row{"45nm", 0.66, 6.566, 7.4}, Row{"28nm", 0.3510, 3.492, 3.936},
                         Row{"22nm", 0.1770, 1.761, 1.984}}) {
    SCOPED_TRACE(row.preset);
    const RunOutcome r = runHilsim({"config", "--set", std::string("energy.preset=") + row.preset});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NEAR(printed(r.out, "\nenergy:", "mac_pj"), row.mac_pj, 0.0005);
    EXPECT_NEAR(printed(r.out, "\nenergy:", "sram_read_pj_per_byte"), row.sram_pj_per_byte, 0.0005);
    EXPECT_NEAR(printed(r.out, "\nenergy:", "sram_write_pj_per_byte"), row.sram_pj_per_byte,
                0.0005);
    EXPECT_NEAR(printed(r.out, "\nenergy:", "pe_leakage_uw"), row.pe_leakage_uw, 0.0005);
  }
  // The host's figures follow cpu.preset (docs/ENERGY.md, "Host MCU").
  const RunOutcome r = runHilsim({"config", "--set", "cpu.preset=cortex-m4f"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t host = r.out.find("\n  host:");
  ASSERT_NE(host, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("preset: cortex-m4f", host) - r.out.find("preset: ", host), 0u);
  EXPECT_DOUBLE_EQ(printed(r.out, "\n  host:", "run_ua_per_mhz"), 100.0);
  EXPECT_DOUBLE_EQ(printed(r.out, "\n  host:", "supply_v"), 3.3);
}

TEST(EnergyConfig, BadEnergyKeysAreConfigErrors) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"energy.preset=40nm", "energy.preset = '40nm' is not one of 45nm|28nm|22nm"},
      {"energy.mac_pj=-1", "energy.mac_pj = -1.0 is out of range (>= 0)"},
      {"energy.host.supply_v=9", "energy.host.supply_v = 9.0 is out of range (0.5..5.5)"},
      {"energy.host.preset=z80", "energy.host.preset = 'z80' is not one of"},
      {"energy.power_gating=maybe", "energy.power_gating: expected true or false"},
      {"energy.mac_pJ=1", "unknown key 'energy.mac_pJ'"},
  };
  for (const auto& [set, message] : cases) {
    SCOPED_TRACE(set);
    const RunOutcome r = runHilsim({"config", "--set", set});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace hilsim::test
