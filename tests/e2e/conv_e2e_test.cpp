// Convolutions on the accelerator, end to end through build/hilsim: generated CONV_2D and
// DEPTHWISE_CONV_2D cases (1x1, 3x3 SAME and VALID, stride 2, dilation, per-channel and
// per-tensor, RELU and RELU6, batch > 1, zero points at the ends, grouped) give the reference
// kernel's bytes annotated for every preset in accel, auto and compare modes, also with SRAM so
// small that every tiling case occurs; a single core whose SRAM holds the layer computes for
// SCALE-Sim's figure plus one; person_detect annotated for m4 runs at least 2.5x faster in auto
// mode than on its reference path.

#include <gtest/gtest.h>

#include "conv_model.h"
#include "files.h"
#include "golden_cases.h"
#include "json_file.h"
#include "runner.h"

namespace hilsim::test {
namespace {

using tflite::ActivationFunctionType;
using tflite::Padding;

std::string preset(const std::string& name) {
  return std::string(HILSIM_SOURCE_DIR) + "/configs/" + name + ".yaml";
}

std::vector<ConvCase> cases() {
  std::vector<ConvCase> out;
  auto add = [&out](ConvCase c) { out.push_back(std::move(c)); };
  ConvCase c;
  c = {};
  c.name = "conv1x1_relu";
  c.in_h = c.in_w = 8;
  c.in_c = 16;
  c.out_c = 24;
  c.filter_h = c.filter_w = 1;
  c.activation = ActivationFunctionType::RELU;
  add(c);
  c = {};
  c.name = "conv3x3_same_relu6";
  c.in_h = 10;
  c.in_w = 9;
  c.in_c = 5;
  c.out_c = 7;
  c.activation = ActivationFunctionType::RELU6;
  c.seed = 2;
  add(c);
  c = {};
  c.name = "conv3x3_valid_per_tensor";
  c.in_h = 11;
  c.in_w = 12;
  c.in_c = 3;
  c.out_c = 8;
  c.padding = Padding::VALID;
  c.per_channel = false;
  c.seed = 3;
  add(c);
  c = {};
  c.name = "conv3x3_stride2_same";
  c.in_h = 15;
  c.in_w = 14;
  c.in_c = 6;
  c.out_c = 10;
  c.stride_h = c.stride_w = 2;
  c.seed = 4;
  add(c);
  c = {};
  c.name = "conv5x3_stride2x1_valid_nobias";
  c.in_h = 17;
  c.in_w = 16;
  c.in_c = 4;
  c.out_c = 6;
  c.filter_h = 5;
  c.stride_h = 2;
  c.padding = Padding::VALID;
  c.bias = false;
  c.seed = 5;
  add(c);
  c = {};
  c.name = "conv3x3_dilation2";
  c.in_h = c.in_w = 12;
  c.in_c = 4;
  c.out_c = 6;
  c.dilation_h = c.dilation_w = 2;
  c.seed = 6;
  add(c);
  c = {};
  c.name = "conv3x3_batch3_relu";
  c.batches = 3;
  c.in_h = 9;
  c.in_w = 7;
  c.in_c = 5;
  c.out_c = 9;
  c.activation = ActivationFunctionType::RELU;
  c.seed = 7;
  add(c);
  c = {};
  c.name = "conv3x3_zero_points_at_the_ends";
  c.in_c = 3;
  c.out_c = 20;
  c.input_zero_point = -128;
  c.output_zero_point = 127;
  c.seed = 8;
  add(c);
  c = {};
  c.name = "conv1x1_stride2";
  c.in_h = c.in_w = 8;
  c.in_c = 8;
  c.out_c = 16;
  c.filter_h = c.filter_w = 1;
  c.stride_h = c.stride_w = 2;
  c.input_zero_point = 127;
  c.seed = 9;
  add(c);
  c = {};
  c.name = "conv3x3_wide";
  c.in_h = c.in_w = 20;
  c.in_c = 16;
  c.out_c = 40;
  c.seed = 10;
  add(c);
  c = {};
  c.name = "depthwise3x3_same_relu6";
  c.depthwise = true;
  c.in_h = c.in_w = 10;
  c.in_c = c.out_c = 8;
  c.activation = ActivationFunctionType::RELU6;
  c.seed = 11;
  add(c);
  c = {};
  c.name = "depthwise3x3_stride2_multiplier2_valid_batch2";
  c.depthwise = true;
  c.batches = 2;
  c.in_h = c.in_w = 9;
  c.in_c = 3;
  c.out_c = 6;
  c.stride_h = c.stride_w = 2;
  c.padding = Padding::VALID;
  c.seed = 12;
  add(c);
  c = {};
  c.name = "depthwise3x3_dilation2_per_tensor";
  c.depthwise = true;
  c.in_h = c.in_w = 11;
  c.in_c = c.out_c = 5;
  c.dilation_h = c.dilation_w = 2;
  c.per_channel = false;
  c.seed = 13;
  add(c);
  c = {};
  c.name = "grouped_conv";
  c.in_c = 8;
  c.out_c = 8;
  c.groups = 2;
  c.seed = 14;
  add(c);
  return out;
}

// The bytes of the reference kernels and the report's layer entries of a run.
struct Ran {
  std::vector<uint8_t> output;
  JsonDoc report;
};

Ran run(const std::string& model, const std::string& input, const std::string& dir,
        const std::vector<std::string>& extra) {
  std::vector<std::string> args = {
      "run",      "--model",        model,      "--input",       input,
      "--output", dir + "/out.bin", "--report", dir + "/r.json", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  const RunOutcome r = runHilsim(args);
  EXPECT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
  if (r.exit_code != 0) return {};
  return {readFile(dir + "/out.bin"), readJsonFile(dir + "/r.json")};
}

void PrintTo(const ConvCase& c, std::ostream* os) {
  *os << c.name;
}

class ConvCli : public ::testing::TestWithParam<ConvCase> {};

TEST_P(ConvCli, AcceleratedBytesEqualTheReferenceKernelOnEveryPresetAndMode) {
  const ConvCase& c = GetParam();
  const std::string dir = makeTestDir();
  const std::string model = dir + "/model.tflite";
  writeFile(model, buildConvModel(c));
  std::vector<uint8_t> input = convInput(c, 1);
  const std::vector<uint8_t> second = convInput(c, 2);
  input.insert(input.end(), second.begin(), second.end());
  writeFile(dir + "/in.bin", input);
  const Ran ref = run(model, dir + "/in.bin", dir, {"--mode", "ref"});
  ASSERT_FALSE(ref.output.empty());
  for (const char* p : {"m1", "m4", "m8", "m16"}) {
    const std::string annotated = dir + "/" + p + ".tflite";
    const RunOutcome a =
        runHilsim({"annotate", "--model", model, "--config", preset(p), "--out", annotated});
    ASSERT_EQ(a.exit_code, 0) << a.err;
    for (const char* mode : {"accel", "auto", "compare"}) {
      SCOPED_TRACE(std::string(p) + " " + mode);
      const Ran r = run(annotated, dir + "/in.bin", dir, {"--config", preset(p), "--mode", mode});
      EXPECT_EQ(r.output, ref.output);
      if (std::string(mode) != "accel" || r.report.is_null()) continue;
      for (const JsonDoc& l : r.report.at("layers")) {
        if (c.groups == 1) {
          EXPECT_EQ(l.at("path").get<std::string>(), "accel") << l.at("reason").get<std::string>();
        } else {
          EXPECT_EQ(l.at("path").get<std::string>(), "ref");
          EXPECT_NE(
              l.at("reason").get<std::string>().find("not mapped to the accelerator: grouped"),
              std::string::npos)
              << l.at("reason").get<std::string>();
        }
      }
    }
  }
  // SRAM so small that bands, tiles and both occur, with and without double buffering.
  for (const char* p : {"m1", "m4"})
    for (const char* sram : {"4096", "6144", "12288"})
      for (const char* db : {"true", "false"}) {
        SCOPED_TRACE(std::string(p) + " sram " + sram + " double_buffer " + db);
        const Ran r = run(model, dir + "/in.bin", dir,
                          {"--config", preset(p), "--mode", "compare", "--set",
                           std::string("accel.core.sram_bytes=") + sram, "--set",
                           std::string("accel.core.double_buffer=") + db});
        EXPECT_EQ(r.output, ref.output);
      }
}

INSTANTIATE_TEST_SUITE_P(Generated, ConvCli, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

// SCALE-Sim's convolution model is its GEMM model on the im2col operands: M = output pixels,
// K = filter_h x filter_w x in_c, N = out_c. Worked out here from that form, independently of
// the simulator: folds of the mapped dimensions, each 2R + C + T - 2 cycles (ws, is) or
// R + C + T - 2 (os), T the streamed dimension, reported as folds x cycles - 1.
uint64_t scaleSimReported(const std::string& dataflow, uint64_t r, uint64_t c, uint64_t m,
                          uint64_t k, uint64_t n) {
  auto folds = [](uint64_t a, uint64_t b) { return (a + b - 1) / b; };
  if (dataflow == "ws") return folds(k, r) * folds(n, c) * (2 * r + c + m - 2) - 1;
  if (dataflow == "os") return folds(m, r) * folds(n, c) * (r + c + k - 2) - 1;
  return folds(k, r) * folds(m, c) * (2 * r + c + n - 2) - 1;
}

TEST(ConvScaleSim, OneCoreHoldingTheLayerComputesForScaleSimsFigurePlusOne) {
  const std::string dir = makeTestDir();
  size_t checked = 0;
  for (const ConvCase& c : cases()) {
    if (c.depthwise || c.groups != 1) continue;
    const std::string model = dir + "/" + c.name + ".tflite";
    writeFile(model, buildConvModel(c));
    writeFile(dir + "/in.bin", convInput(c, 3));
    const uint64_t m = uint64_t(c.batches) * c.outH() * c.outW();
    const uint64_t k = uint64_t(c.filter_h) * c.filter_w * c.in_c;
    const uint64_t n = uint64_t(c.out_c);
    for (const char* dataflow : {"ws", "os", "is"})
      for (const auto& [rows, cols] : {std::pair{16, 16}, std::pair{8, 8}, std::pair{4, 32}}) {
        SCOPED_TRACE(c.name + " " + dataflow + " " + std::to_string(rows) + "x" +
                     std::to_string(cols));
        const Ran r = run(model, dir + "/in.bin", dir,
                          // The host at the accelerator's clock: its cycles are the accelerator's.
                          {"--config", preset("m1"), "--mode", "accel", "--set",
                           "cpu.clock_mhz=400", "--set", "accel.core.sram_bytes=16777216", "--set",
                           std::string("accel.core.dataflow=") + dataflow, "--set",
                           "accel.core.array_rows=" + std::to_string(rows), "--set",
                           "accel.core.array_cols=" + std::to_string(cols)});
        ASSERT_FALSE(r.report.is_null());
        const JsonDoc l = r.report.at("layers")[0];
        EXPECT_EQ(l.at("shape").at("m").get<uint64_t>(), m);
        EXPECT_EQ(l.at("shape").at("k").get<uint64_t>(), k);
        EXPECT_EQ(l.at("shape").at("n").get<uint64_t>(), n);
        EXPECT_EQ(l.at("accel").at("compute_cycles").get<uint64_t>(),
                  scaleSimReported(dataflow, rows, cols, m, k, n) + 1);
        ++checked;
      }
  }
  EXPECT_GE(checked, 90u);
}

// The report's shape of a convolution: tensors, window, padding and the GEMM view.
TEST(ConvReport, ShapeGivesTensorsWindowPaddingAndGemm) {
  ConvCase c = cases()[3];  // 15x14x6 -> 10, 3x3 stride 2 SAME
  const std::string dir = makeTestDir();
  writeFile(dir + "/m.tflite", buildConvModel(c));
  writeFile(dir + "/in.bin", convInput(c, 1));
  const Ran r = run(dir + "/m.tflite", dir + "/in.bin", dir, {"--mode", "accel"});
  ASSERT_FALSE(r.report.is_null());
  const JsonDoc s = r.report.at("layers")[0].at("shape");
  EXPECT_EQ(s.at("input").get<std::vector<int>>(), (std::vector<int>{1, 15, 14, 6}));
  EXPECT_EQ(s.at("filter").get<std::vector<int>>(), (std::vector<int>{10, 3, 3, 6}));
  EXPECT_EQ(s.at("output").get<std::vector<int>>(), (std::vector<int>{1, 8, 7, 10}));
  EXPECT_EQ(s.at("stride").get<std::vector<int>>(), (std::vector<int>{2, 2}));
  EXPECT_EQ(s.at("dilation").get<std::vector<int>>(), (std::vector<int>{1, 1}));
  EXPECT_EQ(s.at("padding").get<std::string>(), "SAME");
  // SAME, 15 rows, stride 2: 8 outputs, (8 - 1) x 2 + 3 - 15 = 2 rows of padding, 1 before.
  // 14 columns: 7 outputs, (7 - 1) x 2 + 3 - 14 = 1 column, 0 before.
  EXPECT_EQ(s.at("pad").get<std::vector<int>>(), (std::vector<int>{1, 0}));
  EXPECT_EQ(s.at("m").get<int>(), 56);
  EXPECT_EQ(s.at("k").get<int>(), 54);
  EXPECT_EQ(s.at("n").get<int>(), 10);
  EXPECT_GT(r.report.at("layers")[0].at("break_even_macs").get<uint64_t>(), 0u);
}

TEST(ConvPersonDetect, AnnotatedForM4RunsAtLeast2_5xFasterInAutoMode) {
  const GoldenCase& gc = goldenCase("real_person_detect");
  const std::string dir = makeTestDir();
  const std::string annotated = dir + "/pd.m4.tflite";
  ASSERT_EQ(runHilsim({"annotate", "--model", gc.model, "--config", preset("m4"), "--out",
                       annotated, "--quiet"})
                .exit_code,
            0);
  const Ran r =
      run(annotated, gc.vectors[0].input, dir, {"--config", preset("m4"), "--mode", "auto"});
  ASSERT_FALSE(r.report.is_null());
  EXPECT_EQ(r.output, readFile(gc.vectors[0].expected));
  const double speedup = r.report.at("totals").at("speedup_over_ref").get<double>();
  EXPECT_GE(speedup, 2.5);
  size_t convs = 0;
  for (const JsonDoc& l : r.report.at("layers")) {
    const std::string op = l.at("op").get<std::string>();
    if (op != "CONV_2D" && op != "DEPTHWISE_CONV_2D") continue;
    ++convs;
    EXPECT_EQ(l.at("path").get<std::string>(), "accel") << l.at("index") << " " << l.at("reason");
  }
  EXPECT_EQ(convs, 28u);
  RecordProperty("speedup", std::to_string(speedup));
}

}  // namespace
}  // namespace hilsim::test
