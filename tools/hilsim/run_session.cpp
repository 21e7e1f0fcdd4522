#include "run_session.h"

#include <chrono>
#include <cstring>
#include <memory>

#include "hilsim/config/derived.h"
#include "hilsim/errors.h"
#include "hilsim/model/platform.h"
#include "hilsim/rt/interpreter.h"
#include "hilsim/rt/kernels/fully_connected_accel.h"
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
      for (size_t i = 0; i < count; ++i)
        t.as<int8_t>()[i] = static_cast<int8_t>(rng.range(-128, 127));
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

// Feeds every frame through one interpreter and collects output tensor 0.
void runFrames(rt::Interpreter& interp, const RunSpec& spec, RunResult* result) {
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
  result->output.reserve(static_cast<size_t>(frames) * out.bytes);
  for (uint64_t f = 0; f < frames; ++f) {
    if (spec.input.empty()) {
      for (size_t i = 0; i < interp.inputCount(); ++i) fillRandom(interp.input(i), rng);
    } else {
      std::memcpy(in.data, spec.input.data() + f * in.bytes, in.bytes);
      for (size_t i = 1; i < interp.inputCount(); ++i) fillRandom(interp.input(i), rng);
    }
    interp.invoke();
    result->output.insert(result->output.end(), out.data, out.data + out.bytes);
  }
  result->report.invocations = static_cast<uint32_t>(frames);
  result->report.arena_bytes = interp.arenaPlan().total_bytes;
}

// Forwards layer records to the collector and marks the current layer in the trace.
class TracingProfiler final : public rt::Profiler {
 public:
  TracingProfiler(LayerCollector& collector, model::HostCpu& host)
      : collector_(collector), host_(host) {}
  void beginLayer(uint32_t invocation, int node) override {
    if (invocation != invocation_) host_.traceInvocation(invocation_ = invocation);
    host_.traceLayer(node);
  }
  void endLayer(const rt::LayerRecord& record) override {
    host_.traceLayer(std::nullopt);
    collector_.endLayer(record);
  }

 private:
  LayerCollector& collector_;
  model::HostCpu& host_;
  uint32_t invocation_ = UINT32_MAX;
};

rt::OffloadMode offloadMode(Mode mode) {
  switch (mode) {
    case Mode::kAccel:
      return rt::OffloadMode::kAccel;
    case Mode::kCompare:
      return rt::OffloadMode::kCompare;
    default:
      return rt::OffloadMode::kAuto;
  }
}

void runOnCountingClock(rt::Model& model, const RunSpec& spec, RunResult* result,
                        LayerCollector& collector) {
  rt::CountingClock clock;
  rt::InterpreterOptions options;
  options.clock = &clock;
  options.profiler = &collector;
  options.cost_model = config::costModel(spec.config);
  const rt::OpResolver resolver = rt::referenceOpResolver();
  rt::Interpreter interp(model, resolver, options);
  interp.allocate();
  runFrames(interp, spec, result);
  result->report.simulated_cycles = clock.now();
}

// The GTKWave save file beside a trace: t.vcd -> t.gtkw (other names get .gtkw appended).
std::string gtkwPath(const std::string& vcd_path) {
  const std::string ext = ".vcd";
  const size_t slash = vcd_path.find_last_of('/');
  const size_t base = slash == std::string::npos ? 0 : slash + 1;
  if (vcd_path.size() > base + ext.size() &&
      vcd_path.compare(vcd_path.size() - ext.size(), ext.size(), ext) == 0)
    return vcd_path.substr(0, vcd_path.size() - ext.size()) + ".gtkw";
  return vcd_path + ".gtkw";
}

void runOnSimulatedPlatform(rt::Model& model, const RunSpec& spec, RunResult* result,
                            LayerCollector& collector) {
  std::unique_ptr<model::Tracer> tracer;
  if (spec.vcd_path) tracer = std::make_unique<model::Tracer>();
  // SystemC modules live until the process ends.
  static std::unique_ptr<model::Platform> platform;
  platform = std::make_unique<model::Platform>("platform", spec.config, tracer.get());
  model::HostCpu& host = platform->host();
  std::vector<std::string> failures;
  model::runOnPlatform(*platform, [&] {
    drv::Driver driver(host, config::driverOptions(spec.config));
    if (driver.open() != drv::Status::kOk)
      throw SimulationError("driver cannot open the accelerator: " + driver.lastError());
    rt::AccelContext accel(driver, config::planHardware(spec.config),
                           config::planTiming(spec.config), config::costModel(spec.config),
                           offloadMode(spec.mode));
    accel.loadMetadataPlans(model);
    accel.setFailureContext([&platform = *platform] {
      return "last transaction: " + platform.jobFailureTransaction().describe();
    });
    rt::OpResolver resolver = rt::referenceOpResolver();
    if (spec.mode != Mode::kRef)
      resolver.add(tflite::BuiltinOperator::FULLY_CONNECTED,
                   [&accel] { return rt::makeFullyConnectedAccel(accel); });
    TracingProfiler profiler(collector, host);
    rt::InterpreterOptions options;
    options.clock = &host;
    options.profiler = &profiler;
    options.cost_model = config::costModel(spec.config);
    rt::Interpreter interp(model, resolver, options);
    interp.allocate();
    runFrames(interp, spec, result);
    result->report.notes = accel.notes();
    failures = accel.failures();
    result->report.failures = failures;
    result->report.simulated_cycles = host.now();
  });
  if (!failures.empty()) {
    // The first failed job, where it happened, and how many accelerator jobs ran after it.
    std::optional<uint32_t> invocation;
    size_t later = 0;
    for (const rt::LayerRecord& r : collector.records()) {
      if (invocation && r.path == rt::ExecPath::kAccel) ++later;
      if (!invocation && r.reason.rfind("accelerator job failed", 0) == 0) invocation = r.invocation;
    }
    result->failure =
        (invocation ? "invocation " + std::to_string(*invocation) + ", " : std::string()) +
        failures.front() +
        (failures.size() > 1 ? "; " + std::to_string(failures.size() - 1) + " more jobs failed"
                             : std::string()) +
        "; the failed layer" + (failures.size() > 1 ? "s were" : " was") +
        " computed on the CPU and " + std::to_string(later) + " later accelerator job" +
        (later == 1 ? "" : "s") + " completed";
  }
  if (tracer) {
    if (spec.vcd_layers) {
      const auto [first, last] = *spec.vcd_layers;
      std::optional<uint64_t> from, to;
      for (const rt::LayerRecord& r : collector.records()) {
        if (r.invocation != 0) break;
        if (r.index == first) from = r.start_cycle;
        if (r.index == last) to = r.start_cycle + r.cycles;
      }
      if (!from || !to)
        throw UsageError("--vcd-layers " + std::to_string(first) + "-" + std::to_string(last) +
                         ": the model has no such layers");
      const sc_core::sc_time period = platform->clocks().cpu;
      tracer->setWindow(period * static_cast<double>(*from), period * static_cast<double>(*to));
    }
    tracer->write(*spec.vcd_path, std::string("hilsim ") + HILSIM_VERSION);
    tracer->writeGtkw(gtkwPath(*spec.vcd_path), *spec.vcd_path);
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
    case Mode::kAuto:
      return "auto";
    case Mode::kAccel:
      return "accel";
    case Mode::kRef:
      return "ref";
    case Mode::kCompare:
      return "compare";
  }
  return "?";
}

std::pair<int, int> parseLayerRange(const std::string& text) {
  const size_t dash = text.find('-');
  const std::string a = text.substr(0, dash);
  const std::string b = dash == std::string::npos ? a : text.substr(dash + 1);
  auto number = [&](const std::string& s) {
    if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos)
      throw UsageError("--vcd-layers: '" + text + "' is not a layer range like 2-5");
    return std::stoi(s);
  };
  const int first = number(a), last = number(b);
  if (first > last) throw UsageError("--vcd-layers: '" + text + "' ends before it starts");
  return {first, last};
}

std::vector<uint8_t> demoModelBytes() {
  return generateMlp(demoSpec());
}
std::string demoModelLabel() {
  return "demo (" + describe(demoSpec()) + ")";
}

RunResult runModel(rt::Model& model, const RunSpec& spec) {
  RunResult result;
  RunReport& report = result.report;
  report.model_path = model.label();
  report.model_sha256 = sha256Hex(model.bytes().data(), model.bytes().size());
  report.mode = modeName(spec.mode);
  report.config_source = spec.config_source;
  report.config = spec.config;
  LayerCollector collector;
  const auto start = std::chrono::steady_clock::now();
  if (spec.mode == Mode::kRef && !spec.vcd_path)
    runOnCountingClock(model, spec, &result, collector);
  else
    runOnSimulatedPlatform(model, spec, &result, collector);
  report.host_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.layers = collector.records();
  return result;
}

}  // namespace hilsim::cli
