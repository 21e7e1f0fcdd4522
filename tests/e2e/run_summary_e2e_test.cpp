// What `hilsim run` says beside the cycles: that compare mode's outputs matched (table and JSON),
// which cores a layer narrower than the array left idle and why, and that the decision's
// predicted cycles leave out the first invocation's upload, whose bytes it names.

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "files.h"
#include "json_file.h"
#include "runner.h"

namespace hilsim::test {
namespace {

class RunSummary : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = makeTestDir(); }
  std::string model(const std::string& layers) {
    const std::string path = dir_ + "/mlp-" + layers + ".tflite";
    const RunOutcome r = runHilsim({"gen-model", "--layers", layers, "--out", path});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return path;
  }
  std::string dir_;
};

TEST_F(RunSummary, CompareSaysTheOutputsMatchedAndHowManyBytes) {
  const std::string m = model("64,48,16");
  const RunOutcome r = runHilsim({"run", "--model", m, "--mode", "compare", "--invocations", "3",
                                  "--report", dir_ + "/c.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Two FULLY_CONNECTED layers, 48 and 16 int8 outputs, three invocations.
  EXPECT_NE(r.out.find("compare: the accelerated and reference outputs matched byte for byte: "
                       "2 layers, 6 layer invocations, 192 bytes compared\n"),
            std::string::npos)
      << r.out;
  const JsonDoc compare = readJsonFile(dir_ + "/c.json").at("simulation").at("compare");
  ASSERT_TRUE(compare.is_object());
  EXPECT_EQ(compare.at("layers").get<int>(), 2);
  EXPECT_EQ(compare.at("layer_invocations").get<int>(), 6);
  EXPECT_EQ(compare.at("bytes").get<int>(), 192);
  EXPECT_TRUE(compare.at("matched").get<bool>());

  const RunOutcome quiet = runHilsim({"run", "--model", m, "--mode", "compare", "--quiet"});
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.out, "");

  const RunOutcome accel =
      runHilsim({"run", "--model", m, "--mode", "accel", "--report", dir_ + "/a.json"});
  ASSERT_EQ(accel.exit_code, 0) << accel.err;
  EXPECT_EQ(accel.out.find("compare:"), std::string::npos) << accel.out;
  EXPECT_TRUE(readJsonFile(dir_ + "/a.json").at("simulation").at("compare").is_null());
}

TEST_F(RunSummary, IdleCoresOfANarrowLayerAreListedWithTheReason) {
  // 4 output features on 4 cores with 16-column arrays: one tile, so cores 1 to 3 are idle; the
  // 64-feature layer gives every core a tile.
  const std::string m = model("256,64,4");
  const RunOutcome r = runHilsim({"run", "--model", m, "--config",
                                  std::string(HILSIM_SOURCE_DIR) + "/configs/m4.yaml", "--mode",
                                  "accel", "--report", dir_ + "/r.json", "--csv", dir_ + "/r.csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("idle cores: layer 1 (1x64->4): cores 1-3: 4 output features make 1 tile "
                       "of the array's 16 columns, fewer than the 4 cores\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("idle cores: layer 0"), std::string::npos) << r.out;
  const JsonDoc layers = readJsonFile(dir_ + "/r.json").at("layers");
  ASSERT_EQ(layers.size(), 2u);
  EXPECT_EQ(layers[0].at("accel").at("idle_cores").size(), 0u);
  EXPECT_TRUE(layers[0].at("accel").at("idle_reason").is_null());
  const JsonDoc idle = layers[1].at("accel").at("idle_cores");
  ASSERT_EQ(idle.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(idle[i].get<int>(), static_cast<int>(i) + 1);
  EXPECT_NE(
      layers[1].at("accel").at("idle_reason").get<std::string>().find("fewer than the 4 cores"),
      std::string::npos);
  // The idle cores are those without a share in per_core.
  ASSERT_EQ(layers[1].at("accel").at("per_core").size(), 1u);
  EXPECT_EQ(layers[1].at("accel").at("per_core")[0].at("core").get<int>(), 0);
}

TEST_F(RunSummary, ReasonSaysThePredictionHasTheWeightsInPlaceAndNamesTheUpload) {
  const std::string m = model("512,256");
  const std::string annotated = dir_ + "/annotated.tflite";
  // The cost model's CPU: its driver costs the same figure on every invocation, so the two
  // invocations differ by the upload alone (on the ISS the first also warms the flash cache).
  ASSERT_EQ(
      runHilsim({"annotate", "--model", m, "--out", annotated, "--set", "cpu.preset=cortex-m55"})
          .exit_code,
      0);
  const RunOutcome r =
      runHilsim({"run", "--model", annotated, "--invocations", "2", "--per-invocation", "--report",
                 dir_ + "/r.json", "--quiet", "--set", "cpu.preset=cortex-m55"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const JsonDoc layers = readJsonFile(dir_ + "/r.json").at("layers");
  ASSERT_EQ(layers.size(), 2u);
  const JsonDoc first = layers[0], second = layers[1];
  ASSERT_EQ(first.at("path").get<std::string>(), "accel");
  const std::string reason = first.at("reason").get<std::string>();
  std::smatch m_reason;
  ASSERT_TRUE(std::regex_search(
      reason, m_reason,
      std::regex("accel ([0-9]+) < ref [0-9]+ cycles per invocation with the weights in device "
                 "memory; the first invocation also uploads ([0-9]+) bytes")))
      << reason;
  const uint64_t predicted = std::stoull(m_reason[1]);
  const uint64_t upload_bytes = std::stoull(m_reason[2]);
  // The prediction is the second invocation's cycles; the first differs by the upload, whose
  // bytes are the difference in bytes moved.
  EXPECT_EQ(predicted, second.at("accel").at("predicted_cycles").get<uint64_t>());
  EXPECT_EQ(predicted, second.at("cycles").get<uint64_t>());
  EXPECT_GT(first.at("cycles").get<uint64_t>(), predicted);
  EXPECT_EQ(
      first.at("cycles").get<uint64_t>() - first.at("accel").at("upload_cycles").get<uint64_t>(),
      second.at("cycles").get<uint64_t>());
  EXPECT_EQ(first.at("accel").at("bytes_moved").get<uint64_t>() -
                second.at("accel").at("bytes_moved").get<uint64_t>(),
            upload_bytes);
}

// The table reads on a normal terminal: every layer row fits 160 columns, a cut reason ends in
// "..." and is the start of the report's reason; --wide prints each reason whole. The line under
// the header says where the CPU cycles come from.
TEST_F(RunSummary, TableFitsOneHundredSixtyColumnsAndWidePrintsReasonsWhole) {
  const std::string m = model("16,16,1");
  const std::string report = dir_ + "/r.json";
  const std::vector<std::string> cost = {"--set", "cpu.preset=cortex-m55", "--set",
                                         "cpu.model=cost"};
  std::vector<std::string> args = {"run", "--model", m, "--report", report};
  args.insert(args.end(), cost.begin(), cost.end());
  const RunOutcome narrow = runHilsim(args);
  ASSERT_EQ(narrow.exit_code, 0) << narrow.err;
  args = {"run", "--model", m, "--wide"};
  args.insert(args.end(), cost.begin(), cost.end());
  const RunOutcome wide = runHilsim(args);
  ASSERT_EQ(wide.exit_code, 0) << wide.err;
  std::vector<std::string> reasons;
  const JsonDoc doc = readJsonFile(report);
  EXPECT_EQ(doc.at("simulation").at("cpu_model").get<std::string>(), "cost");
  for (const JsonDoc& layer : doc.at("layers"))
    reasons.push_back(layer.at("reason").get<std::string>());
  ASSERT_EQ(reasons.size(), 2u);
  auto rows = [](const std::string& out) {
    std::vector<std::string> lines;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
      if (line.find("FULLY_CONNECTED  ") != std::string::npos &&
          line.find("x  ") != std::string::npos)
        lines.push_back(line);
    return lines;
  };
  const std::vector<std::string> narrow_rows = rows(narrow.out), wide_rows = rows(wide.out);
  ASSERT_EQ(narrow_rows.size(), reasons.size()) << narrow.out;
  ASSERT_EQ(wide_rows.size(), reasons.size()) << wide.out;
  bool cut = false;
  for (size_t i = 0; i < reasons.size(); ++i) {
    EXPECT_LE(narrow_rows[i].size(), 160u) << narrow_rows[i];
    ASSERT_GT(reasons[i].size(), 40u);  // the break-even reasons name both predictions
    const std::string tail = narrow_rows[i].substr(narrow_rows[i].rfind("x  ") + 3);
    if (tail.size() >= 3 && tail.compare(tail.size() - 3, 3, "...") == 0) {
      cut = true;
      EXPECT_EQ(reasons[i].rfind(tail.substr(0, tail.size() - 3), 0), 0u) << tail;
    } else {
      EXPECT_EQ(tail, reasons[i]);
    }
    // --wide adds the energy columns before the reason, which ends the row whole.
    ASSERT_GE(wide_rows[i].size(), reasons[i].size());
    EXPECT_EQ(wide_rows[i].substr(wide_rows[i].size() - reasons[i].size()), reasons[i]);
  }
  EXPECT_TRUE(cut) << narrow.out;
  EXPECT_NE(narrow.out.find("\nCPU cycles from the cost model (cortex-m55 coefficients, driver 23 "
                            "cycles per job)\n"),
            std::string::npos)
      << narrow.out;
  // The embedded defaults execute the CPU side on the ISS, and say so.
  const RunOutcome defaults = runHilsim({"run", "--model", m, "--report", report});
  ASSERT_EQ(defaults.exit_code, 0) << defaults.err;
  EXPECT_EQ(readJsonFile(report).at("simulation").at("cpu_model").get<std::string>(), "iss");
  EXPECT_NE(defaults.out.find("  cpu cortex-m4f @ 120 MHz, reference kernels  "), std::string::npos)
      << defaults.out;
  EXPECT_NE(defaults.out.find(
                "\nCPU cycles executed on the ISS, flash 5 / SRAM 0 wait states, firmware -O2\n"),
            std::string::npos)
      << defaults.out;
  const RunOutcome iss = runHilsim(
      {"run", "--model", m, "--set", "cpu.preset=cortex-m4f", "--set", "cpu.flash_wait_states=3"});
  ASSERT_EQ(iss.exit_code, 0) << iss.err;
  EXPECT_NE(iss.out.find(
                "\nCPU cycles executed on the ISS, flash 3 / SRAM 0 wait states, firmware -O2\n"),
            std::string::npos)
      << iss.out;
}

// The README's `sh` block that contains `marker`, as lines.
std::vector<std::string> readmeBlock(const std::string& marker) {
  const std::vector<uint8_t> bytes = readFile(std::string(HILSIM_SOURCE_DIR) + "/README.md");
  const std::string readme(bytes.begin(), bytes.end());
  for (size_t at = readme.find("```sh\n"); at != std::string::npos;
       at = readme.find("```sh\n", at + 1)) {
    const size_t end = readme.find("```", at + 6);
    const std::string block = readme.substr(at + 6, end - at - 6);
    if (block.find(marker) == std::string::npos) continue;
    std::vector<std::string> lines;
    std::istringstream in(block);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }
  return {};
}

// The fault-injection example runs as written after the walk-through's first steps (which make
// the model it names), from a directory laid out as the repository, and says what the README
// shows.
TEST_F(RunSummary, ReadmeFaultExampleRunsAsWrittenAfterTheWalkThrough) {
  const std::vector<std::string> walk = readmeBlock("W=out/walk");
  const std::vector<std::string> fault = readmeBlock("sim.fault=bus_error");
  ASSERT_FALSE(walk.empty());
  ASSERT_FALSE(fault.empty());
  std::string script = "set -e\ncd '" + dir_ + "'\nmkdir -p build\nln -sf '" + hilsimPath() +
                       "' build/hilsim\nln -sfn '" + HILSIM_SOURCE_DIR + "/configs' configs\n";
  for (const std::string& line : walk)  // the variables and step 1: the annotated MLP
    if (line.rfind("H=", 0) == 0 || line.rfind("W=", 0) == 0 ||
        line.rfind("$H gen-model", 0) == 0 || line.rfind("$H annotate", 0) == 0)
      script += line + "\n";
  script += "set +e\n";
  std::string expected;  // the stderr the README shows, "..." marking what it leaves out
  bool in_stderr = false;
  for (const std::string& line : fault) {
    if (line.rfind("# exit 3, stderr:", 0) == 0) {
      in_stderr = true;
    } else if (in_stderr && line.rfind("# (one line", 0) != 0 && line.rfind("#", 0) == 0) {
      expected += (expected.empty() ? "" : " ") + line.substr(line.find_first_not_of("# "));
    } else if (line.rfind("#", 0) != 0) {
      script += line + "\n";
    }
  }
  script += "echo \"exit $?\" > status.txt\n";
  writeFile(dir_ + "/example.sh", std::vector<uint8_t>(script.begin(), script.end()));
  ASSERT_EQ(runShell("bash '" + dir_ + "/example.sh' 2> '" + dir_ + "/stderr.txt' > /dev/null"), 0)
      << script;
  const std::vector<uint8_t> status = readFile(dir_ + "/status.txt");
  EXPECT_EQ(std::string(status.begin(), status.end()), "exit 3\n") << script;
  const std::vector<uint8_t> err_bytes = readFile(dir_ + "/stderr.txt");
  const std::string err(err_bytes.begin(), err_bytes.end());
  ASSERT_FALSE(expected.empty());
  // The transaction's address and time follow the model's layout and timing: the README's are
  // examples, the form is checked.
  expected = std::regex_replace(expected, std::regex("(READ|WRITE) 0x[0-9a-f]+ "), "$1 ... ");
  expected = std::regex_replace(expected, std::regex(" at [0-9.]+ ns"), " at ... ns");
  size_t from = 0;
  for (size_t at = 0; at < expected.size();) {
    const size_t gap = expected.find(" ... ", at);
    const std::string part = expected.substr(at, gap == std::string::npos ? gap : gap - at);
    const size_t found = err.find(part, from);
    EXPECT_NE(found, std::string::npos) << "'" << part << "' not in:\n" << err;
    if (found != std::string::npos) from = found + part.size();
    at = gap == std::string::npos ? expected.size() : gap + 5;
  }
  EXPECT_TRUE(std::regex_search(
      err, std::regex("dma (READ|WRITE) 0x[0-9a-f]+ \\([0-9]+ bytes\\) at [0-9.]+ ns -> ")))
      << err;
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/out/walk/out.bin"));
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/out/walk/fault.json"));
}

}  // namespace
}  // namespace hilsim::test
