// Malformed operators through build/hilsim: for each reference kernel of the element-wise,
// activation, LSTM, data-movement, reduction and pooling groups, one-operator models that the
// loader accepts but the kernel's prepare must reject (wrong tensor counts, mismatched shapes,
// zero points and scales the loader lets through, options out of range, wrong types, tensors that
// must be constant and are not). `run --mode ref` exits 2 with one line on stderr naming
// "operator N (OP)" and the reason, and writes no output; `inspect` reports the same line as its
// "not runnable" status and exits 0, as it does for every model it can parse. Neither crashes or
// hangs. The unmodified model of each group runs, so each variant fails for its own reason.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "files.h"
#include "op_model.h"
#include "runner.h"

namespace hilsim::test {
namespace {

using tflite::ActivationFunctionType;
using tflite::BuiltinOperator;
using tflite::Padding;
using tflite::TensorType;

// One operator and its tensors; a nullopt input is omitted (-1).
struct OpSpec {
  BuiltinOperator op = BuiltinOperator::ADD;
  std::vector<std::optional<TensorSpec>> inputs;
  std::vector<TensorSpec> outputs;
  tflite::BuiltinOptionsUnion options;
};

template <typename T>
tflite::BuiltinOptionsUnion options(T value) {
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(value));
  return u;
}

template <typename T>
TensorSpec constant(TensorType type, std::vector<int32_t> shape, const std::vector<T>& values) {
  return withData(tensor(type, std::move(shape)), bytesOf(values));
}

TensorSpec q8(std::vector<int32_t> shape, float scale, int64_t zero_point) {
  return qtensor(TensorType::INT8, std::move(shape), scale, zero_point);
}

TensorSpec perChannel(TensorSpec spec, std::vector<float> scales, int32_t dimension) {
  spec.zero_points.assign(scales.size(), 0);
  spec.scales = std::move(scales);
  spec.quantized_dimension = dimension;
  return spec;
}

// The model of `spec`; every present input that is neither constant nor variable is a model
// input. With `after_tanh`, a float32 TANH of its own comes first, so `spec` is operator 1.
std::vector<uint8_t> build(const OpSpec& spec, bool after_tanh) {
  OpModel m;
  std::vector<int32_t> model_inputs, model_outputs;
  if (after_tanh) {
    const int32_t in = m.addTensor(tensor(TensorType::FLOAT32, {4}));
    const int32_t out = m.addTensor(tensor(TensorType::FLOAT32, {4}));
    m.addOp(BuiltinOperator::TANH, {in}, {out});
    model_inputs.push_back(in);
    model_outputs.push_back(out);
  }
  std::vector<int32_t> inputs, outputs;
  for (const std::optional<TensorSpec>& t : spec.inputs) {
    inputs.push_back(t ? m.addTensor(*t) : -1);
    if (t && t->data.empty() && !t->is_variable) model_inputs.push_back(inputs.back());
  }
  for (const TensorSpec& t : spec.outputs) outputs.push_back(m.addTensor(t));
  model_outputs.insert(model_outputs.begin(), outputs.begin(), outputs.end());
  m.addOp(spec.op, inputs, outputs, spec.options);
  m.setInputs(model_inputs);
  m.setOutputs(model_outputs);
  return m.finish();
}

// A valid operator and malformed variants of it, each checked through `run` and `inspect`.
class Variants {
 public:
  Variants(std::string op_name, OpSpec valid, bool after_tanh = false)
      : op_name_(std::move(op_name)), valid_(std::move(valid)), after_tanh_(after_tanh) {}

  // A variant: `mutate` changes a copy of the valid operator; the error must contain `reason`.
  Variants& add(std::string name, std::string reason, const std::function<void(OpSpec&)>& mutate) {
    OpSpec spec = valid_;
    mutate(spec);
    cases_.push_back({std::move(name), build(spec, after_tanh_), std::move(reason)});
    return *this;
  }

  void check() const {
    const std::string dir = makeTestDir();
    const std::string valid_path = dir + "/valid.tflite";
    writeFile(valid_path, build(valid_, after_tanh_));
    const RunOutcome ok = runHilsim(
        {"run", "--model", valid_path, "--mode", "ref", "--quiet", "--output", dir + "/valid.bin"},
        kTimeoutSeconds);
    ASSERT_EQ(ok.exit_code, 0) << "the valid " << op_name_ << " model must run: " << ok.err;
    const std::string where =
        "operator " + std::string(after_tanh_ ? "1" : "0") + " (" + op_name_ + "): ";
    for (const Case& c : cases_) {
      SCOPED_TRACE(op_name_ + " variant '" + c.name + "'");
      const std::string path = dir + "/" + c.name + ".tflite";
      const std::string out = dir + "/" + c.name + ".bin";
      writeFile(path, c.model);
      const RunOutcome r = runHilsim(
          {"run", "--model", path, "--mode", "ref", "--quiet", "--output", out}, kTimeoutSeconds);
      expectCleanExit(r);
      EXPECT_EQ(r.exit_code, 2) << r.command << "\n" << r.err;
      ASSERT_FALSE(r.err.empty()) << r.command;
      EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line expected: " << r.err;
      EXPECT_EQ(r.err.rfind("hilsim: ", 0), 0u) << r.err;
      expectNamesOperatorAndReason(r.err, where, c.reason);
      EXPECT_FALSE(std::filesystem::exists(out)) << "output left by " << r.command;

      const RunOutcome inspect = runHilsim({"inspect", path}, kTimeoutSeconds);
      expectCleanExit(inspect);
      EXPECT_EQ(inspect.exit_code, 0) << inspect.command << "\n" << inspect.err;
      EXPECT_EQ(inspect.err, "") << inspect.command;
      const size_t status = inspect.out.find("not runnable: ");
      ASSERT_NE(status, std::string::npos) << inspect.out;
      const std::string line = inspect.out.substr(status, inspect.out.find('\n', status) - status);
      expectNamesOperatorAndReason(line, where, c.reason);
    }
  }

 private:
  static constexpr double kTimeoutSeconds = 60;

  struct Case {
    std::string name;
    std::vector<uint8_t> model;
    std::string reason;
  };

  // `line` names the operator and then, further on, the reason.
  static void expectNamesOperatorAndReason(const std::string& line, const std::string& where,
                                           const std::string& reason) {
    const size_t at = line.find(where);
    ASSERT_NE(at, std::string::npos) << "expected '" << where << "' in: " << line;
    EXPECT_NE(line.find(reason, at + where.size()), std::string::npos)
        << "expected '" << reason << "' after '" << where << "' in: " << line;
  }

  static void expectCleanExit(const RunOutcome& r) {
    EXPECT_FALSE(r.timed_out) << r.command << " hung";
    EXPECT_EQ(r.signal, 0) << r.command << " crashed: " << r.err;
  }

  std::string op_name_;
  OpSpec valid_;
  bool after_tanh_;
  std::vector<Case> cases_;
};

// ---------------------------------------------------------------------------------------------
// Element-wise binary operators.

tflite::AddOptionsT addOptions(ActivationFunctionType activation) {
  tflite::AddOptionsT o;
  o.fused_activation_function = activation;
  return o;
}

// int8 [1,2,3] op int8 [3] -> [1,2,3].
OpSpec binarySpec(BuiltinOperator op, tflite::BuiltinOptionsUnion opts) {
  OpSpec s;
  s.op = op;
  s.inputs = {q8({1, 2, 3}, 0.5f, 1), q8({3}, 0.25f, -2)};
  s.outputs = {q8({1, 2, 3}, 1.0f, 3)};
  s.options = std::move(opts);
  return s;
}

// The variants ADD and SUB share (their options tables have the same layout).
void addSharedBinaryVariants(Variants& v, const std::string& options_name) {
  v.add("three-inputs", "expects 2 inputs, has 3",
        [](OpSpec& s) { s.inputs.push_back(s.inputs[0]); })
      .add("two-outputs", "expects 1 output, has 2",
           [](OpSpec& s) { s.outputs.push_back(s.outputs[0]); })
      .add("no-broadcast", "do not broadcast", [](OpSpec& s) { s.inputs[1] = q8({2}, 0.25f, -2); })
      .add("output-shape", "is not the broadcast shape",
           [](OpSpec& s) {
             s.outputs[0].shape = {1, 3, 2};
           })
      .add("nine-dims", "at most 8 dimensions",
           [](OpSpec& s) {
             s.inputs[0] = q8({1, 1, 1, 1, 1, 1, 1, 2, 3}, 0.5f, 1);
           })
      .add("no-options", "missing " + options_name,
           [](OpSpec& s) { s.options = tflite::BuiltinOptionsUnion(); })
      .add("activation-42", "fused activation 42 is not a valid activation",
           [](OpSpec& s) {
             s.options = options(addOptions(static_cast<ActivationFunctionType>(42)));
           })
      .add("int8-and-int16", "must have one type",
           [](OpSpec& s) { s.inputs[1]->type = TensorType::INT16; })
      .add("unquantized", "input1 INT8 [1,2,3] has no quantization parameters",
           [](OpSpec& s) {
             s.inputs[0] = tensor(TensorType::INT8, {1, 2, 3});
           })
      .add("per-channel", "must be quantized per tensor",
           [](OpSpec& s) {
             s.inputs[1] = perChannel(*s.inputs[1], {0.25f, 0.5f, 1.0f}, 0);
           })
      .add("output-scale-too-small", "output rescaling factor",
           [](OpSpec& s) { s.outputs[0].scales = {1e-9f}; })
      .add("quantized-int32", "must not be quantized",
           [](OpSpec& s) {
             for (auto& t : s.inputs) t->type = TensorType::INT32;
             s.outputs[0].type = TensorType::INT32;
           })
      .add("uint8", "unsupported type", [](OpSpec& s) {
        for (auto& t : s.inputs) *t = qtensor(TensorType::UINT8, t->shape, 0.5f, 128);
        s.outputs[0] = qtensor(TensorType::UINT8, {1, 2, 3}, 1.0f, 128);
      });
}

TEST(MalformedOps, Add) {
  Variants v("ADD",
             binarySpec(BuiltinOperator::ADD, options(addOptions(ActivationFunctionType::RELU))));
  addSharedBinaryVariants(v, "AddOptions");
  v.check();
}

TEST(MalformedOps, Sub) {
  tflite::SubOptionsT o;
  o.fused_activation_function = ActivationFunctionType::RELU6;
  Variants v("SUB", binarySpec(BuiltinOperator::SUB, options(o)));
  v.add("wrong-options-table", "missing SubOptions",
        [](OpSpec& s) { s.options = options(addOptions(ActivationFunctionType::NONE)); })
      .add("one-input", "expects 2 inputs, has 1", [](OpSpec& s) { s.inputs.pop_back(); })
      .add("no-broadcast", "do not broadcast",
           [](OpSpec& s) {
             s.inputs[1] = q8({2, 1, 1, 2}, 0.25f, -2);
           })
      .add("input2-omitted", "input2 (input 1) is missing", [](OpSpec& s) { s.inputs[1].reset(); })
      .add("activation-minus-one", "fused activation -1 is not a valid activation",
           [](OpSpec& s) {
             s.options.AsSubOptions()->fused_activation_function =
                 static_cast<ActivationFunctionType>(-1);
           })
      .add("int32-quantized-output", "output INT32 [1,2,3] must not be quantized",
           [](OpSpec& s) {
             for (auto& t : s.inputs) t = tensor(TensorType::INT32, t->shape);
             s.outputs[0].type = TensorType::INT32;
           })
      .add("float-and-int8", "must have one type", [](OpSpec& s) {
        s.outputs[0] = tensor(TensorType::FLOAT32, {1, 2, 3});
      });
  v.check();
}

TEST(MalformedOps, Mul) {
  tflite::MulOptionsT o;
  Variants v("MUL", binarySpec(BuiltinOperator::MUL, options(o)));
  v.add("three-inputs", "expects 2 inputs, has 3",
        [](OpSpec& s) { s.inputs.push_back(s.inputs[1]); })
      .add("no-options", "missing MulOptions",
           [](OpSpec& s) { s.options = tflite::BuiltinOptionsUnion(); })
      .add("output-shape", "is not the broadcast shape",
           [](OpSpec& s) {
             s.outputs[0].shape = {1, 3, 2};
           })
      .add("activation-100", "fused activation 100 is not a valid activation",
           [](OpSpec& s) {
             s.options.AsMulOptions()->fused_activation_function =
                 static_cast<ActivationFunctionType>(100);
           })
      .add("multiplier-too-large", "requantization multiplier",
           [](OpSpec& s) {
             s.inputs[0]->scales = {1e6f};
             s.inputs[1]->scales = {1e6f};
             s.outputs[0].scales = {1e-6f};
           })
      .add("int16-zero-point", "int16 MUL needs zero points 0",
           [](OpSpec& s) {
             for (auto& t : s.inputs) t->type = TensorType::INT16;
             s.outputs[0].type = TensorType::INT16;
           })
      .add("bool", "unsupported type", [](OpSpec& s) {
        for (auto& t : s.inputs) t = tensor(TensorType::BOOL, t->shape);
        s.outputs[0] = tensor(TensorType::BOOL, {1, 2, 3});
      });
  v.check();
}

OpSpec extremumSpec(BuiltinOperator op) {
  OpSpec s;
  s.op = op;
  s.inputs = {q8({2, 3}, 0.5f, 4), q8({1, 3}, 0.5f, 4)};
  s.outputs = {q8({2, 3}, 0.5f, 4)};
  return s;
}

void checkExtremum(BuiltinOperator op, const std::string& name) {
  Variants v(name, extremumSpec(op));
  v.add("one-input", "expects 2 inputs, has 1", [](OpSpec& s) { s.inputs.pop_back(); })
      .add("no-broadcast", "do not broadcast",
           [](OpSpec& s) {
             s.inputs[1] = q8({2, 2}, 0.5f, 4);
           })
      .add("output-shape", "is not the broadcast shape",
           [](OpSpec& s) {
             s.outputs[0].shape = {3, 2};
           })
      .add("int8-and-int16", "must have one type",
           [](OpSpec& s) { s.outputs[0].type = TensorType::INT16; })
      .add("uint8", "unsupported type",
           [](OpSpec& s) {
             for (auto& t : s.inputs) t->type = TensorType::UINT8;
             s.outputs[0].type = TensorType::UINT8;
           })
      .add("int32-zero-point-2-to-40", "zero point 1099511627776 outside",
           [](OpSpec& s) {
             for (auto& t : s.inputs) t->type = TensorType::INT32;
             s.outputs[0].type = TensorType::INT32;
             s.inputs[1]->zero_points = {int64_t{1} << 40};
           })
      .add("per-channel", "must be quantized per tensor", [](OpSpec& s) {
        s.outputs[0] = perChannel(s.outputs[0], {0.5f, 0.5f}, 0);
      });
  v.check();
}

TEST(MalformedOps, Maximum) {
  checkExtremum(BuiltinOperator::MAXIMUM, "MAXIMUM");
}

TEST(MalformedOps, Minimum) {
  checkExtremum(BuiltinOperator::MINIMUM, "MINIMUM");
}

// ---------------------------------------------------------------------------------------------
// Element-wise unary operators and activations.

OpSpec unarySpec(BuiltinOperator op, TensorSpec in, TensorSpec out) {
  OpSpec s;
  s.op = op;
  s.inputs = {std::move(in)};
  s.outputs = {std::move(out)};
  return s;
}

TEST(MalformedOps, HardSwish) {
  Variants v("HARD_SWISH", unarySpec(BuiltinOperator::HARD_SWISH, q8({1, 4, 4, 2}, 0.05f, 3),
                                     q8({1, 4, 4, 2}, 0.03f, -10)));
  v.add("two-inputs", "expects 1 inputs, has 2", [](OpSpec& s) { s.inputs.push_back(s.inputs[0]); })
      .add("output-shape", "does not have the shape of input",
           [](OpSpec& s) {
             s.outputs[0].shape = {1, 4, 2, 4};
           })
      .add("int8-to-float", "must have one type",
           [](OpSpec& s) {
             s.outputs[0] = tensor(TensorType::FLOAT32, {1, 4, 4, 2});
           })
      .add("int16", "unsupported type",
           [](OpSpec& s) {
             s.inputs[0]->type = TensorType::INT16;
             s.outputs[0].type = TensorType::INT16;
           })
      .add("unquantized-output", "output INT8 [1,4,4,2] has no quantization parameters",
           [](OpSpec& s) {
             s.outputs[0] = tensor(TensorType::INT8, {1, 4, 4, 2});
           })
      .add("output-scale-too-small", "must be below 1",
           [](OpSpec& s) { s.outputs[0].scales = {1e-4f}; });
  v.check();
}

TEST(MalformedOps, Quantize) {
  Variants v("QUANTIZE", unarySpec(BuiltinOperator::QUANTIZE, tensor(TensorType::FLOAT32, {2, 3}),
                                   q8({2, 3}, 0.1f, 0)));
  v.add("two-inputs", "expects 1 inputs, has 2", [](OpSpec& s) { s.inputs.push_back(s.inputs[0]); })
      .add("element-count", "different element counts",
           [](OpSpec& s) {
             s.outputs[0].shape = {2, 4};
           })
      .add("float-to-uint8", "unsupported conversion from FLOAT32 [2,3] to UINT8 [2,3]",
           [](OpSpec& s) { s.outputs[0].type = TensorType::UINT8; })
      .add("int8-to-float", "unsupported conversion from INT8 [2,3] to FLOAT32 [2,3]",
           [](OpSpec& s) {
             s.inputs[0] = q8({2, 3}, 0.1f, 0);
             s.outputs[0] = tensor(TensorType::FLOAT32, {2, 3});
           })
      .add("unquantized-output", "output INT8 [2,3] has no quantization parameters",
           [](OpSpec& s) {
             s.outputs[0] = tensor(TensorType::INT8, {2, 3});
           })
      .add("unquantized-input", "input INT8 [2,3] has no quantization parameters",
           [](OpSpec& s) {
             s.inputs[0] = tensor(TensorType::INT8, {2, 3});
           })
      .add("int32-zero-point-2-to-40", "zero point 1099511627776 outside",
           [](OpSpec& s) {
             s.inputs[0] = q8({2, 3}, 0.1f, 0);
             s.outputs[0] = qtensor(TensorType::INT32, {2, 3}, 0.1f, int64_t{1} << 40);
           })
      .add("multiplier-too-large", "requantization multiplier",
           [](OpSpec& s) {
             s.inputs[0] = q8({2, 3}, 1e6f, 0);
             s.outputs[0].scales = {1e-6f};
           })
      .add("per-channel-output", "must be quantized per tensor", [](OpSpec& s) {
        s.outputs[0] = perChannel(s.outputs[0], {0.1f, 0.2f}, 0);
      });
  v.check();
}

void addSharedActivationVariants(Variants& v) {
  v.add("two-inputs", "expects 1 inputs, has 2", [](OpSpec& s) { s.inputs.push_back(s.inputs[0]); })
      .add("two-outputs", "expects 1 output, has 2",
           [](OpSpec& s) { s.outputs.push_back(s.outputs[0]); })
      .add("output-shape", "does not have the shape of input",
           [](OpSpec& s) {
             s.outputs[0].shape = {3, 2};
           })
      .add("int8-to-int16", "does not have the type of input",
           [](OpSpec& s) { s.outputs[0].type = TensorType::INT16; })
      .add("int32", "unsupported input",
           [](OpSpec& s) {
             s.inputs[0]->type = TensorType::INT32;
             s.outputs[0].type = TensorType::INT32;
           })
      .add("unquantized-input", "has no quantization parameters",
           [](OpSpec& s) {
             s.inputs[0] = tensor(TensorType::INT8, {2, 3});
           })
      .add("int16-output-scale", "int16 output scale must be 2^-15",
           [](OpSpec& s) {
             s.inputs[0] = qtensor(TensorType::INT16, {2, 3}, 1.0f / 4096, 0);
             s.outputs[0] = qtensor(TensorType::INT16, {2, 3}, 1.0f / 256, 0);
           })
      .add("int16-zero-point", "int16 input and output must have zero point 0",
           [](OpSpec& s) {
             s.inputs[0] = qtensor(TensorType::INT16, {2, 3}, 1.0f / 4096, 7);
             s.outputs[0] = qtensor(TensorType::INT16, {2, 3}, 1.0f / 32768, 0);
           })
      .add("int16-input-scale-too-large", "too large for the int16 table input",
           [](OpSpec& s) {
             s.inputs[0] = qtensor(TensorType::INT16, {2, 3}, 100.0f, 0);
             s.outputs[0] = qtensor(TensorType::INT16, {2, 3}, 1.0f / 32768, 0);
           })
      .add("int8-input-scale-tiny", "too small for the Q4.27 rescaling",
           [](OpSpec& s) { s.inputs[0]->scales = {1e-12f}; });
}

TEST(MalformedOps, Logistic) {
  Variants v("LOGISTIC", unarySpec(BuiltinOperator::LOGISTIC, q8({2, 3}, 0.1f, 0),
                                   q8({2, 3}, 1.0f / 256, -128)));
  addSharedActivationVariants(v);
  v.add("output-zero-point", "int8 output must have zero point -128, has 0",
        [](OpSpec& s) { s.outputs[0].zero_points = {0}; });
  v.check();
}

TEST(MalformedOps, Tanh) {
  Variants v("TANH",
             unarySpec(BuiltinOperator::TANH, q8({2, 3}, 0.1f, 0), q8({2, 3}, 1.0f / 128, 0)));
  addSharedActivationVariants(v);
  v.add("output-zero-point", "int8 output must have zero point 0, has -128",
        [](OpSpec& s) { s.outputs[0].zero_points = {-128}; });
  v.check();
}

// ---------------------------------------------------------------------------------------------
// UNIDIRECTIONAL_SEQUENCE_LSTM: one cell, one feature, int8 activations and weights.

OpSpec lstmSpec() {
  OpSpec s;
  s.op = BuiltinOperator::UNIDIRECTIONAL_SEQUENCE_LSTM;
  s.inputs.resize(24);
  const float scale_x = 1.0f / 64;
  const float scale_h = 1.0f / 128;
  s.inputs[0] = q8({1, 2, 1}, scale_x, 0);
  const int8_t wx[4] = {64, -64, 32, 0};
  const int8_t wh[4] = {0, 0, 0, 32};
  const int32_t bias[4] = {0, 0, 0, 4096};
  for (size_t g = 0; g < 4; ++g) {
    s.inputs[1 + g] = withData(q8({1, 1}, scale_x, 0), bytesOf(std::vector<int8_t>{wx[g]}));
    s.inputs[5 + g] = withData(q8({1, 1}, 1.0f / 32, 0), bytesOf(std::vector<int8_t>{wh[g]}));
    s.inputs[12 + g] = withData(qtensor(TensorType::INT32, {1}, scale_x * scale_x, 0),
                                bytesOf(std::vector<int32_t>{bias[g]}));
  }
  s.inputs[18] = asVariable(q8({1, 1}, scale_h, 5));
  s.inputs[19] = asVariable(qtensor(TensorType::INT16, {1, 1}, 1.0f / 2048, 0));
  s.outputs = {q8({1, 2, 1}, scale_h, 5)};
  tflite::UnidirectionalSequenceLSTMOptionsT o;
  o.fused_activation_function = ActivationFunctionType::TANH;
  s.options = options(o);
  return s;
}

TEST(MalformedOps, UnidirectionalSequenceLstm) {
  Variants v("UNIDIRECTIONAL_SEQUENCE_LSTM", lstmSpec());
  v.add("twenty-inputs", "expects 24 inputs, has 20", [](OpSpec& s) { s.inputs.resize(20); })
      .add("no-options", "missing UnidirectionalSequenceLSTMOptions",
           [](OpSpec& s) { s.options = tflite::BuiltinOptionsUnion(); })
      .add("cifg", "CIFG", [](OpSpec& s) { s.inputs[1].reset(); })
      .add("peephole", "peephole connections",
           [](OpSpec& s) {
             s.inputs[10] = withData(qtensor(TensorType::INT16, {1}, 1e-3f, 0),
                                     bytesOf(std::vector<int16_t>{1}));
           })
      .add("weights-not-constant", "input_to_cell_weights must be a constant tensor",
           [](OpSpec& s) { s.inputs[3]->data.clear(); })
      .add("weight-shape", "recurrent_to_cell_weights (input 7)",
           [](OpSpec& s) {
             s.inputs[7] = withData(q8({2, 1}, 1.0f / 32, 0), bytesOf(std::vector<int8_t>{1, 2}));
           })
      .add("state-not-variable", "cell_state (input 19) must be a variable tensor",
           [](OpSpec& s) {
             s.inputs[19] = withData(qtensor(TensorType::INT16, {1, 1}, 1.0f / 2048, 0),
                                     bytesOf(std::vector<int16_t>{0}));
           })
      .add("weight-zero-point", "input_to_forget_weights zero point must be 0",
           [](OpSpec& s) { s.inputs[2]->zero_points = {3}; })
      .add("bias-types-differ", "the four gate biases must have one type",
           [](OpSpec& s) {
             s.inputs[13] = withData(qtensor(TensorType::INT16, {1}, 1e-4f, 0),
                                     bytesOf(std::vector<int16_t>{0}));
           })
      .add("cell-clip-negative", "cell_clip must be >= 0",
           [](OpSpec& s) { s.options.AsUnidirectionalSequenceLSTMOptions()->cell_clip = -1.0f; })
      .add("cell-clip-nan", "cell_clip must be >= 0",
           [](OpSpec& s) {
             s.options.AsUnidirectionalSequenceLSTMOptions()->cell_clip = std::nanf("");
           })
      .add("activation-relu", "must be TANH, is RELU",
           [](OpSpec& s) {
             s.options.AsUnidirectionalSequenceLSTMOptions()->fused_activation_function =
                 ActivationFunctionType::RELU;
           })
      .add("cell-scale-too-large", "too large for the int16 tanh",
           [](OpSpec& s) { s.inputs[19]->scales = {8.0f}; })
      .add("int32-activations", "unsupported input", [](OpSpec& s) {
        s.inputs[0] = tensor(TensorType::INT32, {1, 2, 1});
        s.inputs[18] = asVariable(tensor(TensorType::INT32, {1, 1}));
        s.outputs[0] = tensor(TensorType::INT32, {1, 2, 1});
      });
  v.check();
}

// ---------------------------------------------------------------------------------------------
// Data movement.

TEST(MalformedOps, Concatenation) {
  OpSpec valid;
  valid.op = BuiltinOperator::CONCATENATION;
  valid.inputs = {tensor(TensorType::FLOAT32, {1, 2, 3}), tensor(TensorType::FLOAT32, {1, 4, 3})};
  valid.outputs = {tensor(TensorType::FLOAT32, {1, 6, 3})};
  tflite::ConcatenationOptionsT o;
  o.axis = 1;
  valid.options = options(o);
  // After another operator: the error names the operator's index in the subgraph.
  Variants v("CONCATENATION", valid, /*after_tanh=*/true);
  v.add("no-inputs", "expects 1 to 10 inputs, has 0", [](OpSpec& s) { s.inputs.clear(); })
      .add("eleven-inputs", "expects 1 to 10 inputs, has 11",
           [](OpSpec& s) {
             s.inputs.assign(11, tensor(TensorType::FLOAT32, {1, 1, 3}));
             s.outputs[0].shape = {1, 11, 3};
           })
      .add("no-options", "missing ConcatenationOptions",
           [](OpSpec& s) { s.options = tflite::BuiltinOptionsUnion(); })
      .add("relu", "fused activation RELU is not supported",
           [](OpSpec& s) {
             s.options.AsConcatenationOptions()->fused_activation_function =
                 ActivationFunctionType::RELU;
           })
      .add("axis-3", "axis 3 is out of range",
           [](OpSpec& s) { s.options.AsConcatenationOptions()->axis = 3; })
      .add("axis-int-min", "axis -2147483648 is out of range",
           [](OpSpec& s) { s.options.AsConcatenationOptions()->axis = INT32_MIN; })
      .add("other-dimension", "differs from output",
           [](OpSpec& s) {
             s.inputs[1]->shape = {1, 4, 2};
           })
      .add("axis-total", "adds up to 6",
           [](OpSpec& s) {
             s.outputs[0].shape = {1, 7, 3};
           })
      .add("rank", "does not have the rank of output",
           [](OpSpec& s) {
             s.inputs[1]->shape = {4, 3};
           })
      .add("types-differ", "have different types",
           [](OpSpec& s) { s.inputs[1]->type = TensorType::INT32; })
      .add("seven-dims", "must have 1 to 6 dimensions",
           [](OpSpec& s) {
             s.inputs = {tensor(TensorType::FLOAT32, {1, 1, 1, 1, 1, 2, 3})};
             s.outputs[0].shape = {1, 1, 1, 1, 1, 2, 3};
           })
      .add("uint8", "unsupported type", [](OpSpec& s) {
        for (auto& t : s.inputs) t->type = TensorType::UINT8;
        s.outputs[0].type = TensorType::UINT8;
      });
  v.check();
}

// int8 [1,2,2,1] padded by one row and column on each side of H and W; PADV2 with a constant
// int8 pad value.
OpSpec padSpec(BuiltinOperator op) {
  OpSpec s;
  s.op = op;
  s.inputs = {q8({1, 2, 2, 1}, 0.5f, -3),
              constant(TensorType::INT32, {4, 2}, std::vector<int32_t>{0, 0, 1, 1, 1, 1, 0, 0})};
  if (op == BuiltinOperator::PADV2)
    s.inputs.push_back(withData(q8({}, 0.5f, -3), bytesOf(std::vector<int8_t>{7})));
  s.outputs = {q8({1, 4, 4, 1}, 0.5f, -3)};
  return s;
}

void addSharedPadVariants(Variants& v) {
  v.add("one-input", "expects 2 to 3 inputs, has 1", [](OpSpec& s) { s.inputs.resize(1); })
      .add("paddings-not-constant", "paddings must be a constant tensor",
           [](OpSpec& s) { s.inputs[1]->data.clear(); })
      .add("paddings-int64", "paddings must be int32",
           [](OpSpec& s) {
             s.inputs[1] =
                 constant(TensorType::INT64, {4, 2}, std::vector<int64_t>{0, 0, 1, 1, 1, 1, 0, 0});
           })
      .add("paddings-count", "must hold a (before, after) pair for each of the 4 dimensions",
           [](OpSpec& s) {
             s.inputs[1] =
                 constant(TensorType::INT32, {3, 2}, std::vector<int32_t>{0, 1, 1, 1, 1, 0});
           })
      .add("negative-padding", "paddings of dimension 1 are negative",
           [](OpSpec& s) {
             s.inputs[1] =
                 constant(TensorType::INT32, {4, 2}, std::vector<int32_t>{0, 0, -1, 3, 1, 1, 0, 0});
           })
      .add("padding-int-max", "is not input",
           [](OpSpec& s) {
             s.inputs[1] = constant(TensorType::INT32, {4, 2},
                                    std::vector<int32_t>{0, 0, INT32_MAX, INT32_MAX, 1, 1, 0, 0});
           })
      .add("output-shape", "dimension 2 is not input",
           [](OpSpec& s) {
             s.outputs[0].shape = {1, 4, 5, 1};
           })
      .add("output-rank", "does not have the rank of input",
           [](OpSpec& s) {
             s.outputs[0].shape = {4, 4, 1};
           })
      .add("six-dims", "has more than 5 dimensions",
           [](OpSpec& s) {
             s.inputs[0]->shape = {1, 1, 1, 2, 2, 1};
             s.outputs[0].shape = {1, 1, 1, 4, 4, 1};
           })
      .add("types-differ", "have different types",
           [](OpSpec& s) { s.outputs[0].type = TensorType::INT16; })
      .add("uint8", "unsupported type", [](OpSpec& s) {
        s.inputs[0] = qtensor(TensorType::UINT8, {1, 2, 2, 1}, 0.5f, 128);
        s.outputs[0] = qtensor(TensorType::UINT8, {1, 4, 4, 1}, 0.5f, 128);
      });
}

TEST(MalformedOps, Pad) {
  Variants v("PAD", padSpec(BuiltinOperator::PAD));
  addSharedPadVariants(v);
  v.check();
}

TEST(MalformedOps, PadV2) {
  Variants v("PADV2", padSpec(BuiltinOperator::PADV2));
  addSharedPadVariants(v);
  v.add("four-inputs", "expects 2 to 3 inputs, has 4",
        [](OpSpec& s) { s.inputs.push_back(s.inputs[2]); })
      .add("pad-value-type", "does not have the type of input",
           [](OpSpec& s) {
             s.inputs[2] = withData(qtensor(TensorType::INT16, {}, 0.5f, 0),
                                    bytesOf(std::vector<int16_t>{7}));
           })
      .add("pad-value-two-elements", "must be a single element",
           [](OpSpec& s) {
             s.inputs[2] = withData(q8({2}, 0.5f, -3), bytesOf(std::vector<int8_t>{7, 8}));
           })
      .add("pad-value-quantization", "must have the output's scale and zero point",
           [](OpSpec& s) { s.inputs[2]->zero_points = {0}; });
  v.check();
}

TEST(MalformedOps, Transpose) {
  OpSpec valid;
  valid.op = BuiltinOperator::TRANSPOSE;
  valid.inputs = {tensor(TensorType::FLOAT32, {2, 3, 4}),
                  constant(TensorType::INT32, {3}, std::vector<int32_t>{2, 0, 1})};
  valid.outputs = {tensor(TensorType::FLOAT32, {4, 2, 3})};
  Variants v("TRANSPOSE", valid);
  v.add("one-input", "expects 2 inputs, has 1", [](OpSpec& s) { s.inputs.resize(1); })
      .add("permutation-not-constant", "permutation must be a constant tensor",
           [](OpSpec& s) { s.inputs[1]->data.clear(); })
      .add("permutation-repeats", "is not a permutation of 0..2",
           [](OpSpec& s) {
             s.inputs[1] = constant(TensorType::INT32, {3}, std::vector<int32_t>{2, 0, 2});
           })
      .add("permutation-out-of-range", "is not a permutation of 0..2",
           [](OpSpec& s) {
             s.inputs[1] = constant(TensorType::INT32, {3}, std::vector<int32_t>{2, 0, INT32_MIN});
           })
      .add("permutation-length", "permutation must be an int32 vector of 3 entries",
           [](OpSpec& s) {
             s.inputs[1] = constant(TensorType::INT32, {2}, std::vector<int32_t>{1, 0});
           })
      .add("permutation-int8", "permutation must be an int32 vector of 3 entries",
           [](OpSpec& s) {
             s.inputs[1] = constant(TensorType::INT8, {3}, std::vector<int8_t>{2, 0, 1});
           })
      .add("output-shape", "is not input FLOAT32 [2,3,4] permuted by",
           [](OpSpec& s) {
             s.outputs[0].shape = {4, 3, 2};
           })
      .add("seven-dims", "must have 1 to 6 dimensions",
           [](OpSpec& s) { s.inputs[0]->shape = {1, 1, 1, 1, 2, 3, 4}; })
      .add("2-to-33-elements", "has more than 2^31 - 1 elements",
           [](OpSpec& s) {
             s.inputs[0]->shape = {2, 65536, 65536};
             s.outputs[0].shape = {65536, 2, 65536};
           })
      .add("types-differ", "have different types",
           [](OpSpec& s) { s.outputs[0].type = TensorType::INT32; })
      .add("int64", "unsupported type", [](OpSpec& s) {
        s.inputs[0]->type = TensorType::INT64;
        s.outputs[0].type = TensorType::INT64;
      });
  v.check();
}

// ---------------------------------------------------------------------------------------------
// Reduction, slicing, squeezing and pooling.

TEST(MalformedOps, Mean) {
  OpSpec valid;
  valid.op = BuiltinOperator::MEAN;
  valid.inputs = {q8({1, 4, 4, 3}, 0.5f, 2),
                  constant(TensorType::INT32, {2}, std::vector<int32_t>{1, 2})};
  valid.outputs = {q8({1, 1, 1, 3}, 0.25f, -1)};
  tflite::ReducerOptionsT o;
  o.keep_dims = true;
  valid.options = options(o);
  Variants v("MEAN", valid, /*after_tanh=*/true);
  v.add("three-inputs", "expects 2 inputs, has 3",
        [](OpSpec& s) { s.inputs.push_back(s.inputs[1]); })
      .add("no-options", "missing ReducerOptions",
           [](OpSpec& s) { s.options = tflite::BuiltinOptionsUnion(); })
      .add("axis-not-constant", "axis must be a constant tensor",
           [](OpSpec& s) { s.inputs[1]->data.clear(); })
      .add("axis-float", "axis must be int32",
           [](OpSpec& s) {
             s.inputs[1] = constant(TensorType::FLOAT32, {2}, std::vector<float>{1, 2});
           })
      .add("axis-out-of-range", "axis 4 is out of range",
           [](OpSpec& s) {
             s.inputs[1] = constant(TensorType::INT32, {2}, std::vector<int32_t>{1, 4});
           })
      .add("output-size", "does not hold the 3 means",
           [](OpSpec& s) {
             s.outputs[0].shape = {1, 1, 1, 4};
           })
      .add("empty-input", "is empty",
           [](OpSpec& s) {
             s.inputs[0]->shape = {1, 0, 4, 3};
           })
      .add("six-dims", "must have 1 to 5 dimensions",
           [](OpSpec& s) { s.inputs[0]->shape = {1, 1, 1, 4, 4, 3}; })
      .add("2-to-32-elements", "has more than 2^31 - 1 elements",
           [](OpSpec& s) {
             // 2^32 reduced elements would make the int32 count 0 (a division by zero).
             s.inputs[0]->shape = {1, 65536, 65536, 1};
             s.outputs[0].shape = {1, 1, 1, 1};
           })
      .add("unquantized-output", "output INT8 [1,1,1,3] has no quantization parameters",
           [](OpSpec& s) {
             s.outputs[0] = tensor(TensorType::INT8, {1, 1, 1, 3});
           })
      .add("multiplier-too-large", "requantization multiplier",
           [](OpSpec& s) {
             s.inputs[0]->scales = {1e10f};
             s.outputs[0].scales = {1e-10f};
           })
      .add("int32", "unsupported type", [](OpSpec& s) {
        s.inputs[0] = tensor(TensorType::INT32, {1, 4, 4, 3});
        s.outputs[0] = tensor(TensorType::INT32, {1, 1, 1, 3});
      });
  v.check();
}

TEST(MalformedOps, StridedSlice) {
  OpSpec valid;
  valid.op = BuiltinOperator::STRIDED_SLICE;
  valid.inputs = {tensor(TensorType::FLOAT32, {3, 4}),
                  constant(TensorType::INT32, {2}, std::vector<int32_t>{0, 1}),
                  constant(TensorType::INT32, {2}, std::vector<int32_t>{3, 4}),
                  constant(TensorType::INT32, {2}, std::vector<int32_t>{2, 1})};
  valid.outputs = {tensor(TensorType::FLOAT32, {2, 3})};
  valid.options = options(tflite::StridedSliceOptionsT());
  const auto indices = [](std::vector<int32_t> v) {
    const int32_t n = static_cast<int32_t>(v.size());
    return constant(TensorType::INT32, {n}, v);
  };
  Variants v("STRIDED_SLICE", valid);
  v.add("three-inputs", "expects 4 inputs, has 3", [](OpSpec& s) { s.inputs.resize(3); })
      .add("no-options", "missing StridedSliceOptions",
           [](OpSpec& s) { s.options = tflite::BuiltinOptionsUnion(); })
      .add("begin-not-constant", "begin must be a constant tensor",
           [](OpSpec& s) { s.inputs[1]->data.clear(); })
      .add("strides-length", "strides must be an int32 vector of 2 entries",
           [&](OpSpec& s) {
             s.inputs[3] = indices({1, 1, 1});
           })
      .add("stride-zero", "stride of dimension 1 is 0",
           [&](OpSpec& s) {
             s.inputs[3] = indices({1, 0});
           })
      .add("ellipsis-mask-shape", "does not have the sliced shape [0,3]",
           [&](OpSpec& s) {
             // TFLite Micro ignores the ellipsis mask, so x[..., 1:4] slices rows [0, 0).
             s.options.AsStridedSliceOptions()->ellipsis_mask = 1;
             s.inputs[1] = indices({0, 1});
             s.inputs[2] = indices({0, 4});
             s.inputs[3] = indices({1, 1});
           })
      .add("shrink-index-out-of-range", "shrunk dimension 0 index 7 is outside input",
           [&](OpSpec& s) {
             s.options.AsStridedSliceOptions()->shrink_axis_mask = 1;
             s.inputs[1] = indices({7, 1});
             s.outputs[0].shape = {3};
           })
      .add("extreme-indices-output-shape", "does not have the sliced shape [3,4]",
           [&](OpSpec& s) {
             s.inputs[1] = indices({INT32_MIN, INT32_MIN});
             s.inputs[2] = indices({INT32_MAX, INT32_MAX});
             s.inputs[3] = indices({1, 1});
           })
      .add("stride-int-min-output-shape", "does not have the sliced shape [1,3]",
           [&](OpSpec& s) {
             s.inputs[1] = indices({2, 1});
             s.inputs[2] = indices({-5, 4});
             s.inputs[3] = indices({INT32_MIN, 1});
           })
      .add("five-dims", "must have 1 to 4 dimensions",
           [](OpSpec& s) {
             s.inputs[0]->shape = {1, 1, 1, 3, 4};
           })
      .add("types-differ", "have different types",
           [](OpSpec& s) { s.outputs[0].type = TensorType::INT32; })
      .add("int64", "unsupported type", [](OpSpec& s) {
        s.inputs[0]->type = TensorType::INT64;
        s.outputs[0].type = TensorType::INT64;
      });
  v.check();
}

TEST(MalformedOps, Squeeze) {
  OpSpec valid;
  valid.op = BuiltinOperator::SQUEEZE;
  valid.inputs = {tensor(TensorType::FLOAT32, {1, 3, 1, 2})};
  valid.outputs = {tensor(TensorType::FLOAT32, {3, 2})};
  tflite::SqueezeOptionsT o;
  o.squeeze_dims = {0, -2};
  valid.options = options(o);
  Variants v("SQUEEZE", valid);
  v.add("two-inputs", "expects 1 inputs, has 2", [](OpSpec& s) { s.inputs.push_back(s.inputs[0]); })
      .add("dimension-not-one", "squeeze dimension 1 of input FLOAT32 [1,3,1,2] has size 3",
           [](OpSpec& s) { s.options.AsSqueezeOptions()->squeeze_dims = {1}; })
      .add("dimension-out-of-range", "squeeze dimension 4 is out of range",
           [](OpSpec& s) {
             s.options.AsSqueezeOptions()->squeeze_dims = {0, 4};
           })
      .add("dimension-int-min", "squeeze dimension -2147483648 is out of range",
           [](OpSpec& s) { s.options.AsSqueezeOptions()->squeeze_dims = {INT32_MIN}; })
      .add("output-shape", "squeezed to [3,2]",
           [](OpSpec& s) {
             s.outputs[0].shape = {2, 3};
           })
      .add("types-differ", "have different types",
           [](OpSpec& s) { s.outputs[0].type = TensorType::INT32; })
      .add("nine-dims", "has more than 8 dimensions", [](OpSpec& s) {
        s.inputs[0]->shape = {1, 1, 1, 1, 1, 1, 1, 3, 2};
        s.options.AsSqueezeOptions()->squeeze_dims = {};
      });
  v.check();
}

TEST(MalformedOps, MaxPool2D) {
  OpSpec valid;
  valid.op = BuiltinOperator::MAX_POOL_2D;
  valid.inputs = {q8({1, 4, 4, 2}, 0.5f, -1)};
  valid.outputs = {q8({1, 2, 2, 2}, 0.5f, -1)};
  tflite::Pool2DOptionsT o;
  o.padding = Padding::VALID;
  o.stride_h = o.stride_w = 2;
  o.filter_height = o.filter_width = 2;
  valid.options = options(o);
  const auto pool = [](OpSpec& s) { return s.options.AsPool2DOptions(); };
  Variants v("MAX_POOL_2D", valid);
  v.add("two-inputs", "expects 1 inputs, has 2", [](OpSpec& s) { s.inputs.push_back(s.inputs[0]); })
      .add("no-options", "missing Pool2DOptions",
           [](OpSpec& s) { s.options = tflite::BuiltinOptionsUnion(); })
      .add("stride-zero", "must be positive", [&](OpSpec& s) { pool(s)->stride_w = 0; })
      .add("filter-negative", "is empty", [&](OpSpec& s) { pool(s)->filter_height = -2; })
      .add("padding-7", "unsupported padding 7",
           [&](OpSpec& s) { pool(s)->padding = static_cast<Padding>(7); })
      .add("window-larger-than-input", "does not fit input",
           [&](OpSpec& s) { pool(s)->filter_width = 5; })
      .add("stride-int-max", "are too large for input",
           [&](OpSpec& s) { pool(s)->stride_h = INT32_MAX; })
      .add("output-shape", "does not match the 2x2 output",
           [](OpSpec& s) {
             s.outputs[0].shape = {1, 2, 3, 2};
           })
      .add("channels-differ", "does not have the channels of input",
           [](OpSpec& s) {
             s.outputs[0].shape = {1, 2, 2, 3};
           })
      .add("rank-3", "input must have rank 4",
           [](OpSpec& s) {
             s.inputs[0]->shape = {4, 4, 2};
           })
      .add("quantization-differs", "input and output quantization differ",
           [](OpSpec& s) { s.outputs[0].zero_points = {0}; })
      .add("relu6-tiny-scale", "does not fit in int32",
           [&](OpSpec& s) {
             s.inputs[0]->scales = {1e-30f};
             s.outputs[0].scales = {1e-30f};
             pool(s)->fused_activation_function = ActivationFunctionType::RELU6;
           })
      .add("int16-relu-tiny-scale", "does not fit in int32",
           [&](OpSpec& s) {
             s.inputs[0] = qtensor(TensorType::INT16, {1, 4, 4, 2}, 1e-30f, 0);
             s.outputs[0] = qtensor(TensorType::INT16, {1, 2, 2, 2}, 1e-30f, 0);
             pool(s)->fused_activation_function = ActivationFunctionType::RELU_N1_TO_1;
           })
      .add("types-differ", "have different types",
           [](OpSpec& s) { s.outputs[0].type = TensorType::INT16; })
      .add("int32", "unsupported type", [](OpSpec& s) {
        s.inputs[0] = tensor(TensorType::INT32, {1, 4, 4, 2});
        s.outputs[0] = tensor(TensorType::INT32, {1, 2, 2, 2});
      });
  v.check();
}

}  // namespace
}  // namespace hilsim::test
