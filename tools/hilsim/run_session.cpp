#include "run_session.h"

#include <chrono>
#include <cstring>

#include "hilsim/errors.h"
#include "hilsim/rt/interpreter.h"
#include "model_gen.h"
#include "rng.h"
#include "sha256.h"

namespace hilsim::cli {
namespace {

MlpSpec demoSpec() {
  MlpSpec spec;
  spec.layers = {784, 256, 128, 10};
  spec.activation = "relu";
  spec.per_channel = true;
  spec.seed = 1;
  return spec;
}

// Deterministic pseudo-random contents for an input tensor, within its quantized range.
void fillRandom(rt::Tensor& t, Rng& rng) {
  const size_t count = static_cast<size_t>(t.elements());
  switch (t.type) {
    case rt::TensorType::INT8:
      for (size_t i = 0; i < count; ++i) t.as<int8_t>()[i] = static_cast<int8_t>(rng.range(-128, 127));
      break;
    case rt::TensorType::INT16:
      for (size_t i = 0; i < count; ++i)
        t.as<int16_t>()[i] = static_cast<int16_t>(rng.range(-32768, 32767));
      break;
    case rt::TensorType::INT32:
      for (size_t i = 0; i < count; ++i)
        t.as<int32_t>()[i] = static_cast<int32_t>(rng.range(-1000000, 1000000));
      break;
    case rt::TensorType::FLOAT32: {
      double lo = -1.0, hi = 1.0;
      if (!t.quant.empty()) {
        lo = t.quant.scale0() * (-128.0 - t.quant.zero_point0());
        hi = t.quant.scale0() * (127.0 - t.quant.zero_point0());
      }
      for (size_t i = 0; i < count; ++i)
        t.as<float>()[i] = static_cast<float>(lo + (hi - lo) * rng.unit());
      break;
    }
    default:
      for (size_t i = 0; i < t.bytes; ++i) t.data[i] = static_cast<uint8_t>(rng.next());
  }
}

}  // namespace

Mode parseMode(const std::string& text) {
  if (text == "auto") return Mode::kAuto;
  if (text == "accel") return Mode::kAccel;
  if (text == "ref") return Mode::kRef;
  if (text == "compare") return Mode::kCompare;
  throw UsageError("--mode: '" + text + "' is not one of auto|accel|ref|compare");
}

const char* modeName(Mode mode) {
  switch (mode) {
    case Mode::kAuto: return "auto";
    case Mode::kAccel: return "accel";
    case Mode::kRef: return "ref";
    case Mode::kCompare: return "compare";
  }
  return "?";
}

std::vector<uint8_t> demoModelBytes() { return generateMlp(demoSpec()); }
std::string demoModelLabel() { return "demo (" + describe(demoSpec()) + ")"; }

RunResult runModel(rt::Model& model, const RunSpec& spec) {
  if (spec.mode != Mode::kRef)
    throw UsageError(std::string("--mode ") + modeName(spec.mode) +
                     " needs the accelerator model, which this build does not include");
  RunResult result;
  RunReport& report = result.report;
  report.model_path = model.label();
  report.model_sha256 = sha256Hex(model.bytes().data(), model.bytes().size());
  report.mode = modeName(spec.mode);
  report.config_source = spec.config_source;
  report.config = spec.config;

  LayerCollector collector;
  rt::CountingClock clock;
  rt::InterpreterOptions options;
  options.clock = &clock;
  options.profiler = &collector;
  options.cost_model = rt::CpuCostModel(spec.config.cpu.coefficients);
  const rt::OpResolver resolver = rt::referenceOpResolver();
  rt::Interpreter interp(model, resolver, options);
  interp.allocate();
  report.arena_bytes = interp.arenaPlan().total_bytes;

  rt::Tensor& in = interp.input(0);
  rt::Tensor& out = interp.output(0);
  uint64_t frames = spec.invocations;
  if (!spec.input.empty()) {
    if (in.bytes == 0 || spec.input.size() % in.bytes != 0)
      throw InputError("--input holds " + std::to_string(spec.input.size()) +
                       " bytes, which is not a whole number of " + std::to_string(in.bytes) +
                       "-byte frames of input tensor 0 (" + rt::typeName(in.type) + " " +
                       rt::shapeString(in.shape) + ")");
    frames = spec.input.size() / in.bytes;
  }
  Rng rng(spec.seed);
  const auto start = std::chrono::steady_clock::now();
  result.output.reserve(static_cast<size_t>(frames) * out.bytes);
  for (uint64_t f = 0; f < frames; ++f) {
    if (spec.input.empty()) {
      for (size_t i = 0; i < interp.inputCount(); ++i) fillRandom(interp.input(i), rng);
    } else {
      std::memcpy(in.data, spec.input.data() + f * in.bytes, in.bytes);
      for (size_t i = 1; i < interp.inputCount(); ++i) fillRandom(interp.input(i), rng);
    }
    interp.invoke();
    result.output.insert(result.output.end(), out.data, out.data + out.bytes);
  }
  report.host_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.invocations = static_cast<uint32_t>(frames);
  report.simulated_cycles = clock.now();
  report.layers = collector.records();
  return result;
}

}  // namespace hilsim::cli
