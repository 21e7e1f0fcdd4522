// Fault injection end to end (sim.fault, sim.fault_at_job): each fault ends the run with exit 3
// and one stderr line naming the fault and the last transaction; the driver soft-resets the
// device, the runtime computes the failed layer on the CPU and offloads the next layers again,
// so outputs are still bit-exact and the report shows where it happened.

#include <gtest/gtest.h>

#include <algorithm>

#include "files.h"
#include "json_file.h"
#include "runner.h"

namespace hilsim::test {
namespace {

struct Fault {
  const char* name;
  const char* detail;       // what the driver read from the device
  const char* transaction;  // the transaction the message names
};

constexpr Fault kFaults[] = {
    {"bus_error", "error 1: bus error response", "last transaction: dma READ 0x"},
    {"irq_lost", "timeout: no interrupt within 50000000 host cycles",
     "last transaction: dma WRITE 0x"},
    {"dma_unmapped", "error 1: transfer to an unmapped address",
     "last transaction: dma READ 0xdead"},
};

void PrintTo(const Fault& f, std::ostream* os) {
  *os << f.name;
}

class FaultRuns : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = makeTestDir();
    // Three FULLY_CONNECTED layers planned for four cores: jobs 0..5 over two invocations.
    ASSERT_EQ(runHilsim({"gen-model", "--layers", "256,128,96,32", "--out", dir_ + "/mlp.tflite"})
                  .exit_code,
              0);
    ASSERT_EQ(runHilsim({"annotate", "--model", dir_ + "/mlp.tflite", "--config", config(), "--out",
                         dir_ + "/mlp_m4.tflite", "--quiet"})
                  .exit_code,
              0);
    const RunOutcome clean = runHilsim(runArgs("clean", {}));
    ASSERT_EQ(clean.exit_code, 0) << clean.err;
    ASSERT_TRUE(clean.err.empty()) << clean.err;
  }
  static std::string config() { return std::string(HILSIM_SOURCE_DIR) + "/configs/m4.yaml"; }
  std::vector<std::string> runArgs(const std::string& tag, const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"run",
                                     "--model",
                                     dir_ + "/mlp_m4.tflite",
                                     "--config",
                                     config(),
                                     "--mode",
                                     "accel",
                                     "--invocations",
                                     "2",
                                     "--output",
                                     dir_ + "/" + tag + ".bin",
                                     "--report",
                                     dir_ + "/" + tag + ".json",
                                     "--per-invocation",
                                     "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  std::string dir_;
};

class FaultInjection : public FaultRuns, public ::testing::WithParamInterface<Fault> {};

TEST_P(FaultInjection, ExitsThreeRecoversAndKeepsTheOutputsRight) {
  const Fault& f = GetParam();
  const std::string tag = f.name;
  const RunOutcome r = runHilsim(
      runArgs(tag, {"--set", std::string("sim.fault=") + f.name, "--set", "sim.fault_at_job=1"}));
  ASSERT_EQ(r.exit_code, 3) << r.err;
  EXPECT_FALSE(r.timed_out);

  // One line: where, what the device said, the last transaction, and that the run went on.
  ASSERT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(
      r.err.rfind("hilsim: simulation failed: invocation 0, operator 1 (FULLY_CONNECTED): ", 0), 0u)
      << r.err;
  EXPECT_NE(r.err.find(f.detail), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("device soft-reset"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(f.transaction), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the failed layer was computed on the CPU and 4 later accelerator jobs "
                       "completed"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;

  // The outputs are those of the run without a fault.
  EXPECT_EQ(readFile(dir_ + "/" + tag + ".bin"), readFile(dir_ + "/clean.bin"));

  // The report: job 1 (invocation 0, operator 1) ran the reference kernel on the CPU, every other
  // layer on the accelerator, and the failure is listed.
  const JsonDoc report = readJsonFile(dir_ + "/" + tag + ".json");
  ASSERT_EQ(report.at("failures").size(), 1u);
  EXPECT_NE(report.at("failures")[0].get<std::string>().find(f.detail), std::string::npos);
  const JsonDoc layers = report.at("layers");
  ASSERT_EQ(layers.size(), 6u);
  for (const JsonDoc& l : layers) {
    const bool failed = l.at("invocation").get<int>() == 0 && l.at("index").get<int>() == 1;
    EXPECT_EQ(l.at("path").get<std::string>(), failed ? "ref" : "accel")
        << l.at("invocation") << " " << l.at("index");
    if (failed) {
      EXPECT_EQ(l.at("reason").get<std::string>().rfind("accelerator job failed (", 0), 0u)
          << l.at("reason");
    }
  }
  // Found by the driver, well within the watchdog (sim.watchdog_cycles = 100000000).
  EXPECT_LT(report.at("simulation").at("simulated_cycles").get<uint64_t>(), 100'000'000u);
}

INSTANTIATE_TEST_SUITE_P(Faults, FaultInjection, ::testing::ValuesIn(kFaults),
                         [](const auto& info) { return std::string(info.param.name); });

TEST_F(FaultRuns, LostInterruptUnderAShortWatchdogIsStillRecovered) {
  const RunOutcome r =
      runHilsim(runArgs("short", {"--set", "sim.fault=irq_lost", "--set", "sim.fault_at_job=4",
                                  "--set", "sim.watchdog_cycles=200000"}));
  ASSERT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("invocation 1, operator 1 (FULLY_CONNECTED): timeout: no interrupt within "
                       "100000 host cycles"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("and 1 later accelerator job completed"), std::string::npos) << r.err;
  EXPECT_EQ(readFile(dir_ + "/short.bin"), readFile(dir_ + "/clean.bin"));
}

TEST_F(FaultRuns, AFaultAfterTheLastJobChangesNothing) {
  const RunOutcome r =
      runHilsim(runArgs("late", {"--set", "sim.fault=bus_error", "--set", "sim.fault_at_job=6"}));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(readFile(dir_ + "/late.bin"), readFile(dir_ + "/clean.bin"));
}

}  // namespace
}  // namespace hilsim::test
