// The report under cpu.model iss: which cycles were executed, what the driver's code cost, and
// how the timing table's inputs (wait states, clock) move the figures.

#include <gtest/gtest.h>

#include "files.h"
#include "json_file.h"
#include "runner.h"

namespace hilsim::test {
namespace {

class IssReport : public ::testing::Test {
 protected:
  // Each test has its own directory: ctest runs the tests as parallel processes.
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = makeTempDir(std::string("iss-report-") + info->name());
    ASSERT_EQ(runHilsim({"gen-model", "--layers", "256,128,96,32", "--out", model()}).exit_code, 0);
  }
  std::string model() const { return dir_ + "/mlp.tflite"; }

  // Runs the MLP on cortex-m4f and returns the report.
  JsonDoc run(const std::string& name, const std::string& mode, std::vector<std::string> sets) {
    const std::string report = dir_ + "/" + name + ".json";
    std::vector<std::string> args = {
        "run",     "--model",  model(), "--mode", mode,
        "--quiet", "--report", report,  "--set",  "cpu.preset=cortex-m4f"};
    for (const std::string& s : sets) {
      args.push_back("--set");
      args.push_back(s);
    }
    const RunOutcome r = runHilsim(args);
    EXPECT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
    return readJsonFile(report);
  }

  static std::vector<JsonDoc> accelLayers(const JsonDoc& report) {
    std::vector<JsonDoc> out;
    for (const JsonDoc& l : report.at("layers"))
      if (l.at("path").get<std::string>() == "accel") out.push_back(l);
    return out;
  }

  std::string dir_;
};

TEST_F(IssReport, OffloadedLayersCarryTheDriversExecutedCode) {
  const JsonDoc r = run("accel", "accel", {});
  EXPECT_EQ(r.at("simulation").at("cpu_model").get<std::string>(), "iss");
  EXPECT_GT(r.at("simulation").at("iss_instructions").get<uint64_t>(), 0u);
  const std::vector<JsonDoc> layers = accelLayers(r);
  ASSERT_EQ(layers.size(), 3u);
  for (const JsonDoc& l : layers) {
    const JsonDoc a = l.at("accel");
    const uint64_t instructions = a.at("driver_instructions").get<uint64_t>();
    const uint64_t driver = a.at("driver_cycles").get<uint64_t>();
    EXPECT_GT(instructions, 10u);
    EXPECT_GE(driver, instructions);  // every instruction costs at least a cycle
    EXPECT_GE(a.at("fixed_cycles").get<uint64_t>(), driver) << "fixed cycles include the driver's";
  }
}

TEST_F(IssReport, ReferenceLayersAreExecutedOnTheIss) {
  const JsonDoc r = run("ref", "ref", {});
  for (const JsonDoc& l : r.at("layers")) {
    EXPECT_EQ(l.at("ref_cycles_source").get<std::string>(), "iss");
    EXPECT_EQ(l.at("ref_cycles").get<uint64_t>(), l.at("cycles").get<uint64_t>());
  }
  EXPECT_GT(r.at("simulation").at("iss_instructions").get<uint64_t>(), 0u);
}

// cpu.kernels names the library whose executed cycles are each CPU layer's ref_cycles; the
// optimized kernels' FULLY_CONNECTED layers run several times faster on the Cortex-M4F's DSP
// instructions than the reference ones, and the table's header names the library.
TEST_F(IssReport, TheKernelLibraryIsReportedAndExecuted) {
  const JsonDoc ref = run("ref-reference", "ref", {});
  EXPECT_EQ(ref.at("simulation").at("cpu_kernels").get<std::string>(), "reference");
  const JsonDoc opt = run("ref-optimized", "ref", {"cpu.kernels=optimized"});
  EXPECT_EQ(opt.at("simulation").at("cpu_kernels").get<std::string>(), "optimized");
  const JsonDoc& ref_layers = ref.at("layers");
  const JsonDoc& opt_layers = opt.at("layers");
  ASSERT_EQ(ref_layers.size(), opt_layers.size());
  size_t fully_connected = 0;
  for (size_t i = 0; i < ref_layers.size(); ++i) {
    EXPECT_EQ(opt_layers[i].at("ref_cycles_source").get<std::string>(), "iss");
    if (opt_layers[i].at("op").get<std::string>() != "FULLY_CONNECTED") continue;
    ++fully_connected;
    const uint64_t reference = ref_layers[i].at("ref_cycles").get<uint64_t>();
    const uint64_t optimized = opt_layers[i].at("ref_cycles").get<uint64_t>();
    EXPECT_LT(optimized * 2, reference) << "layer " << i;
  }
  EXPECT_EQ(fully_connected, 3u);

  const RunOutcome table = runHilsim({"run", "--model", model(), "--mode", "ref", "--set",
                                      "cpu.preset=cortex-m4f", "--set", "cpu.kernels=optimized"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find(" MHz, optimized kernels  accel "), std::string::npos) << table.out;
}

TEST_F(IssReport, TheCostModelSaysSo) {
  const JsonDoc r = run("cost", "accel", {"cpu.model=cost"});
  EXPECT_EQ(r.at("simulation").at("cpu_model").get<std::string>(), "cost");
  EXPECT_TRUE(r.at("simulation").at("iss_instructions").is_null());
  for (const JsonDoc& l : r.at("layers")) {
    EXPECT_EQ(l.at("ref_cycles_source").get<std::string>(), "cost");
    if (l.at("path").get<std::string>() == "accel")
      EXPECT_TRUE(l.at("accel").at("driver_instructions").is_null());
  }
}

// The planner's prediction under iss takes the driver's cost from its firmware (executed once on
// the ISS): with the weights in place (second invocation) it matches the simulated layer.
TEST_F(IssReport, PredictionIncludesTheFirmwareDriver) {
  for (const char* preset : {"cortex-m4f", "rv32im"}) {
    const std::string report = dir_ + "/predict2-" + preset + ".json";
    const RunOutcome out = runHilsim({"run", "--model", model(), "--mode", "accel", "--quiet",
                                      "--invocations", "2", "--per-invocation", "--report", report,
                                      "--set", std::string("cpu.preset=") + preset});
    ASSERT_EQ(out.exit_code, 0) << out.err;
    size_t checked = 0;
    for (const JsonDoc& l : accelLayers(readJsonFile(report))) {
      if (l.at("invocation").get<int>() != 1) continue;
      const double cycles = l.at("cycles").get<double>();
      const double predicted = l.at("accel").at("predicted_cycles").get<double>();
      EXPECT_NEAR(predicted, cycles, 0.03 * cycles) << preset << " layer " << l.at("index");
      ++checked;
    }
    EXPECT_EQ(checked, 3u) << preset;
  }
}

// Each flash wait state adds one cycle per flash access: cycles are linear in the wait states,
// for the reference kernels (weights and code in flash) and the driver (code in flash).
TEST_F(IssReport, FlashWaitStatesAddLinearly) {
  // Without the flash memory system's caches and prefetch every line read waits: cycles grow
  // with the wait states, by the same step each time.
  std::vector<JsonDoc> ref, accel;
  for (int ws : {0, 4, 8}) {
    const std::string set = "cpu.flash_wait_states=" + std::to_string(ws);
    const std::vector<std::string> bare = {set, "cpu.flash.prefetch=false",
                                           "cpu.flash.icache_lines=0", "cpu.flash.dcache_lines=0",
                                           "cpu.flash.data_through_icache=false"};
    ref.push_back(run("ref-ws" + std::to_string(ws), "ref", bare));
    accel.push_back(run("accel-ws" + std::to_string(ws), "accel", bare));
  }
  for (size_t i = 0; i < ref[0].at("layers").size(); ++i) {
    const auto c = [&](int k) { return ref[k].at("layers")[i].at("ref_cycles").get<int64_t>(); };
    EXPECT_LT(c(0), c(1));
    EXPECT_EQ(c(2) - c(1), c(1) - c(0)) << "layer " << i;
  }
  for (size_t i = 0; i < accelLayers(accel[0]).size(); ++i) {
    const auto d = [&](int k) {
      return accelLayers(accel[k])[i].at("accel").at("driver_cycles").get<int64_t>();
    };
    EXPECT_LT(d(0), d(1));
    EXPECT_EQ(d(2) - d(1), d(1) - d(0)) << "layer " << i;
  }
  // With the preset's instruction cache the driver's job path, run for every job, stays in the
  // cache: after the first job its cycles do not depend on the wait states. Each layer reports
  // its flash counts.
  const JsonDoc cached0 = run("accel-cached-ws0", "accel", {"cpu.flash_wait_states=0"});
  const JsonDoc cached8 = run("accel-cached-ws8", "accel", {"cpu.flash_wait_states=8"});
  const std::vector<JsonDoc> layers0 = accelLayers(cached0), layers8 = accelLayers(cached8);
  ASSERT_EQ(layers0.size(), layers8.size());
  ASSERT_GE(layers8.size(), 2u);
  for (size_t i = 0; i < layers8.size(); ++i) {
    // The first job fetches the driver's code into the cache; later ones find it there.
    const int64_t d0 = layers0[i].at("accel").at("driver_cycles").get<int64_t>();
    const int64_t d8 = layers8[i].at("accel").at("driver_cycles").get<int64_t>();
    if (i == 0)
      EXPECT_GT(d8, d0);
    else
      EXPECT_EQ(d8, d0) << "layer " << i;
    EXPECT_GT(layers8[i].at("flash").at("icache_hits").get<uint64_t>(), 0u) << "layer " << i;
  }
  EXPECT_GT(cached8.at("simulation").at("flash").at("icache_hits").get<uint64_t>(), 0u);
}

// The table counts core cycles: the clock does not change a kernel's cycles, and the driver
// executes the same instructions; only its bus trips, timed on the bus clock, cost more core
// cycles at a faster core clock.
TEST_F(IssReport, TheClockChangesOnlyBusTrips) {
  const JsonDoc slow_ref = run("ref-50", "ref", {"cpu.clock_mhz=50"});
  const JsonDoc fast_ref = run("ref-400", "ref", {"cpu.clock_mhz=400"});
  for (size_t i = 0; i < slow_ref.at("layers").size(); ++i)
    EXPECT_EQ(slow_ref.at("layers")[i].at("ref_cycles").get<uint64_t>(),
              fast_ref.at("layers")[i].at("ref_cycles").get<uint64_t>());
  const std::vector<JsonDoc> slow = accelLayers(run("accel-50", "accel", {"cpu.clock_mhz=50"}));
  const std::vector<JsonDoc> fast = accelLayers(run("accel-400", "accel", {"cpu.clock_mhz=400"}));
  ASSERT_EQ(slow.size(), fast.size());
  for (size_t i = 0; i < slow.size(); ++i) {
    EXPECT_EQ(slow[i].at("accel").at("driver_instructions").get<uint64_t>(),
              fast[i].at("accel").at("driver_instructions").get<uint64_t>());
    EXPECT_LT(slow[i].at("accel").at("driver_cycles").get<uint64_t>(),
              fast[i].at("accel").at("driver_cycles").get<uint64_t>());
  }
}

}  // namespace
}  // namespace hilsim::test
