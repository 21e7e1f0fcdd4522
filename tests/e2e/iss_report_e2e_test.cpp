// The report under cpu.model iss: which cycles were executed, what the driver's code cost, and
// how the timing table's inputs (wait states, clock) move the figures.

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "files.h"
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
  YAML::Node run(const std::string& name, const std::string& mode, std::vector<std::string> sets) {
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
    return YAML::LoadFile(report);
  }

  static std::vector<YAML::Node> accelLayers(const YAML::Node& report) {
    std::vector<YAML::Node> out;
    for (const YAML::Node& l : report["layers"])
      if (l["path"].as<std::string>() == "accel") out.push_back(l);
    return out;
  }

  std::string dir_;
};

TEST_F(IssReport, OffloadedLayersCarryTheDriversExecutedCode) {
  const YAML::Node r = run("accel", "accel", {});
  EXPECT_EQ(r["simulation"]["cpu_model"].as<std::string>(), "iss");
  EXPECT_GT(r["simulation"]["iss_instructions"].as<uint64_t>(), 0u);
  const std::vector<YAML::Node> layers = accelLayers(r);
  ASSERT_EQ(layers.size(), 3u);
  for (const YAML::Node& l : layers) {
    const YAML::Node a = l["accel"];
    const uint64_t instructions = a["driver_instructions"].as<uint64_t>();
    const uint64_t driver = a["driver_cycles"].as<uint64_t>();
    EXPECT_GT(instructions, 10u);
    EXPECT_GE(driver, instructions);  // every instruction costs at least a cycle
    EXPECT_GE(a["fixed_cycles"].as<uint64_t>(), driver) << "fixed cycles include the driver's";
  }
}

TEST_F(IssReport, ReferenceLayersAreExecutedOnTheIss) {
  const YAML::Node r = run("ref", "ref", {});
  for (const YAML::Node& l : r["layers"]) {
    EXPECT_EQ(l["ref_cycles_source"].as<std::string>(), "iss");
    EXPECT_EQ(l["ref_cycles"].as<uint64_t>(), l["cycles"].as<uint64_t>());
  }
  EXPECT_GT(r["simulation"]["iss_instructions"].as<uint64_t>(), 0u);
}

TEST_F(IssReport, TheCostModelSaysSo) {
  const YAML::Node r = run("cost", "accel", {"cpu.model=cost"});
  EXPECT_EQ(r["simulation"]["cpu_model"].as<std::string>(), "cost");
  EXPECT_TRUE(r["simulation"]["iss_instructions"].IsNull());
  for (const YAML::Node& l : r["layers"]) {
    EXPECT_EQ(l["ref_cycles_source"].as<std::string>(), "cost");
    if (l["path"].as<std::string>() == "accel")
      EXPECT_TRUE(l["accel"]["driver_instructions"].IsNull());
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
    for (const YAML::Node& l : accelLayers(YAML::LoadFile(report))) {
      if (l["invocation"].as<int>() != 1) continue;
      const double cycles = l["cycles"].as<double>();
      const double predicted = l["accel"]["predicted_cycles"].as<double>();
      EXPECT_NEAR(predicted, cycles, 0.03 * cycles) << preset << " layer " << l["index"];
      ++checked;
    }
    EXPECT_EQ(checked, 3u) << preset;
  }
}

// Each flash wait state adds one cycle per flash access: cycles are linear in the wait states,
// for the reference kernels (weights and code in flash) and the driver (code in flash).
TEST_F(IssReport, FlashWaitStatesAddLinearly) {
  std::vector<YAML::Node> ref, accel;
  for (int ws : {0, 4, 8}) {
    const std::string set = "cpu.flash_wait_states=" + std::to_string(ws);
    ref.push_back(run("ref-ws" + std::to_string(ws), "ref", {set}));
    accel.push_back(run("accel-ws" + std::to_string(ws), "accel", {set}));
  }
  for (size_t i = 0; i < ref[0]["layers"].size(); ++i) {
    const auto c = [&](int k) { return ref[k]["layers"][i]["ref_cycles"].as<int64_t>(); };
    EXPECT_LT(c(0), c(1));
    EXPECT_EQ(c(2) - c(1), c(1) - c(0)) << "layer " << i;
  }
  for (size_t i = 0; i < accelLayers(accel[0]).size(); ++i) {
    const auto d = [&](int k) {
      return accelLayers(accel[k])[i]["accel"]["driver_cycles"].as<int64_t>();
    };
    EXPECT_LT(d(0), d(1));
    EXPECT_EQ(d(2) - d(1), d(1) - d(0)) << "layer " << i;
  }
}

// The table counts core cycles: the clock does not change a kernel's cycles, and the driver
// executes the same instructions; only its bus trips, timed on the bus clock, cost more core
// cycles at a faster core clock.
TEST_F(IssReport, TheClockChangesOnlyBusTrips) {
  const YAML::Node slow_ref = run("ref-50", "ref", {"cpu.clock_mhz=50"});
  const YAML::Node fast_ref = run("ref-400", "ref", {"cpu.clock_mhz=400"});
  for (size_t i = 0; i < slow_ref["layers"].size(); ++i)
    EXPECT_EQ(slow_ref["layers"][i]["ref_cycles"].as<uint64_t>(),
              fast_ref["layers"][i]["ref_cycles"].as<uint64_t>());
  const std::vector<YAML::Node> slow = accelLayers(run("accel-50", "accel", {"cpu.clock_mhz=50"}));
  const std::vector<YAML::Node> fast =
      accelLayers(run("accel-400", "accel", {"cpu.clock_mhz=400"}));
  ASSERT_EQ(slow.size(), fast.size());
  for (size_t i = 0; i < slow.size(); ++i) {
    EXPECT_EQ(slow[i]["accel"]["driver_instructions"].as<uint64_t>(),
              fast[i]["accel"]["driver_instructions"].as<uint64_t>());
    EXPECT_LT(slow[i]["accel"]["driver_cycles"].as<uint64_t>(),
              fast[i]["accel"]["driver_cycles"].as<uint64_t>());
  }
}

}  // namespace
}  // namespace hilsim::test
