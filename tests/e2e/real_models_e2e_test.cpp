// The real models of ../shared/models (MLPerf Tiny and TensorFlow Lite Micro's examples) through
// build/hilsim as a user runs them: inspect, annotate, and every mode, checking what can be
// checked without TensorFlow Lite Micro. (The golden tests check the bytes of the models that
// have golden cases.)

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <random>

#include "files.h"
#include "golden_cases.h"
#include "hilsim/schema/tflite_generated.h"
#include "json_file.h"
#include "runner.h"

namespace hilsim::test {
namespace {

namespace fs = std::filesystem;

// Its signal-library custom operators are out of scope; it has its own test below.
constexpr const char* kAudioFrontEnd = "audio_preprocessor_int8.tflite";

std::vector<std::string> realModelNames() {
  std::vector<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(sharedDir() + "/models"))
    if (e.path().extension() == ".tflite" && e.path().filename() != kAudioFrontEnd)
      names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string modelPath(const std::string& name) {
  return sharedDir() + "/models/" + name;
}

size_t typeBytes(const std::string& type) {
  if (type == "INT8" || type == "UINT8" || type == "BOOL") return 1;
  if (type == "INT16" || type == "FLOAT16") return 2;
  if (type == "INT64" || type == "FLOAT64") return 8;
  return 4;
}

struct ModelFacts {
  JsonDoc inspect;
  size_t input_bytes = 0;
  std::vector<std::string> ops;
  bool stateful = false;  // has variable tensors
};

ModelFacts inspectModel(const std::string& path) {
  const RunOutcome r = runHilsim({"inspect", path, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
  ModelFacts f;
  f.inspect = parseJson(r.out);
  const int input = f.inspect.at("inputs")[0].get<int>();
  const JsonDoc t = f.inspect.at("tensors")[input];
  size_t n = typeBytes(t.at("type").get<std::string>());
  for (const JsonDoc& d : t.at("shape")) n *= d.get<size_t>();
  f.input_bytes = n;
  for (const JsonDoc& op : f.inspect.at("operators"))
    f.ops.push_back(op.at("op").get<std::string>());
  for (const JsonDoc& tensor : f.inspect.at("tensors"))
    f.stateful |= tensor.at("is_variable").get<bool>();
  return f;
}

// Random bytes for `frames` frames; float inputs get finite values in [-1, 1).
std::vector<uint8_t> randomFrames(const ModelFacts& f, int frames, uint32_t seed) {
  const int input = f.inspect.at("inputs")[0].get<int>();
  const bool is_float = f.inspect.at("tensors")[input].at("type").get<std::string>() == "FLOAT32";
  std::mt19937 rng(seed);
  std::vector<uint8_t> bytes(f.input_bytes * static_cast<size_t>(frames));
  if (is_float) {
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (size_t i = 0; i + 4 <= bytes.size(); i += 4) {
      const float v = dist(rng);
      std::memcpy(bytes.data() + i, &v, 4);
    }
  } else {
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
  }
  return bytes;
}

class RealModel : public ::testing::TestWithParam<std::string> {};

TEST_P(RealModel, InspectsAnnotatesAndRunsTheSameBytesInEveryMode) {
  const std::string model = modelPath(GetParam());
  const std::string dir = makeTestDir();
  const ModelFacts f = inspectModel(model);
  ASSERT_TRUE(f.inspect.at("runnable").get<bool>()) << f.inspect.at("status").get<std::string>();
  EXPECT_EQ(f.inspect.at("unsupported").size(), 0u);

  const std::string annotated = dir + "/annotated.tflite";
  const RunOutcome a =
      runHilsim({"annotate", "--model", model, "--config",
                 std::string(HILSIM_SOURCE_DIR) + "/configs/m4.yaml", "--out", annotated});
  ASSERT_EQ(a.exit_code, 0) << a.command << "\n" << a.err;

  const std::string input = dir + "/in.bin";
  writeFile(input, randomFrames(f, 2, 2024));
  std::vector<uint8_t> reference;
  for (const char* mode : {"ref", "accel", "auto", "compare"}) {
    SCOPED_TRACE(mode);
    const std::string out = dir + "/" + mode + ".bin";
    const std::string report = dir + "/" + mode + ".json";
    const RunOutcome r = runHilsim(
        {"run", "--model", std::string(mode) == "ref" ? model : annotated, "--config",
         std::string(HILSIM_SOURCE_DIR) + "/configs/m4.yaml", "--input", input, "--output", out,
         "--mode", mode, "--report", report, "--per-invocation", "--quiet"},
        600);
    ASSERT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
    const std::vector<uint8_t> bytes = readFile(out);
    if (reference.empty()) {
      reference = bytes;
    } else {
      EXPECT_EQ(bytes, reference) << "outputs of " << mode << " differ from ref";
    }

    // The report: one entry per operator and invocation, each with its shapes, a positive
    // reference cost, and MACs where the operator multiplies.
    const JsonDoc rep = readJsonFile(report);
    const JsonDoc layers = rep.at("layers");
    ASSERT_EQ(layers.size(), 2 * f.ops.size());
    uint64_t accel_layers = 0;
    for (size_t i = 0; i < layers.size(); ++i) {
      const JsonDoc l = layers[i];
      const std::string op = l.at("op").get<std::string>();
      EXPECT_EQ(op, f.ops[i % f.ops.size()]);
      EXPECT_GT(l.at("ref_cycles").get<uint64_t>(), 0u) << op;
      EXPECT_GT(l.at("cycles").get<uint64_t>(), 0u) << op;
      EXPECT_TRUE(l.at("shape").is_object() && l.at("shape").size() > 0) << op;
      if (op == "FULLY_CONNECTED" || op == "CONV_2D" || op == "DEPTHWISE_CONV_2D" ||
          op == "UNIDIRECTIONAL_SEQUENCE_LSTM" || op == "SVDF") {
        EXPECT_GT(l.at("macs").get<uint64_t>(), 0u) << op;
      }
      accel_layers += l.at("path").get<std::string>() == "accel";
    }
    EXPECT_GT(rep.at("totals").at("ref_cycles").get<uint64_t>(), 0u);
    if (std::string(mode) == "ref") {
      EXPECT_EQ(accel_layers, 0u);
    }
  }
}

// The CPU-only run on the STM32L4R5 board (120 MHz, 3.3 V): its average power, the run current
// and the flash line reads of the model's weights, lies within the datasheet's run-mode range of
// its class, 100-137 uA/MHz: 39.6-54.3 mW (docs/ENERGY.md, "Host MCU").
TEST_P(RealModel, CpuOnlyAveragePowerIsWithinTheBoardsRunModeRange) {
  const std::string dir = makeTestDir();
  const std::string report = dir + "/ref.json";
  const RunOutcome r = runHilsim({"run", "--model", modelPath(GetParam()), "--mode", "ref", "--set",
                                  "cpu.preset=stm32l4r5", "--report", report, "--quiet"},
                                 600);
  ASSERT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
  const JsonDoc rep = readJsonFile(report);
  const JsonDoc& totals = rep.at("totals");
  const double power_mw = totals.at("average_power_mw").get<double>();
  EXPECT_GE(power_mw, 100 * 120 * 3.3 * 1e-3 * (1 - 1e-9));
  EXPECT_LE(power_mw, 137 * 120 * 3.3 * 1e-3);
  // The weights are read from flash, and the whole run is the reference path.
  const uint64_t reads = rep.at("simulation").at("flash").at("model_line_reads").get<uint64_t>();
  EXPECT_GT(reads, 0u);
  const double flash_uj = totals.at("energy").at("flash").get<double>();
  EXPECT_NEAR(flash_uj, double(reads) * 330e-6, 1e-9 * std::max(1.0, flash_uj));
  const double energy_uj = totals.at("energy_uj").get<double>();
  EXPECT_NEAR(totals.at("ref_energy_uj").get<double>(), energy_uj, 1e-9 * energy_uj);
}

// The LSTMs keep their hidden and cell state across invocations: four frames run in sequence
// give the first frame's output of a fresh run, and later outputs that differ from running each
// frame on its own. (The outputs are taken before a final SOFTMAX, which saturates on random
// inputs.)
class StatefulModel : public ::testing::TestWithParam<std::string> {};

// The model with its final SOFTMAX's input as the output: a saturating SOFTMAX can give the same
// bytes whatever the state, which would hide whether the state carried over.
std::string logitsVariant(const std::string& path, const std::string& dir) {
  const std::vector<uint8_t> bytes = readFile(path);
  std::unique_ptr<tflite::ModelT> m(tflite::GetModel(bytes.data())->UnPack());
  tflite::SubGraphT& sg = *m->subgraphs.at(0);
  const tflite::OperatorT& last = *sg.operators.back();
  const tflite::OperatorCodeT& code = *m->operator_codes.at(last.opcode_index);
  if (std::max<int32_t>(code.deprecated_builtin_code, static_cast<int32_t>(code.builtin_code)) !=
      static_cast<int32_t>(tflite::BuiltinOperator::SOFTMAX))
    return path;
  sg.outputs = {last.inputs.at(0)};
  flatbuffers::FlatBufferBuilder b;
  tflite::FinishModelBuffer(b, tflite::Model::Pack(b, m.get()));
  const std::string out = dir + "/logits.tflite";
  writeFile(out, std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()));
  return out;
}

TEST_P(StatefulModel, StateCarriesAcrossInvocations) {
  const std::string dir = makeTestDir();
  const std::string model = logitsVariant(GetParam(), dir);
  const ModelFacts f = inspectModel(model);
  ASSERT_TRUE(f.stateful) << "the model has no variable tensors";
  constexpr int kFrames = 4;
  const std::vector<uint8_t> frames = randomFrames(f, kFrames, 7);
  writeFile(dir + "/frames.bin", frames);
  for (const char* mode : {"ref", "accel"}) {
    SCOPED_TRACE(mode);
    const RunOutcome seq = runHilsim({"run", "--model", model, "--input", dir + "/frames.bin",
                                      "--output", dir + "/seq.out", "--mode", mode, "--quiet"});
    ASSERT_EQ(seq.exit_code, 0) << seq.err;
    const std::vector<uint8_t> sequence = readFile(dir + "/seq.out");
    ASSERT_EQ(sequence.size() % kFrames, 0u);
    const size_t out_bytes = sequence.size() / kFrames;
    int differ = 0;
    for (int i = 0; i < kFrames; ++i) {
      const auto begin = frames.begin() + static_cast<long>(i * f.input_bytes);
      writeFile(dir + "/one.bin",
                std::vector<uint8_t>(begin, begin + static_cast<long>(f.input_bytes)));
      const RunOutcome one = runHilsim({"run", "--model", model, "--input", dir + "/one.bin",
                                        "--output", dir + "/one.out", "--mode", mode, "--quiet"});
      ASSERT_EQ(one.exit_code, 0) << one.err;
      const std::vector<uint8_t> alone = readFile(dir + "/one.out");
      const std::vector<uint8_t> in_sequence(
          sequence.begin() + static_cast<long>(i * out_bytes),
          sequence.begin() + static_cast<long>((i + 1) * out_bytes));
      if (i == 0)
        EXPECT_EQ(in_sequence, alone) << "the first invocation starts from the initial state";
      else
        differ += in_sequence != alone;
    }
    EXPECT_EQ(differ, kFrames - 1) << "later frames must see the state earlier frames left";
  }
}

INSTANTIATE_TEST_SUITE_P(Lstm, StatefulModel,
                         ::testing::Values(modelPath("dtln_noise_suppression.tflite"),
                                           modelPath("trained_lstm_int8.tflite"),
                                           modelPath("micro_speech_lstm.tflite")),
                         [](const auto& info) {
                           std::string name = fs::path(info.param).stem().string();
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

INSTANTIATE_TEST_SUITE_P(Models, RealModel, ::testing::ValuesIn(realModelNames()),
                         [](const auto& info) {
                           std::string name = info.param.substr(0, info.param.size() - 7);
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

// The audio front end uses TFLite Micro's signal-library custom operators: inspect lists every
// operator hilsim cannot run, one line each, and run stops at the first with exit 2.
TEST(RealModels, UnsupportedOperatorsAreListedAndNamed) {
  const std::string model = modelPath(kAudioFrontEnd);
  const RunOutcome text = runHilsim({"inspect", model});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("unsupported: operator 0 (CUSTOM 'SignalWindow'): hilsim has no kernel"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("not runnable:"), std::string::npos) << text.out;
  const JsonDoc json = parseJson(runHilsim({"inspect", model, "--json"}).out);
  EXPECT_FALSE(json.at("runnable").get<bool>());
  size_t custom = 0;
  for (const JsonDoc& u : json.at("unsupported"))
    custom += u.get<std::string>().find("(CUSTOM '") != std::string::npos;
  EXPECT_GE(custom, 5u);
  const RunOutcome run = runHilsim({"run", "--model", model, "--mode", "ref"});
  EXPECT_EQ(run.exit_code, 2);
  // Every unsupported operator is named, in the one line.
  for (const char* part :
       {"14 unsupported operators of 11 kinds", "CUSTOM 'SignalWindow' (operator 0)",
        "CUSTOM 'SignalFilterBankLog' (operator 13)", "CAST (operators 5, 8, 14, 21)",
        "DIV (operator 17)"})
    EXPECT_NE(run.err.find(part), std::string::npos) << part << "\n" << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
}

}  // namespace
}  // namespace hilsim::test
