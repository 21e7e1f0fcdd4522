// Malformed models: every one is rejected with a hilsim error, never a crash or a hang. Runs under
// ASan and UBSan in CI.

#include <gtest/gtest.h>

#include <random>

#include "files.h"
#include "golden_cases.h"
#include "hilsim/errors.h"
#include "hilsim/rt/interpreter.h"
#include "hilsim/schema/tflite_generated.h"
#include "op_model.h"

namespace hilsim::test {
namespace {

std::vector<std::string> realModels() {
  const std::string dir = sharedDir() + "/models/";
  return {dir + "hello_world_int8.tflite", dir + "micro_speech_quantized.tflite",
          dir + "keyword_scrambled_8bit.tflite", dir + "person_detect.tflite",
          dir + "hello_world_float.tflite"};
}

// Loads, prepares and (when small enough) runs the bytes. Returns the error message, or "" if
// the bytes formed a runnable model. Anything but a hilsim::Error escaping is a failure.
std::string tryModel(std::vector<uint8_t> bytes) {
  try {
    rt::Model model = rt::Model::fromBytes(std::move(bytes), "mutant");
    const rt::OpResolver resolver = rt::referenceOpResolver();
    rt::Interpreter interp(model, resolver);
    interp.allocate();
    uint64_t macs = 0;
    for (const timing::OpWork& w : interp.work()) macs += w.macs;
    if (macs < 50'000'000) interp.invoke();
    return "";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_FALSE(msg.empty());
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "one line: " << msg;
    return msg;
  }
}

TEST(ModelLoader, TruncatedModelsAreRejected) {
  for (const std::string& path : realModels()) {
    const std::vector<uint8_t> bytes = readFile(path);
    // Every length near the start and end, and a spread in between.
    std::vector<size_t> lengths;
    for (size_t n = 0; n < 64; ++n) lengths.push_back(n);
    for (size_t n = 1; n <= 64; ++n) lengths.push_back(bytes.size() - n);
    for (size_t i = 1; i < 200; ++i) lengths.push_back(bytes.size() * i / 200);
    for (size_t n : lengths) {
      const std::string msg = tryModel(std::vector<uint8_t>(bytes.begin(), bytes.begin() + n));
      EXPECT_FALSE(msg.empty()) << path << " truncated to " << n << " bytes was accepted";
    }
  }
}

TEST(ModelLoader, RandomBitFlipsNeverCrash) {
  std::mt19937_64 rng(2024);
  size_t rejected = 0, total = 0;
  for (const std::string& path : realModels()) {
    const std::vector<uint8_t> bytes = readFile(path);
    // Flips land in the flatbuffer's tables, not only in the (large) weight buffers.
    const size_t limit = std::min<size_t>(bytes.size(), 4096);
    for (int trial = 0; trial < 400; ++trial) {
      std::vector<uint8_t> mutant = bytes;
      const int flips = 1 + static_cast<int>(rng() % 4);
      for (int f = 0; f < flips; ++f) {
        const size_t at = (trial % 2) ? rng() % mutant.size() : mutant.size() - 1 - rng() % limit;
        mutant[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
      }
      rejected += !tryModel(std::move(mutant)).empty();
      ++total;
    }
  }
  // Most single flips in the tables break something; what matters is that none crashed.
  EXPECT_GT(rejected, 0u);
  RecordProperty("rejected", static_cast<int>(rejected));
  RecordProperty("total", static_cast<int>(total));
}

// Mutates a real model through the object API and returns its bytes.
template <typename Fn>
std::vector<uint8_t> mutate(const std::string& path, Fn fn) {
  const std::vector<uint8_t> bytes = readFile(path);
  std::unique_ptr<tflite::ModelT> m(tflite::GetModel(bytes.data())->UnPack());
  fn(*m);
  flatbuffers::FlatBufferBuilder b;
  tflite::FinishModelBuffer(b, tflite::Model::Pack(b, m.get()));
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

std::string hello() {
  return sharedDir() + "/models/hello_world_int8.tflite";
}

void expectRejected(const std::vector<uint8_t>& bytes, const std::string& fragment) {
  const std::string msg = tryModel(bytes);
  EXPECT_NE(msg.find(fragment), std::string::npos) << "message: '" << msg << "'";
}

// One operator of a model without a kernel, or several: the one line names every one of them
// before any operator is prepared.
std::vector<uint8_t> modelWithOperators(const std::vector<std::string>& customs_and_builtins) {
  OpModel m;
  int32_t previous = m.addTensor(tensor(tflite::TensorType::FLOAT32, {4}));
  m.setInputs({previous});
  for (const std::string& op : customs_and_builtins) {
    const int32_t next = m.addTensor(tensor(tflite::TensorType::FLOAT32, {4}));
    if (op == "ARG_MAX")
      m.addOp(tflite::BuiltinOperator::ARG_MAX, {previous}, {next});
    else if (op == "TANH")
      m.addOp(tflite::BuiltinOperator::TANH, {previous}, {next});
    else
      m.addOp(tflite::BuiltinOperator::CUSTOM, {previous}, {next}, {}, op);
    previous = next;
  }
  m.setOutputs({previous});
  return m.finish();
}

TEST(ModelLoader, NamesEveryUnsupportedOperator) {
  EXPECT_EQ(tryModel(modelWithOperators({"TANH", "SignalWindow"})),
            "model 'mutant': operator 1 (CUSTOM 'SignalWindow'): unsupported operator CUSTOM "
            "'SignalWindow' (hilsim has no kernel for it)");
  EXPECT_EQ(tryModel(modelWithOperators(
                {"SignalWindow", "ARG_MAX", "TANH", "SignalWindow", "SignalFftAutoScale"})),
            "model 'mutant': 4 unsupported operators of 3 kinds (hilsim has no kernel for them): "
            "CUSTOM 'SignalWindow' (operators 0, 3), ARG_MAX (operator 1), "
            "CUSTOM 'SignalFftAutoScale' (operator 4)");
}

TEST(ModelLoader, NamesTheProblem) {
  expectRejected(mutate(hello(), [](tflite::ModelT& m) { m.version = 2; }),
                 "unsupported schema version 2");
  expectRejected(
      mutate(hello(), [](tflite::ModelT& m) { m.subgraphs[0]->tensors[1]->buffer = 999; }),
      "buffer index 999 out of range");
  expectRejected(
      mutate(hello(), [](tflite::ModelT& m) { m.subgraphs[0]->operators[0]->inputs[0] = 77; }),
      "operator 0 (FULLY_CONNECTED) input: tensor index 77 out of range");
  expectRejected(
      mutate(hello(), [](tflite::ModelT& m) { m.subgraphs[0]->operators[1]->opcode_index = 5; }),
      "operator 1: operator code index 5 out of range");
  expectRejected(mutate(hello(), [](tflite::ModelT& m) { m.subgraphs[0]->outputs[0] = -3; }),
                 "subgraph output: tensor index -3 out of range");
  // A weight buffer shorter than its tensor.
  expectRejected(
      mutate(hello(),
             [](tflite::ModelT& m) {
               const auto& t = m.subgraphs[0]->operators[1]->inputs[1];
               m.buffers[m.subgraphs[0]->tensors[static_cast<size_t>(t)]->buffer]->data.resize(10);
             }),
      "holds 10 bytes but a INT8 [16,16] tensor needs 256");
  // Shapes that do not agree.
  expectRejected(mutate(hello(),
                        [](tflite::ModelT& m) {
                          m.subgraphs[0]->tensors[8]->shape = {1, 15};
                        }),
                 "does not match");
  // An unsupported type and an unsupported operator, naming the operator.
  expectRejected(mutate(hello(),
                        [](tflite::ModelT& m) {
                          m.subgraphs[0]->tensors[0]->type = tflite::TensorType::INT16;
                        }),
                 "operator 0 (FULLY_CONNECTED): unsupported types");
  expectRejected(readFile(sharedDir() + "/models/audio_preprocessor_int8.tflite"),
                 "unsupported operators of");
  expectRejected(readFile(sharedDir() + "/models/audio_preprocessor_int8.tflite"),
                 "CUSTOM 'SignalWindow' (operator 0)");
  // Not a model at all.
  std::vector<uint8_t> text(100, 'x');
  expectRejected(text, "not a TFLite model (file identifier 'xxxx', expected 'TFL3')");
}

}  // namespace
}  // namespace hilsim::test
