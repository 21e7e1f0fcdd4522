// "Does it fit?": what a run needs of the microcontroller (tensor arena, flash) and of the
// accelerator (device memory, core SRAM), in the table, the CSV and the report's
// simulation.memory; a budget turns an overflow into one warning; layers that could not get
// device memory are counted once.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "files.h"
#include "json_file.h"
#include "runner.h"

namespace hilsim::test {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  std::string cell;
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.push_back("");
  return cells;
}

class Fit : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = makeTestDir();
    // 1024 -> 256 -> 64: layer 0 holds 256 KiB of weights, layer 1 16 KiB.
    ASSERT_EQ(runHilsim({"gen-model", "--layers", "1024,256,64", "--out", model()}).exit_code, 0);
  }
  std::string model() const { return dir_ + "/mlp.tflite"; }
  RunOutcome run(std::vector<std::string> extra, bool quiet = false) {
    std::vector<std::string> args = {"run",   "--model", model(), "--report",         report(),
                                     "--csv", csv(),     "--set", "accel.num_cores=2"};
    args.insert(args.end(), extra.begin(), extra.end());
    if (quiet) args.push_back("--quiet");
    return runHilsim(args, 60);
  }
  std::string report() const { return dir_ + "/r.json"; }
  std::string csv() const { return dir_ + "/r.csv"; }
  std::string dir_;
};

TEST_F(Fit, ReportsTheArenaFlashDeviceMemoryAndCoreSram) {
  const RunOutcome r = run({"--mode", "accel", "--set", "cpu.preset=cortex-m4f"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const JsonDoc doc = readJsonFile(report());
  const JsonDoc& m = doc.at("simulation").at("memory");
  const JsonDoc& a = m.at("arena");
  const uint64_t activations = a.at("activation_bytes").get<uint64_t>();
  const uint64_t persistent = a.at("persistent_bytes").get<uint64_t>();
  const uint64_t runtime = a.at("runtime_bytes").get<uint64_t>();
  const uint64_t quantization = a.at("quantization_bytes").get<uint64_t>();
  EXPECT_EQ(m.at("arena_bytes").get<uint64_t>(), activations + persistent + runtime + quantization);
  // The input (1024 bytes) and the hidden layer's output (256) are alive together.
  EXPECT_GE(activations, 1024u + 256u);
  // Per-channel requantization: a multiplier and a shift per output channel, int32 each.
  EXPECT_GE(persistent, (256u + 64u) * 8u);
  // One int8 input and one int8 output, quantized per tensor: TfLiteAffineQuantization (12) and a
  // one-element zero-point array (8) each.
  EXPECT_EQ(quantization, 2u * (12u + 8u));
  // Two operators, the I/O TfLiteTensors, and at least the five tensors in use.
  EXPECT_GE(runtime, 2u * 32u + 2u * 36u + 5u * 12u);
  EXPECT_EQ(runtime % 4, 0u);

  EXPECT_EQ(m.at("model_bytes").get<uint64_t>(), readFile(model()).size());
  ASSERT_FALSE(m.at("firmware_bytes").is_null()) << m;
  const uint64_t firmware = m.at("firmware_bytes").get<uint64_t>();
  EXPECT_GT(firmware, 1000u);
  EXPECT_EQ(m.at("flash_bytes").get<uint64_t>(), m.at("model_bytes").get<uint64_t>() + firmware);

  // Both layers offloaded: their weights alone take more than 256 KiB of device memory.
  const uint64_t peak = m.at("device_memory_peak_bytes").get<uint64_t>();
  EXPECT_GT(peak, 1024u * 256u + 256u * 64u);
  EXPECT_LE(peak, m.at("device_memory_bytes").get<uint64_t>());
  EXPECT_EQ(m.at("device_memory_bytes").get<uint64_t>(),
            doc.at("config").at("memory").at("size_bytes").get<uint64_t>());
  const JsonDoc& sram = m.at("core_sram_peak_bytes");
  ASSERT_EQ(sram.size(), 2u);
  for (const JsonDoc& core : sram) {
    EXPECT_GT(core.get<uint64_t>(), 0u);
    EXPECT_LE(core.get<uint64_t>(), 262144u);
  }
  EXPECT_EQ(m.at("layers_without_device_memory").get<int>(), 0);
  EXPECT_TRUE(m.at("flash_budget_bytes").is_null());
  EXPECT_TRUE(m.at("fits").get<bool>());

  // Each layer's share of the run's cycles, summing to the whole.
  double percent = 0.0;
  for (const JsonDoc& s : doc.at("layer_stats")) {
    const double share = s.at("cycles_percent").get<double>();
    const double expected = 100.0 * s.at("cycles").at("sum").get<double>() /
                            doc.at("run_totals").at("cycles").get<double>();
    EXPECT_NEAR(share, expected, 1e-9);
    percent += share;
  }
  EXPECT_NEAR(percent, 100.0, 1e-9);

  // The table's memory line says the same.
  EXPECT_EQ(count(r.out, "\nmemory: arena "), 1u) << r.out;
  EXPECT_NE(r.out.find("cyc%"), std::string::npos) << r.out;
  auto commas = [](uint64_t v) {
    std::string digits = std::to_string(v), out;
    for (size_t i = 0; i < digits.size(); ++i) {
      if (i && (digits.size() - i) % 3 == 0) out += ',';
      out += digits[i];
    }
    return out;
  };
  EXPECT_NE(r.out.find("memory: arena " + commas(m.at("arena_bytes").get<uint64_t>()) + " bytes"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("flash " + commas(m.at("flash_bytes").get<uint64_t>()) + " bytes"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("device memory peak " + commas(peak) + " of "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("device memory full"), std::string::npos) << r.out;

  // The CSV carries the share per row and the memory figures on every row.
  const std::vector<uint8_t> bytes = readFile(csv());
  std::stringstream lines(std::string(bytes.begin(), bytes.end()));
  std::string line;
  ASSERT_TRUE(std::getline(lines, line));
  const std::vector<std::string> header = split(line);
  auto column = [&header](const std::string& name) {
    return size_t(std::find(header.begin(), header.end(), name) - header.begin());
  };
  for (const char* name :
       {"cycles_percent", "arena_bytes", "flash_bytes", "device_memory_peak_bytes",
        "core0_sram_peak_bytes", "core1_sram_peak_bytes"})
    ASSERT_LT(column(name), header.size()) << name << " in " << line;
  size_t rows = 0;
  while (std::getline(lines, line)) {
    const std::vector<std::string> cells = split(line);
    ASSERT_EQ(cells.size(), header.size()) << line;
    EXPECT_EQ(cells[column("arena_bytes")], std::to_string(m.at("arena_bytes").get<uint64_t>()));
    EXPECT_EQ(cells[column("flash_bytes")], std::to_string(m.at("flash_bytes").get<uint64_t>()));
    EXPECT_EQ(cells[column("device_memory_peak_bytes")], std::to_string(peak));
    EXPECT_EQ(cells[column("core1_sram_peak_bytes")], std::to_string(sram[1].get<uint64_t>()));
    const double share = std::stod(cells[column("cycles_percent")]);
    EXPECT_GE(share, 0.0);
    EXPECT_LE(share, 100.0);
    ++rows;
  }
  EXPECT_EQ(rows, doc.at("layers").size());
}

TEST_F(Fit, ABudgetTurnsAnOverflowIntoOneWarning) {
  const RunOutcome fits =
      run({"--set", "mcu.sram_bytes=1000000", "--set", "mcu.flash_bytes=100000000"}, true);
  ASSERT_EQ(fits.exit_code, 0) << fits.err;
  EXPECT_EQ(fits.err.find("warning"), std::string::npos) << fits.err;
  const JsonDoc fit_doc = readJsonFile(report());
  EXPECT_TRUE(fit_doc.at("simulation").at("memory").at("fits").get<bool>());
  EXPECT_EQ(fit_doc.at("simulation").at("memory").at("sram_budget_bytes").get<uint64_t>(),
            1000000u);

  const RunOutcome sram = run({"--set", "mcu.sram_bytes=1024"}, true);
  ASSERT_EQ(sram.exit_code, 0) << sram.err;
  const JsonDoc doc = readJsonFile(report());
  const JsonDoc& m = doc.at("simulation").at("memory");
  EXPECT_FALSE(m.at("fits").get<bool>());
  const std::string warning = "hilsim: warning: the tensor arena needs " +
                              std::to_string(m.at("arena_bytes").get<uint64_t>()) +
                              " bytes, more than mcu.sram_bytes = 1024\n";
  EXPECT_EQ(count(sram.err, "warning"), 1u) << sram.err;
  EXPECT_NE(sram.err.find(warning), std::string::npos) << sram.err;
  EXPECT_EQ(doc.at("notes").back().get<std::string>() + "\n", warning.substr(8));

  const RunOutcome flash = run({"--set", "mcu.flash_bytes=4096"}, true);
  ASSERT_EQ(flash.exit_code, 0) << flash.err;
  const uint64_t model_bytes = readFile(model()).size();
  EXPECT_EQ(count(flash.err, "warning"), 1u) << flash.err;
  EXPECT_NE(flash.err.find("bytes of flash, more than mcu.flash_bytes = 4096 (model " +
                           std::to_string(model_bytes)),
            std::string::npos)
      << flash.err;

  const RunOutcome bad = run({"--set", "mcu.sram_bytes=-1"}, true);
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("mcu.sram_bytes"), std::string::npos) << bad.err;
}

TEST_F(Fit, LayersWithoutDeviceMemoryAreCountedOnce) {
  // 128 KiB of device memory holds layer 1 (16 KiB of weights), not layer 0 (256 KiB).
  const RunOutcome r = run({"--mode", "accel", "--set", "memory.size_bytes=131072"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count(r.out, "device memory full: 1 layer ran on the CPU"), 1u) << r.out;
  const JsonDoc m = readJsonFile(report()).at("simulation").at("memory");
  EXPECT_EQ(m.at("layers_without_device_memory").get<int>(), 1);
  EXPECT_EQ(m.at("device_memory_bytes").get<uint64_t>(), 131072u);
  EXPECT_GT(m.at("device_memory_peak_bytes").get<uint64_t>(), 256u * 64u);
  EXPECT_LT(m.at("device_memory_peak_bytes").get<uint64_t>(), 131072u);
}

}  // namespace
}  // namespace hilsim::test
