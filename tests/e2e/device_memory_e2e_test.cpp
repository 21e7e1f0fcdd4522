// A layer whose buffers do not fit the device memory runs on the CPU in every mode: the run ends
// normally with the right outputs, the report says why (what was needed, what was free), and
// the modes that ask for the accelerator (accel, compare) say so once on stderr.

#include <gtest/gtest.h>

#include <algorithm>

#include "files.h"
#include "json_file.h"
#include "runner.h"

namespace hilsim::test {
namespace {

class DeviceMemory : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = makeTestDir();
    // Layer 0 holds 1024x256 weights (256 KiB), layer 1 256x64 (16 KiB): with 128 KiB of device
    // memory only layer 1 fits.
    ASSERT_EQ(runHilsim({"gen-model", "--layers", "1024,256,64", "--out", dir_ + "/mlp.tflite"})
                  .exit_code,
              0);
    const RunOutcome ref = runHilsim(runArgs("ref", "ref"));
    ASSERT_EQ(ref.exit_code, 0) << ref.err;
  }
  std::vector<std::string> runArgs(const std::string& tag, const std::string& mode) {
    return {"run",
            "--model",
            dir_ + "/mlp.tflite",
            "--mode",
            mode,
            "--set",
            "accel.num_cores=1",
            "--set",
            "memory.size_bytes=131072",
            "--invocations",
            "2",
            "--output",
            dir_ + "/" + tag + ".bin",
            "--report",
            dir_ + "/" + tag + ".json",
            "--per-invocation",
            "--quiet"};
  }
  std::string dir_;
};

TEST_F(DeviceMemory, ALayerThatDoesNotFitRunsOnTheCpuInEveryMode) {
  for (const std::string mode : {"accel", "compare", "auto"}) {
    SCOPED_TRACE(mode);
    const RunOutcome r = runHilsim(runArgs(mode, mode), 30);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(readFile(dir_ + "/" + mode + ".bin"), readFile(dir_ + "/ref.bin"));

    const std::string note =
        "hilsim: note: operator 0 (FULLY_CONNECTED) runs on the CPU: does not fit device memory: "
        "needs ";
    if (mode == "auto") {
      EXPECT_EQ(r.err.find(note), std::string::npos) << r.err;
    } else {
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;  // and "no annotations"
      EXPECT_NE(r.err.find(note), std::string::npos) << r.err;
    }

    const JsonDoc report = readJsonFile(dir_ + "/" + mode + ".json");
    EXPECT_EQ(report.at("failures").size(), 0u);
    const JsonDoc layers = report.at("layers");
    ASSERT_EQ(layers.size(), 4u);
    for (const JsonDoc& l : layers) {
      if (l.at("index").get<int>() == 0) {
        EXPECT_EQ(l.at("path").get<std::string>(), "ref");
        const std::string reason = l.at("reason").get<std::string>();
        EXPECT_EQ(reason.rfind("does not fit device memory: needs ", 0), 0u) << reason;
        EXPECT_NE(reason.find(" bytes, 131072 free"), std::string::npos) << reason;
      } else if (mode != "auto") {
        EXPECT_EQ(l.at("path").get<std::string>(), "accel") << l.at("reason");
      }
    }
  }
}

}  // namespace
}  // namespace hilsim::test
