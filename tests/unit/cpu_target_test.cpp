// The reference kernels through a CpuTarget: a fake target maps the interpreter's memory at the
// firmware memory map's addresses, and runs each packed call the way the firmware does (the
// reader visitor unpacks the words, abi::dispatch runs the same freestanding function), except
// that it turns every address back into a host pointer. So packing, address translation and
// the persistent pool are checked end to end: every golden case must give TFLM's bytes, every
// real model the host path's bytes, and the cost model must not be charged for what the target
// ran.

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "files.h"
#include "golden_cases.h"
#include "hilsim/errors.h"
#include "hilsim/kernels/abi/dispatch.h"
#include "hilsim/rt/cpu_target.h"
#include "hilsim/rt/interpreter.h"
#include "op_model.h"

namespace hilsim::test {
namespace {

namespace abi = kernels::abi;

// Bases of the firmware memory map.
constexpr uint32_t kModelBase = 0x01000000;
constexpr uint32_t kPersistentBase = 0x20100000;
constexpr uint32_t kArenaBase = 0x21080000;
constexpr uint64_t kCyclesPerCall = 1000;

class FakeCpuTarget final : public rt::CpuTarget {
 public:
  explicit FakeCpuTarget(rt::HostClock& clock, bool map_arena = true)
      : clock_(clock), map_arena_(map_arena) {}

  void mapArena(uint8_t* base, size_t bytes) override {
    expectPages(base, bytes);
    if (map_arena_) regions_.push_back({base, bytes, kArenaBase});
  }
  void mapPersistent(uint8_t* base, size_t bytes) override {
    expectPages(base, bytes);
    regions_.push_back({base, bytes, kPersistentBase + persistent_bytes_});
    persistent_bytes_ += static_cast<uint32_t>(bytes);
  }
  void mapModel(const uint8_t* base, size_t bytes) override {
    regions_.push_back({const_cast<uint8_t*>(base), bytes, kModelBase});
  }

  uint32_t address(const void* host) const override {
    const auto* p = static_cast<const uint8_t*>(host);
    for (const Region& r : regions_)
      if (p >= r.host && p < r.host + r.bytes) return r.target + static_cast<uint32_t>(p - r.host);
    throw SimulationError("host memory outside the target's map");
  }

  uint64_t run(uint32_t kernel_id, const uint32_t* words, size_t count) override {
    EXPECT_EQ(count, abi::kCallHeaderWords + words[0]);
    // The words travel to the target: only what was packed can reach the kernel.
    std::vector<uint32_t> copied(words, words + count);
    const abi::CallStatus status = abi::dispatch(
        kernel_id, copied.data(), [this](uint32_t address) { return pointer(address); });
    if (status != abi::CallStatus::kOk)
      throw SimulationError("kernel " + std::to_string(kernel_id) + " failed with status " +
                            std::to_string(static_cast<uint32_t>(status)));
    ++calls_;
    ++calls_by_kernel_[kernel_id];
    clock_.advance(kCyclesPerCall, rt::CpuActivity::kKernel);
    return kCyclesPerCall;
  }

  uint64_t calls() const { return calls_; }
  const std::map<uint32_t, uint64_t>& callsByKernel() const { return calls_by_kernel_; }

 private:
  struct Region {
    uint8_t* host;
    size_t bytes;
    uint32_t target;
  };

  static void expectPages(const uint8_t* base, size_t bytes) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(base) % 4096, 0u);
    EXPECT_EQ(bytes % 4096, 0u);
    EXPECT_GT(bytes, 0u);
  }

  void* pointer(uint32_t address) const {
    for (const Region& r : regions_)
      if (address >= r.target && address - r.target < r.bytes) return r.host + (address - r.target);
    throw SimulationError("target address outside the map");
  }

  rt::HostClock& clock_;
  bool map_arena_;
  std::vector<Region> regions_;
  uint32_t persistent_bytes_ = 0;
  uint64_t calls_ = 0;
  std::map<uint32_t, uint64_t> calls_by_kernel_;
};

// A model's interpreter whose kernels run on a FakeCpuTarget that charges `clock`. Built in
// place: the interpreter refers to the members before it.
struct OnTarget {
  explicit OnTarget(rt::Model m)
      : model(std::move(m)), target(clock), interp(model, resolver, options()) {}
  rt::InterpreterOptions options() {
    rt::InterpreterOptions o;
    o.clock = &clock;
    o.cpu_target = &target;
    return o;
  }

  rt::Model model;
  const rt::OpResolver resolver = rt::referenceOpResolver();
  rt::CountingClock clock;
  FakeCpuTarget target;
  rt::Interpreter interp;
};

class GoldenOnTarget : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenOnTarget, GivesTflmBytesAndOnlyTheTargetsCycles) {
  const GoldenCase& gc = goldenCase(GetParam());
  for (const GoldenVector& v : gc.vectors) {
    SCOPED_TRACE(v.input);
    OnTarget run(rt::Model::fromFile(gc.model));
    rt::Interpreter& interp = run.interp;
    const FakeCpuTarget& target = run.target;
    interp.allocate();
    const std::vector<uint8_t> input = readFile(v.input);
    const std::vector<uint8_t> expected = readFile(v.expected);
    rt::Tensor& in = interp.input(0);
    rt::Tensor& out = interp.output(0);
    ASSERT_EQ(input.size(), in.bytes * static_cast<size_t>(v.frames));
    std::vector<uint8_t> got;
    for (int f = 0; f < v.frames; ++f) {
      std::memcpy(in.data, input.data() + f * in.bytes, in.bytes);
      interp.invoke();
      got.insert(got.end(), out.data, out.data + out.bytes);
    }
    ASSERT_EQ(got.size(), expected.size());
    size_t differ = 0;
    for (size_t i = 0; i < got.size(); ++i) differ += got[i] != expected[i];
    EXPECT_EQ(differ, 0u) << "bytes differ from TFLM's through the target";
    // Every operator ran on the target, and only its cycles were charged.
    EXPECT_EQ(target.calls(), interp.nodes().size() * static_cast<size_t>(v.frames));
    EXPECT_EQ(run.clock.now(), target.calls() * kCyclesPerCall);
  }
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenOnTarget, ::testing::ValuesIn(goldenCaseNames()),
                         [](const auto& info) { return info.param; });

// Output and variable tensors of `invocations` runs on pseudo-random inputs.
std::vector<uint8_t> runModel(const std::string& path, rt::CpuTarget* target, int invocations) {
  rt::Model model = rt::Model::fromFile(path);
  const rt::OpResolver resolver = rt::referenceOpResolver();
  rt::InterpreterOptions options;
  options.cpu_target = target;
  rt::Interpreter interp(model, resolver, options);
  interp.allocate();
  std::mt19937 random(7);
  std::vector<uint8_t> result;
  for (int i = 0; i < invocations; ++i) {
    for (size_t k = 0; k < interp.inputCount(); ++k) {
      rt::Tensor& in = interp.input(k);
      if (in.type == rt::TensorType::FLOAT32) {
        std::uniform_real_distribution<float> value(-1.0f, 1.0f);
        for (int64_t e = 0; e < in.elements(); ++e) in.as<float>()[e] = value(random);
      } else {
        for (size_t b = 0; b < in.bytes; ++b) in.data[b] = static_cast<uint8_t>(random());
      }
    }
    interp.invoke();
    for (size_t k = 0; k < interp.outputCount(); ++k)
      result.insert(result.end(), interp.output(k).data,
                    interp.output(k).data + interp.output(k).bytes);
  }
  for (const rt::Tensor& t : interp.tensors())
    if (t.is_variable && t.data) result.insert(result.end(), t.data, t.data + t.bytes);
  return result;
}

class RealModelOnTarget : public ::testing::TestWithParam<std::string> {};

TEST_P(RealModelOnTarget, GivesTheHostsBytes) {
  const std::string path = sharedDir() + "/models/" + GetParam() + ".tflite";
  rt::CountingClock clock;
  FakeCpuTarget target(clock);
  const std::vector<uint8_t> on_host = runModel(path, nullptr, 2);
  const std::vector<uint8_t> on_target = runModel(path, &target, 2);
  EXPECT_GT(target.calls(), 0u);
  ASSERT_EQ(on_host.size(), on_target.size());
  EXPECT_TRUE(on_host == on_target) << "the target's bytes differ from the host's";
}

INSTANTIATE_TEST_SUITE_P(
    Models, RealModelOnTarget,
    ::testing::Values("hello_world_int8", "hello_world_float", "micro_speech_quantized",
                      "keyword_scrambled_8bit", "keyword_scrambled", "person_detect",
                      "trained_lstm_int8", "micro_speech_lstm", "dtln_noise_suppression",
                      "mobilenet_v2_quantized_1x3x224x224", "mlperf_ad01_int8",
                      "mlperf_ad_toycar_fullint_micro", "mlperf_kws_ref_model",
                      "mlperf_vww_96_int8", "mlperf_ic_resnet8_quant",
                      "mlperf_ic_resnet_large_int8", "mlperf_str_ww_ref_model"),
    [](const auto& info) { return info.param; });

TEST(CpuTarget, MemoryOutsideTheMapFailsNamingTheOperator) {
  const GoldenCase& gc = goldenCase("fc_1x1_pt");
  rt::Model model = rt::Model::fromFile(gc.model);
  const rt::OpResolver resolver = rt::referenceOpResolver();
  rt::CountingClock clock;
  FakeCpuTarget target(clock, /*map_arena=*/false);
  rt::InterpreterOptions options;
  options.cpu_target = &target;
  rt::Interpreter interp(model, resolver, options);
  interp.allocate();
  try {
    interp.invoke();
    FAIL() << "an arena pointer was translated without the arena being mapped";
  } catch (const SimulationError& e) {
    EXPECT_NE(std::string(e.what()).find("operator 0 (FULLY_CONNECTED)"), std::string::npos)
        << e.what();
  }
}

// RESHAPE and SQUEEZE copy the input's bytes with one call, and of an empty tensor nothing:
// no call reaches the target, and non-empty ones make one call each.
TEST(CpuTarget, ByteCopiesOfEmptyTensorsMakeNoCall) {
  const auto copies = [](std::vector<int32_t> in_shape, std::vector<int32_t> squeezed,
                         std::vector<int32_t> reshaped) {
    OpModel m;
    const int32_t in = m.addTensor(tensor(tflite::TensorType::INT8, std::move(in_shape)));
    const int32_t mid = m.addTensor(tensor(tflite::TensorType::INT8, std::move(squeezed)));
    const int32_t out = m.addTensor(tensor(tflite::TensorType::INT8, std::move(reshaped)));
    m.addOp(tflite::BuiltinOperator::SQUEEZE, {in}, {mid});
    m.addOp(tflite::BuiltinOperator::RESHAPE, {mid}, {out});
    m.setInputs({in});
    m.setOutputs({out});
    const std::vector<uint8_t> bytes = m.finish();
    OnTarget run(rt::Model::fromBytes(bytes, "copies"));
    rt::Interpreter& interp = run.interp;
    interp.allocate();
    for (size_t i = 0; i < interp.input(0).bytes; ++i) interp.input(0).data[i] = uint8_t(i + 1);
    interp.invoke();
    const rt::Tensor& result = interp.output(0);
    for (size_t i = 0; i < result.bytes; ++i) EXPECT_EQ(result.data[i], uint8_t(i + 1));
    return run.target.calls();
  };
  EXPECT_EQ(copies({1, 0, 3}, {0, 3}, {3, 0}), 0u);
  EXPECT_EQ(copies({1, 2, 3}, {2, 3}, {3, 2}), 2u);
}

TEST(CpuTarget, WithoutATargetTheCostModelIsCharged) {
  const GoldenCase& gc = goldenCase("fc_1x1_pt");
  rt::Model model = rt::Model::fromFile(gc.model);
  const rt::OpResolver resolver = rt::referenceOpResolver();
  rt::CountingClock clock;
  rt::InterpreterOptions options;
  options.clock = &clock;
  rt::Interpreter interp(model, resolver, options);
  interp.invoke();
  uint64_t modelled = 0;
  for (size_t n = 0; n < interp.nodes().size(); ++n)
    modelled += interp.costModel().cycles(interp.nodes()[n].op, interp.work()[n]);
  EXPECT_GT(modelled, 0u);
  EXPECT_EQ(clock.now(), modelled);
}

}  // namespace
}  // namespace hilsim::test
