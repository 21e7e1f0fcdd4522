// annotate, run on the presets, strip: the acceptance checks, through build/hilsim.

#include <gtest/gtest.h>

#include <algorithm>

#include "files.h"
#include "golden_cases.h"
#include "hilsim/schema/chunk_plan_generated.h"
#include "hilsim/schema/tflite_generated.h"
#include "json_file.h"
#include "runner.h"

namespace hilsim::test {
namespace {

std::string preset(const std::string& name) {
  return std::string(HILSIM_SOURCE_DIR) + "/configs/" + name + ".yaml";
}

void expectOk(const RunOutcome& r) {
  ASSERT_FALSE(r.timed_out) << r.command;
  ASSERT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
}

const tflite::Model& fb(const std::vector<uint8_t>& bytes) {
  return *tflite::GetModel(bytes.data());
}

struct Param {
  std::string golden;
  std::string preset;
};
void PrintTo(const Param& p, std::ostream* os) {
  *os << p.golden << " " << p.preset;
}

class AnnotatedGolden : public ::testing::TestWithParam<Param> {};

// annotate, then accel / auto / compare give exactly TFLite Micro's bytes; in accel mode every
// int8 FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D layer runs on the accelerator.
TEST_P(AnnotatedGolden, EveryModeMatchesTflmBytes) {
  const GoldenCase& gc = goldenCase(GetParam().golden);
  const std::string config = preset(GetParam().preset);
  const std::string dir = makeTempDir("annotated-" + gc.name + "-" + GetParam().preset);
  const std::string model = dir + "/model.tflite";
  expectOk(
      runHilsim({"annotate", "--model", gc.model, "--config", config, "--out", model, "--quiet"}));
  for (const char* mode : {"accel", "auto", "compare"}) {
    for (const GoldenVector& v : gc.vectors) {
      const std::string out = dir + "/out.bin", report = dir + "/report.json";
      expectOk(runHilsim({"run", "--model", model, "--config", config, "--input", v.input,
                          "--output", out, "--mode", mode, "--report", report, "--quiet"}));
      EXPECT_EQ(readFile(out), readFile(v.expected)) << mode << " " << v.input;
      if (std::string(mode) != "accel") continue;
      for (const JsonDoc& layer : readJsonFile(report).at("layers")) {
        const std::string op = layer.at("op").get<std::string>();
        if (op != "FULLY_CONNECTED" && op != "CONV_2D" && op != "DEPTHWISE_CONV_2D") continue;
        const std::string reason = layer.at("reason").get<std::string>();
        if (reason.find("float32") != std::string::npos) continue;  // int8 accelerator
        EXPECT_EQ(layer.at("path").get<std::string>(), "accel") << reason;
      }
    }
  }
}

std::vector<Param> params() {
  std::vector<Param> out;
  for (const std::string& name : goldenCaseNames())
    for (const char* p : {"m1", "m4", "m8", "m16"}) out.push_back({name, p});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Presets, AnnotatedGolden, ::testing::ValuesIn(params()),
                         [](const auto& info) {
                           return info.param.golden + "_" + info.param.preset;
                         });

class Carriers : public ::testing::Test {
 protected:
  std::string dir_ = makeTempDir(std::string("carriers-") +
                                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::string model_ = sharedDir() + "/golden/mlp_49_100_50_10_pt/model.tflite";
  // A model of FULLY_CONNECTED layers, and one of convolutions.
  std::vector<std::string> models_ = {model_, sharedDir() + "/models/person_detect.tflite"};
  std::vector<uint8_t> annotate(const std::string& in, const std::string& carrier,
                                const std::string& name) {
    const std::string out = dir_ + "/" + name;
    expectOk(runHilsim({"annotate", "--model", in, "--config", preset("m4"), "--carrier", carrier,
                        "--out", out, "--quiet"}));
    return readFile(out);
  }
};

TEST_F(Carriers, CustomOptionsPutAPlanOnEveryPlannedOperator) {
  for (const std::string& model : models_) {
    SCOPED_TRACE(model);
    const std::vector<uint8_t> bytes = annotate(model, "custom_options", "co.tflite");
    const tflite::Model& m = fb(bytes);
    size_t plans = 0;
    for (const tflite::Operator* op : *m.subgraphs()->Get(0)->operators()) {
      const tflite::OperatorCode& code = *m.operator_codes()->Get(op->opcode_index());
      const auto builtin = static_cast<tflite::BuiltinOperator>(std::max<int32_t>(
          code.deprecated_builtin_code(), static_cast<int32_t>(code.builtin_code())));
      const bool planned = builtin == tflite::BuiltinOperator::FULLY_CONNECTED ||
                           builtin == tflite::BuiltinOperator::CONV_2D ||
                           builtin == tflite::BuiltinOperator::DEPTHWISE_CONV_2D;
      if (!planned) {
        EXPECT_TRUE(!op->custom_options() || op->custom_options()->size() == 0);
        continue;
      }
      ASSERT_TRUE(op->custom_options());
      EXPECT_TRUE(flatbuffers::BufferHasIdentifier(op->custom_options()->data(), "HSCP"));
      ++plans;
    }
    EXPECT_GE(plans, 3u);
  }
}

TEST_F(Carriers, MetadataLeavesNoCustomOptionsOnBuiltinOperators) {
  for (const std::string& model : models_) {
    SCOPED_TRACE(model);
    const std::vector<uint8_t> bytes = annotate(model, "metadata", "md.tflite");
    const tflite::Model& m = fb(bytes);
    for (const tflite::Operator* op : *m.subgraphs()->Get(0)->operators())
      EXPECT_TRUE(!op->custom_options() || op->custom_options()->size() == 0);
    bool found = false;
    for (const tflite::Metadata* md : *m.metadata())
      found |= md->name()->str() == "hilsim.chunk_plans";
    EXPECT_TRUE(found);
    // inspect finds and validates every plan in the carrier.
    const RunOutcome i = runHilsim({"inspect", dir_ + "/md.tflite", "--json"});
    expectOk(i);
    const JsonDoc view = parseJson(i.out);
    EXPECT_GE(view.at("annotated_operators").get<int>(), 3);
    EXPECT_EQ(view.at("invalid_annotations").get<int>(), 0);
  }
}

TEST_F(Carriers, AnnotatingTwiceIsIdempotent) {
  for (const std::string& model : models_)
    for (const char* carrier : {"custom_options", "metadata"}) {
      const std::vector<uint8_t> once = annotate(model, carrier, "once.tflite");
      const std::vector<uint8_t> twice = annotate(dir_ + "/once.tflite", carrier, "twice.tflite");
      EXPECT_EQ(once, twice) << model << " " << carrier;
    }
}

// strip(annotate(m)) has the operators, tensors and buffers of m, and no annotation.
TEST_F(Carriers, StripRestoresTheModel) {
  for (const std::string& model : models_)
    for (const char* carrier : {"custom_options", "metadata"}) {
      SCOPED_TRACE(model);
      const std::vector<uint8_t> original = readFile(model);
      annotate(model, carrier, "a.tflite");
      expectOk(runHilsim({"strip", dir_ + "/a.tflite", dir_ + "/s.tflite"}));
      const std::vector<uint8_t> stripped = readFile(dir_ + "/s.tflite");
      std::unique_ptr<tflite::ModelT> a(fb(original).UnPack()), b(fb(stripped).UnPack());
      ASSERT_EQ(a->subgraphs[0]->operators.size(), b->subgraphs[0]->operators.size());
      for (size_t i = 0; i < a->subgraphs[0]->operators.size(); ++i) {
        const auto& x = *a->subgraphs[0]->operators[i];
        const auto& y = *b->subgraphs[0]->operators[i];
        EXPECT_EQ(x.opcode_index, y.opcode_index);
        EXPECT_EQ(x.inputs, y.inputs);
        EXPECT_EQ(x.outputs, y.outputs);
        EXPECT_EQ(x.builtin_options.type, y.builtin_options.type);
        EXPECT_TRUE(y.custom_options.empty()) << carrier;
      }
      ASSERT_EQ(a->subgraphs[0]->tensors.size(), b->subgraphs[0]->tensors.size());
      for (size_t i = 0; i < a->subgraphs[0]->tensors.size(); ++i) {
        const auto& x = *a->subgraphs[0]->tensors[i];
        const auto& y = *b->subgraphs[0]->tensors[i];
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.shape, y.shape);
        EXPECT_EQ(x.type, y.type);
        EXPECT_EQ(x.buffer, y.buffer);
        EXPECT_EQ(x.quantization->scale, y.quantization->scale);
        EXPECT_EQ(x.quantization->zero_point, y.quantization->zero_point);
      }
      ASSERT_EQ(a->buffers.size(), b->buffers.size()) << carrier;
      for (size_t i = 0; i < a->buffers.size(); ++i)
        EXPECT_EQ(a->buffers[i]->data, b->buffers[i]->data);
      for (const auto& md : b->metadata) EXPECT_NE(md->name, "hilsim.chunk_plans");
    }
}

// annotate --objective energy: a large layer that pays in cycles takes more energy accelerated
// when the processing elements leak 1 W each, so it stays on the CPU, as annotated; the plan keeps
// the objective, so a run on other hardware re-plans by energy too. The cycles objective offloads.
TEST(AnnotateObjective, EnergyAnnotationDecidesByEnergy) {
  const std::string dir = makeTempDir("annotate-objective");
  const std::string big = dir + "/big.tflite";
  expectOk(runHilsim({"gen-model", "--layers", "1024,1024", "--out", big}));
  const std::vector<std::string> leaky = {"--config", preset("m4"), "--set",
                                          "energy.pe_leakage_uw=1000000"};
  auto annotateAndRun = [&](const std::string& objective, const std::string& run_config) {
    const std::string model = dir + "/big." + objective + ".tflite";
    std::vector<std::string> annotate = {"annotate", "--model", big,           "--out",
                                         model,      "--quiet", "--objective", objective};
    annotate.insert(annotate.end(), leaky.begin(), leaky.end());
    expectOk(runHilsim(annotate));
    const std::string report = dir + "/" + objective + "." + run_config + ".json";
    expectOk(runHilsim({"run", "--model", model, "--config", preset(run_config), "--set",
                        "energy.pe_leakage_uw=1000000", "--report", report, "--quiet"}));
    return readJsonFile(report).at("layers")[0];
  };
  const JsonDoc cycles = annotateAndRun("cycles", "m4");
  EXPECT_EQ(cycles.at("path").get<std::string>(), "accel");
  EXPECT_EQ(cycles.at("reason").get<std::string>().find("by energy"), std::string::npos);
  EXPECT_LT(cycles.at("cycles").get<uint64_t>(), cycles.at("ref_cycles").get<uint64_t>());

  const JsonDoc energy = annotateAndRun("energy", "m4");
  const std::string reason = energy.at("reason").get<std::string>();
  EXPECT_EQ(energy.at("path").get<std::string>(), "ref");
  EXPECT_EQ(reason.rfind("keep on CPU (below break-even: by energy: accel ", 0), 0u) << reason;
  EXPECT_NE(reason.find(", as annotated"), std::string::npos) << reason;
  // No size of the family saves energy with such leakage; some size saves cycles.
  EXPECT_TRUE(energy.at("break_even_energy_macs").is_null());
  EXPECT_FALSE(energy.at("break_even_macs").is_null());
  // The cycles run shows why: its accelerated energy exceeds the reference path's.
  EXPECT_GT(cycles.at("energy_uj").get<double>(), cycles.at("ref_energy_uj").get<double>());

  // Other energy figures: the energy decision is made again, with one warning.
  const std::string energy_model = dir + "/big.energy.tflite";
  const std::string other = dir + "/other-energy.json";
  const RunOutcome r = runHilsim(
      {"run", "--model", energy_model, "--config", preset("m4"), "--report", other, "--quiet"});
  expectOk(r);
  EXPECT_NE(r.err.find("decided by energy under other energy figures (energy.*); re-planned"),
            std::string::npos)
      << r.err;
  const JsonDoc redecided = readJsonFile(other).at("layers")[0];
  EXPECT_EQ(redecided.at("path").get<std::string>(), "accel");
  EXPECT_NE(redecided.at("reason").get<std::string>().find("pays: by energy: accel "),
            std::string::npos);

  const JsonDoc replanned = annotateAndRun("energy", "m8");
  const std::string again = replanned.at("reason").get<std::string>();
  EXPECT_EQ(replanned.at("path").get<std::string>(), "ref");
  EXPECT_NE(again.find("by energy: accel "), std::string::npos) << again;
  EXPECT_NE(again.find("re-planned for this hardware"), std::string::npos) << again;
}

// run --objective applies to layers without an annotation.
TEST(AnnotateObjective, RunObjectiveDecidesUnannotatedLayers) {
  const std::string dir = makeTempDir("run-objective");
  const std::string big = dir + "/big.tflite";
  expectOk(runHilsim({"gen-model", "--layers", "1024,1024", "--out", big}));
  for (const std::string objective : {"cycles", "energy", "edp"}) {
    const std::string report = dir + "/" + objective + ".json";
    expectOk(runHilsim({"run", "--model", big, "--config", preset("m4"), "--set",
                        "energy.pe_leakage_uw=1000000", "--objective", objective, "--report",
                        report, "--quiet"}));
    const JsonDoc layer = readJsonFile(report).at("layers")[0];
    const std::string reason = layer.at("reason").get<std::string>();
    EXPECT_EQ(layer.at("path").get<std::string>(), objective == "energy" ? "ref" : "accel")
        << reason;
    if (objective == "edp") EXPECT_NE(reason.find("by energy x time: "), std::string::npos);
  }
  EXPECT_EQ(runHilsim({"run", "--model", big, "--objective", "joules", "--quiet"}).exit_code, 2);
}

// The fixed start-up cost of offloading: hello_world's tiny layers lose, a 1x1024->1024 layer
// wins, and break_even_macs sits between them.
TEST(BreakEven, TinyLayersLoseLargeLayersWin) {
  const std::string dir = makeTempDir("break-even");
  const std::string hello = dir + "/hello.m4.tflite", big = dir + "/big.tflite";
  expectOk(runHilsim({"annotate", "--model", sharedDir() + "/models/hello_world_int8.tflite",
                      "--config", preset("m4"), "--out", hello, "--quiet"}));
  expectOk(runHilsim({"gen-model", "--layers", "1024,1024", "--out", big}));
  expectOk(runHilsim({"run", "--model", hello, "--config", preset("m4"), "--mode", "compare",
                      "--report", dir + "/hello.json", "--quiet"}));
  expectOk(runHilsim({"run", "--model", big, "--config", preset("m4"), "--mode", "compare",
                      "--report", dir + "/big.json", "--quiet"}));
  for (const JsonDoc& layer : readJsonFile(dir + "/hello.json").at("layers")) {
    const uint64_t cycles = layer.at("cycles").get<uint64_t>(),
                   ref = layer.at("ref_cycles").get<uint64_t>();
    EXPECT_GT(cycles, ref) << "offloading a tiny layer should cost more";
    EXPECT_LT(layer.at("macs").get<uint64_t>(), layer.at("break_even_macs").get<uint64_t>());
    EXPECT_EQ(layer.at("accel").at("fixed_cycles").get<uint64_t>() +
                  layer.at("accel").at("variable_cycles").get<uint64_t>(),
              cycles);
  }
  const JsonDoc layer = readJsonFile(dir + "/big.json").at("layers")[0];
  EXPECT_LT(layer.at("cycles").get<uint64_t>(), layer.at("ref_cycles").get<uint64_t>());
  EXPECT_GT(layer.at("macs").get<uint64_t>(), layer.at("break_even_macs").get<uint64_t>());
  EXPECT_EQ(layer.at("accel").at("fixed_cycles").get<uint64_t>() +
                layer.at("accel").at("variable_cycles").get<uint64_t>(),
            layer.at("cycles").get<uint64_t>());
}

// A plan records the host CPU its decision was made for; a run on another CPU, or with other cost
// figures, or from a plan that does not record its CPU, re-plans with one warning.
class PlanCpu : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<std::string> args = {"annotate", "--model", golden_.model,
                                     "--out",    model_,    "--quiet"};
    args.insert(args.end(), costly_.begin(), costly_.end());
    expectOk(runHilsim(args));
  }
  // A Cortex-M55 under the cost model with a costly driver: hello_world's layers do not pay.
  const std::vector<std::string> costly_ = {"--set", "cpu.preset=cortex-m55",
                                            "--set", "cpu.model=cost",
                                            "--set", "cpu.driver_job_cycles=8000"};
  std::vector<std::string> costlyAnd(std::vector<std::string> more) const {
    std::vector<std::string> out = costly_;
    out.insert(out.end(), more.begin(), more.end());
    return out;
  }
  // Runs `model` in auto mode with `extra` settings, writing out_ and report_.
  RunOutcome run(const std::string& model, std::vector<std::string> extra) {
    std::vector<std::string> args = {
        "run",      "--model", model,    "--input", golden_.vectors[0].input,
        "--output", out_,      "--mode", "auto",    "--report",
        report_,    "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    return runHilsim(args);
  }
  std::vector<std::string> reasons() {
    std::vector<std::string> out;
    const JsonDoc report = readJsonFile(report_);
    for (const JsonDoc& layer : report.at("layers"))
      out.push_back(layer.at("path").get<std::string>() + ": " +
                    layer.at("reason").get<std::string>());
    return out;
  }
  static size_t lines(const std::string& text) {
    return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  }
  const GoldenCase& golden_ = goldenCase("real_hello_world_int8");
  std::string dir_ = makeTempDir(std::string("plan-cpu-") +
                                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::string model_ = dir_ + "/default.tflite", out_ = dir_ + "/out.bin",
              report_ = dir_ + "/report.json";
};

// hello_world annotated for a costly driver keeps its layers on the CPU (below break-even); on the
// Cortex-M4F the same plan is re-planned and the layers offload, as a model annotated for the
// M4F does.
TEST_F(PlanCpu, PlanForAnotherCpuIsReplannedWithOneWarning) {
  const RunOutcome same = run(model_, costly_);
  expectOk(same);
  EXPECT_EQ(same.err, "");
  for (const std::string& r : reasons()) {
    EXPECT_EQ(r.rfind("ref: keep on CPU (below break-even: ", 0), 0u) << r;
    EXPECT_NE(r.find("), as annotated"), std::string::npos) << r;
  }

  const RunOutcome other = run(model_, {"--set", "cpu.preset=cortex-m4f"});
  expectOk(other);
  EXPECT_EQ(lines(other.err), 1u) << other.err;
  EXPECT_EQ(other.err.rfind("hilsim: warning: chunk plans in the model were made for another CPU "
                            "(cortex-m55 at ",
                            0),
            0u)
      << other.err;
  EXPECT_NE(other.err.find("re-planned in memory for cortex-m4f at "), std::string::npos)
      << other.err;
  EXPECT_EQ(readFile(out_), readFile(golden_.vectors[0].expected));
  const std::vector<std::string> replanned = reasons();
  ASSERT_EQ(replanned.size(), 3u);
  for (const std::string& r : replanned) {
    EXPECT_EQ(r.rfind("accel: offload (pays: ", 0), 0u) << r;
    EXPECT_NE(r.find("), re-planned for this hardware"), std::string::npos) << r;
  }

  // Annotated for the M4F, the plans are used as they are, with the same decisions.
  const std::string m4f = dir_ + "/m4f.tflite";
  expectOk(runHilsim({"annotate", "--model", golden_.model, "--set", "cpu.preset=cortex-m4f",
                      "--out", m4f, "--quiet"}));
  const RunOutcome annotated = run(m4f, {"--set", "cpu.preset=cortex-m4f"});
  expectOk(annotated);
  EXPECT_EQ(annotated.err, "");
  for (const std::string& r : reasons()) {
    EXPECT_EQ(r.rfind("accel: offload (pays: ", 0), 0u) << r;
    EXPECT_NE(r.find("), as annotated"), std::string::npos) << r;
  }
}

// The CPU record names the kernel library the decision was made against: a plan made against the
// reference kernels is re-planned, with one warning naming both libraries, when the run's CPU
// layers run the optimized kernels, and the outputs keep TFLite Micro's bytes.
TEST_F(PlanCpu, PlanForAnotherKernelLibraryIsReplannedWithOneWarning) {
  const RunOutcome r = run(model_, costlyAnd({"--set", "cpu.kernels=optimized"}));
  expectOk(r);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("hilsim: warning: chunk plans in the model were made for another CPU ", 0),
            0u)
      << r.err;
  EXPECT_NE(r.err.find(", reference kernels, "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("re-planned in memory for cortex-m55 at "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(", optimized kernels, "), std::string::npos) << r.err;
  EXPECT_EQ(readFile(out_), readFile(golden_.vectors[0].expected));
  for (const std::string& reason : reasons())
    EXPECT_NE(reason.find("re-planned"), std::string::npos) << reason;
  const JsonDoc report = readJsonFile(report_);
  EXPECT_EQ(report.at("simulation").at("cpu_kernels").get<std::string>(), "optimized");
}

// Settings the CPU record does not name but the decision rests on (a cost coefficient) are
// caught by the recorded predictions.
TEST_F(PlanCpu, OtherCostFiguresAreReplannedWithOneWarning) {
  const RunOutcome r = run(model_, costlyAnd({"--set", "cpu.coefficients.fc_per_mac=40"}));
  expectOk(r);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("hilsim: warning: chunk plans in the model were made under other cost or "
                        "timing figures",
                        0),
            0u)
      << r.err;
  for (const std::string& reason : reasons())
    EXPECT_NE(reason.find("re-planned"), std::string::npos) << reason;
}

// A plan without the CPU record (as hilsim wrote them before plans recorded it) is re-planned.
TEST_F(PlanCpu, PlanWithoutCpuRecordIsReplannedWithOneWarning) {
  std::unique_ptr<tflite::ModelT> m(fb(readFile(model_)).UnPack());
  size_t stripped = 0;
  for (auto& op : m->subgraphs[0]->operators) {
    if (op->custom_options.empty()) continue;
    std::unique_ptr<plan::ChunkPlanT> p(plan::GetChunkPlan(op->custom_options.data())->UnPack());
    ASSERT_TRUE(p->cpu) << "annotate records the CPU";
    EXPECT_EQ(p->cpu->preset, "cortex-m55");
    p->cpu.reset();
    flatbuffers::FlatBufferBuilder b;
    b.Finish(plan::ChunkPlan::Pack(b, p.get()), "HSCP");
    op->custom_options.assign(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
    ++stripped;
  }
  ASSERT_EQ(stripped, 3u);
  flatbuffers::FlatBufferBuilder b;
  tflite::FinishModelBuffer(b, tflite::Model::Pack(b, m.get()));
  const std::string old = dir_ + "/old.tflite";
  writeFile(old, {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()});
  const RunOutcome r = run(old, costly_);
  expectOk(r);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("hilsim: warning: chunk plans in the model were made for a CPU they do "
                        "not record",
                        0),
            0u)
      << r.err;
  for (const std::string& reason : reasons())
    EXPECT_EQ(reason.rfind("ref: keep on CPU (below break-even: ", 0), 0u) << reason;
}

}  // namespace
}  // namespace hilsim::test
