// The bad-input corpus, end to end through build/hilsim: malformed models, malformed or
// inconsistent chunk plans, bad configs and --set values. Each exits 2 with one line on stderr
// naming the problem and leaves no output file; a plan made for other hardware is re-planned
// with one warning and gives the right bytes. The cases are built here from real models, and the
// outcomes written to test-tmp/Corpus.EveryBadInputExitsTwoWithOneLine/results.md.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "files.h"
#include "golden_cases.h"
#include "hilsim/schema/chunk_plan_generated.h"
#include "hilsim/schema/tflite_generated.h"
#include "runner.h"

namespace hilsim::test {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<tflite::ModelT> unpack(const std::vector<uint8_t>& bytes) {
  return std::unique_ptr<tflite::ModelT>(tflite::GetModel(bytes.data())->UnPack());
}

std::vector<uint8_t> pack(const tflite::ModelT& m) {
  flatbuffers::FlatBufferBuilder b;
  tflite::FinishModelBuffer(b, tflite::Model::Pack(b, &m));
  return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

// Rewrites the chunk plan of operator `op` of an annotated model.
std::vector<uint8_t> mutatePlan(const std::vector<uint8_t>& model, size_t op,
                                const std::function<void(plan::ChunkPlanT&)>& fn) {
  auto m = unpack(model);
  std::vector<uint8_t>& co = m->subgraphs[0]->operators[op]->custom_options;
  std::unique_ptr<plan::ChunkPlanT> p(plan::GetChunkPlan(co.data())->UnPack());
  fn(*p);
  flatbuffers::FlatBufferBuilder b;
  b.Finish(plan::ChunkPlan::Pack(b, p.get()), "HSCP");
  co.assign(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  return pack(*m);
}

struct Case {
  std::string name;
  std::vector<uint8_t> model;     // empty: the unmodified model
  std::vector<std::string> args;  // extra run arguments
  int exit_code = 2;
  std::string fragment;     // the stderr line must contain it
  std::string config_text;  // written to a config file passed with --config
  std::string input;        // the run's --input; empty: the MLP's golden input
};

class Corpus : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = makeTestDir();
    const GoldenCase& mlp = goldenCase("mlp_49_100_50_10_pt");
    golden_ = &mlp;
    plain_ = readFile(mlp.model);
    const std::string annotated = dir_ + "/annotated.tflite";
    ASSERT_EQ(runHilsim({"annotate", "--model", mlp.model, "--config", preset("m4"), "--out",
                         annotated, "--quiet"})
                  .exit_code,
              0);
    annotated_ = readFile(annotated);
    ASSERT_EQ(runHilsim({"annotate", "--model", mlp.model, "--config", preset("m8"), "--out",
                         dir_ + "/m8.tflite", "--quiet"})
                  .exit_code,
              0);
    m8_ = readFile(dir_ + "/m8.tflite");
    const GoldenCase& cnn = goldenCase("real_person_detect");
    cnn_ = &cnn;
    for (const char* p : {"m4", "m8"})
      ASSERT_EQ(runHilsim({"annotate", "--model", cnn.model, "--config", preset(p), "--out",
                           dir_ + "/cnn." + p + ".tflite", "--quiet"})
                    .exit_code,
                0);
    cnn_annotated_ = readFile(dir_ + "/cnn.m4.tflite");
    cnn_m8_ = readFile(dir_ + "/cnn.m8.tflite");
  }
  static std::string preset(const std::string& name) {
    return std::string(HILSIM_SOURCE_DIR) + "/configs/" + name + ".yaml";
  }
  std::string dir_;
  const GoldenCase* golden_ = nullptr;
  const GoldenCase* cnn_ = nullptr;  // person_detect: DEPTHWISE_CONV_2D 0, CONV_2D 2
  std::vector<uint8_t> plain_, annotated_, m8_, cnn_annotated_, cnn_m8_;
};

TEST_F(Corpus, EveryBadInputExitsTwoWithOneLine) {
  std::vector<Case> cases;
  auto modelCase = [&](std::string name, std::vector<uint8_t> bytes, std::string fragment) {
    cases.push_back({std::move(name), std::move(bytes), {}, 2, std::move(fragment), ""});
  };
  // Malformed models.
  modelCase("model truncated to half", {plain_.begin(), plain_.begin() + plain_.size() / 2},
            "corrupt or truncated TFLite flatbuffer");
  std::vector<uint8_t> foreign = plain_;
  foreign[4] = 'X';
  modelCase("model with a foreign file identifier", foreign,
            "not a TFLite model (file identifier 'XFL3'");
  auto m = unpack(plain_);
  m->version = 2;
  modelCase("model of schema version 2", pack(*m), "unsupported schema version 2");
  m = unpack(plain_);
  m->subgraphs[0]->tensors[1]->buffer = 999;
  modelCase("tensor buffer index out of range", pack(*m), "buffer index 999 out of range");
  m = unpack(plain_);
  m->subgraphs[0]->operators[2]->inputs[0] = 1000;
  modelCase("operator input index out of range", pack(*m),
            "operator 2 (FULLY_CONNECTED) input: tensor index 1000 out of range");
  m = unpack(plain_);
  m->buffers[m->subgraphs[0]
                 ->tensors[static_cast<size_t>(m->subgraphs[0]->operators[0]->inputs[1])]
                 ->buffer]
      ->data.resize(100);
  modelCase("weight buffer shorter than its tensor", pack(*m), "holds 100 bytes");
  m = unpack(plain_);
  m->subgraphs[0]->tensors[static_cast<size_t>(m->subgraphs[0]->operators[1]->outputs[0])]->shape =
      {1, 7};
  modelCase("layer output shape disagrees", pack(*m),
            "operator 1 (FULLY_CONNECTED): output INT8 [1,7] does not match");
  modelCase("unsupported custom operator",
            readFile(sharedDir() + "/models/audio_preprocessor_int8.tflite"),
            "CUSTOM 'SignalWindow' (operator 0), CUSTOM 'SignalFftAutoScale' (operator 2)");
  modelCase("activation tensor of 100 GB (found by fuzzing)",
            readFile(std::string(HILSIM_SOURCE_DIR) +
                     "/tests/fuzz/regressions/model/arena-of-100-gigabytes"),
            "needs 106904422080 bytes, more than the 1073741824-byte tensor arena");
  // Malformed or inconsistent chunk plans.
  m = unpack(annotated_);
  m->subgraphs[0]->operators[0]->custom_options[4] = 'Z';
  modelCase("plan with a wrong identifier", pack(*m),
            "operator 0 (FULLY_CONNECTED): custom_options");
  modelCase("plan of version 3",
            mutatePlan(annotated_, 0, [](plan::ChunkPlanT& p) { p.version = 3; }),
            "chunk plan version 3 is not supported");
  modelCase("plan with overlapping chunks",
            mutatePlan(annotated_, 0, [](plan::ChunkPlanT& p) { p.chunks[1]->n_begin -= 1; }),
            "overlaps the previous chunk");
  modelCase("plan with a missing chunk",
            mutatePlan(annotated_, 0, [](plan::ChunkPlanT& p) { p.chunks.pop_back(); }),
            "are in no chunk");
  modelCase("plan with offsets beyond SRAM",
            mutatePlan(annotated_, 0,
                       [](plan::ChunkPlanT& p) { p.chunks[0]->sram_output_offset = 1ull << 40; }),
            "lies beyond");
  modelCase("plan for another layer shape",
            mutatePlan(annotated_, 1,
                       [](plan::ChunkPlanT& p) {
                         p.shape = std::make_unique<plan::LayerShape>(1, 100, 51);
                       }),
            "plan is for a 1x100->51 layer, the operator is 1x100->50");
  m = unpack(annotated_);
  m->subgraphs[0]->operators[2]->custom_options.resize(20);
  modelCase("truncated plan", pack(*m), "operator 2 (FULLY_CONNECTED): chunk plan is corrupt");
  // Malformed or inconsistent convolution plans: the same errors, naming the operator.
  auto convCase = [&](std::string name, std::vector<uint8_t> bytes, std::string fragment) {
    cases.push_back({std::move(name),
                     std::move(bytes),
                     {},
                     2,
                     std::move(fragment),
                     "",
                     cnn_->vectors[0].input});
  };
  m = unpack(cnn_annotated_);
  m->subgraphs[0]->operators[2]->custom_options[4] = 'Z';
  convCase("conv plan with a wrong identifier", pack(*m), "operator 2 (CONV_2D): custom_options");
  m = unpack(cnn_annotated_);
  m->subgraphs[0]->operators[2]->custom_options.resize(24);
  convCase("truncated conv plan", pack(*m), "operator 2 (CONV_2D): chunk plan is corrupt");
  convCase("conv plan of version 1",
           mutatePlan(cnn_annotated_, 2, [](plan::ChunkPlanT& p) { p.version = 1; }),
           "operator 2 (CONV_2D): chunk plan version 1 is for FULLY_CONNECTED layers only");
  convCase(
      "conv plan of another kind",
      mutatePlan(cnn_annotated_, 0, [](plan::ChunkPlanT& p) { p.kind = plan::PlanKind::CONV_2D; }),
      "operator 0 (DEPTHWISE_CONV_2D): chunk plan is inconsistent: plan is for a CONV_2D "
      "layer, the operator is DEPTHWISE_CONV_2D");
  convCase("conv plan for another layer shape",
           mutatePlan(cnn_annotated_, 2, [](plan::ChunkPlanT& p) { p.conv->in_h = 50; }),
           "convolution, the operator is 1x48x48x8");
  convCase("conv plan without its geometry",
           mutatePlan(cnn_annotated_, 2, [](plan::ChunkPlanT& p) { p.conv.reset(); }),
           "operator 2 (CONV_2D): convolution plan lacks its geometry");
  convCase("conv plan with overlapping chunks",
           mutatePlan(cnn_annotated_, 2, [](plan::ChunkPlanT& p) { p.chunks[1]->m_begin -= 1; }),
           "overlap");
  convCase("conv plan with a missing chunk",
           mutatePlan(cnn_annotated_, 2, [](plan::ChunkPlanT& p) { p.chunks.pop_back(); }),
           "in no chunk");
  convCase("conv plan whose bands do not cover its rows",
           mutatePlan(cnn_annotated_, 2, [](plan::ChunkPlanT& p) { p.chunks[0]->num_bands += 1; }),
           "bands of");
  convCase("conv plan with a buffer beyond SRAM",
           mutatePlan(cnn_annotated_, 2,
                      [](plan::ChunkPlanT& p) {
                        p.chunks[0]->sram_output_offset = 1ull << 40;
                        p.chunks[0]->sram_output_buffers[0] = 1ull << 40;
                      }),
           "lies beyond");
  convCase("conv plan on a core the hardware lacks",
           mutatePlan(cnn_annotated_, 2, [](plan::ChunkPlanT& p) { p.chunks[0]->core = 9; }),
           "chunk for core 9 on 4-core hardware");
  // Bad configs and --set values.
  auto configCase = [&](std::string name, std::string text, std::string fragment) {
    cases.push_back({std::move(name), {}, {}, 2, std::move(fragment), std::move(text)});
  };
  configCase("config key typo", "accel:\n  num_corse: 4\n",
             "bad.yaml:2: unknown key 'accel.num_corse'");
  configCase("config wrong type", "bus:\n  width_bytes: wide\n",
             "bad.yaml:2: bus.width_bytes: expected an integer");
  configCase("config out of range", "accel:\n  num_cores: 65\n",
             "bad.yaml:2: accel.num_cores = 65 is out of range (1..64)");
  configCase("config num_cores 0", "accel:\n  num_cores: 0\n",
             "accel.num_cores = 0 is out of range");
  configCase("config missing include", "include: nowhere.yaml\n",
             "bad.yaml:1: include 'nowhere.yaml': file not found");
  configCase("config broken YAML", "accel: {num_cores: 4\n", "YAML syntax error");
  configCase("config that sends yaml-cpp's document loop round forever", "&a,\n",
             "bad.yaml:1: YAML syntax error: unexpected ',' at column 3");
  configCase("config retired cmsis_nn", "cpu:\n  preset: rv32im\n  kernels: cmsis_nn\n",
             "write 'optimized'");
  auto setCase = [&](std::string name, std::string set, std::string fragment) {
    cases.push_back({std::move(name), {}, {"--set", std::move(set)}, 2, std::move(fragment), ""});
  };
  setCase("--set unknown key", "accel.cores=4", "--set accel.cores=4: unknown key");
  setCase("--set bad value", "bus.arbitration=lottery", "bus.arbitration");
  setCase("--set without a value", "accel.num_cores", "expected key=value");
  setCase("--set out of range", "accel.dma.channels=100",
          "accel.dma.channels = 100 is out of range");

  std::ofstream table(dir_ + "/results.md");
  table << "| bad input | exit | stderr |\n|---|---|---|\n";
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    SCOPED_TRACE(c.name);
    const std::string model = dir_ + "/case" + std::to_string(i) + ".tflite";
    writeFile(model, c.model.empty() ? annotated_ : c.model);
    const std::string out = dir_ + "/out" + std::to_string(i) + ".bin";
    std::vector<std::string> args = {"run",
                                     "--model",
                                     model,
                                     "--input",
                                     c.input.empty() ? golden_->vectors[0].input : c.input,
                                     "--output",
                                     out,
                                     "--mode",
                                     "accel",
                                     "--quiet"};
    if (!c.config_text.empty()) {
      const std::string cfg = dir_ + "/bad.yaml";
      std::ofstream(cfg) << c.config_text;
      args.insert(args.end(), {"--config", cfg});
    } else {
      args.insert(args.end(), {"--config", preset("m4")});
    }
    args.insert(args.end(), c.args.begin(), c.args.end());
    const RunOutcome r = runHilsim(args, 60);
    table << "| " << c.name << " | " << r.exit_code << " | `" << r.err.substr(0, r.err.find('\n'))
          << "` |\n";
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.signal, 0);
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(c.fragment), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out)) << "output left by a failed run";
  }
  RecordProperty("cases", static_cast<int>(cases.size()));
}

// A plan made for 8 cores run on 4: re-planned in memory, one warning, the right bytes.
TEST_F(Corpus, PlanForOtherHardwareIsReplannedWithOneWarning) {
  const std::string model = dir_ + "/m8-on-m4.tflite";
  writeFile(model, m8_);
  const std::string out = dir_ + "/out.bin";
  const RunOutcome r =
      runHilsim({"run", "--model", model, "--config", preset("m4"), "--input",
                 golden_->vectors[0].input, "--output", out, "--mode", "accel", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(
      r.err.rfind("hilsim: warning: chunk plans in the model were made for other hardware (8 cores",
                  0),
      0u)
      << r.err;
  EXPECT_EQ(readFile(out), readFile(golden_->vectors[0].expected));
}

// The same for convolutions: person_detect annotated for 8 cores, run on 4.
TEST_F(Corpus, ConvPlansForOtherHardwareAreReplannedWithOneWarning) {
  const std::string model = dir_ + "/cnn-m8-on-m4.tflite";
  writeFile(model, cnn_m8_);
  const std::string out = dir_ + "/cnn-out.bin";
  const RunOutcome r =
      runHilsim({"run", "--model", model, "--config", preset("m4"), "--input",
                 cnn_->vectors[0].input, "--output", out, "--mode", "auto", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(
      r.err.rfind("hilsim: warning: chunk plans in the model were made for other hardware (8 cores",
                  0),
      0u)
      << r.err;
  EXPECT_EQ(readFile(out), readFile(cnn_->vectors[0].expected));
}

}  // namespace
}  // namespace hilsim::test
