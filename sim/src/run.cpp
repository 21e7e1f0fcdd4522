#include "hilsim/sim/run.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>

#include "hilsim/base/rng.h"
#include "hilsim/base/sha256.h"
#include "hilsim/config/derived.h"
#include "hilsim/errors.h"
#include "hilsim/firmware/images.h"
#include "hilsim/iss/elf.h"
#include "hilsim/model/gtkw.h"
#include "hilsim/model/timeline.h"
#include "hilsim/rt/interpreter.h"

namespace hilsim::sim {
namespace {

// count values of gen(rng) into out. The generator and the pointer are locals, so that stores
// through the tensor's bytes (which may alias anything) do not force them through memory on
// every element.
template <typename T, typename Gen>
void fillWith(T* out, size_t count, Rng& shared, Gen gen) {
  Rng rng = shared;
  for (size_t i = 0; i < count; ++i) out[i] = gen(rng);
  shared = rng;
}

// count bytes from consecutive 64-bit outputs of rng, least significant byte first (the same on
// every platform): one generator step per 8 bytes.
void fillBytes(uint8_t* out, size_t count, Rng& shared) {
  Rng rng = shared;
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    uint64_t v = rng.next();
#if defined(__GNUC__)
    // Keeps the loop scalar: vectorized, the 64-bit multiplies are emulated and 3x slower.
    asm("" : "+r"(v));
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    std::memcpy(out + i, &v, sizeof v);
  }
  if (i < count) {
    const uint64_t v = rng.next();
    for (size_t b = 0; i < count; ++i, ++b) out[i] = static_cast<uint8_t>(v >> (8 * b));
  }
  shared = rng;
}

// Deterministic pseudo-random contents for an input tensor, within its quantized range. 8- and
// 16-bit integers take every bit pattern with equal probability, 8 or 4 values per generator step.
void fillRandom(rt::Tensor& t, Rng& rng) {
  const size_t count = static_cast<size_t>(t.elements());
  switch (t.type) {
    case rt::TensorType::INT32:
      fillWith(t.as<int32_t>(), count, rng,
               [](Rng& r) { return static_cast<int32_t>(r.range(-1000000, 1000000)); });
      break;
    case rt::TensorType::FLOAT32: {
      double lo = -1.0, hi = 1.0;
      if (!t.quant.empty()) {
        lo = t.quant.scale0() * (-128.0 - t.quant.zero_point0());
        hi = t.quant.scale0() * (127.0 - t.quant.zero_point0());
      }
      fillWith(t.as<float>(), count, rng,
               [lo, hi](Rng& r) { return static_cast<float>(lo + (hi - lo) * r.unit()); });
      break;
    }
    default:  // INT8, INT16 and the other types: every byte pattern
      fillBytes(t.data, t.bytes, rng);
  }
}

// Passes the layer records on and tells the run's progress callback after each layer.
class ProgressProfiler final : public rt::Profiler {
 public:
  ProgressProfiler(rt::Profiler& next, const ProgressCallback& progress)
      : next_(next), progress_(progress) {}
  void setTotal(uint64_t layers) { total_ = layers; }
  void beginLayer(uint32_t invocation, int node) override { next_.beginLayer(invocation, node); }
  void endLayer(const rt::LayerRecord& record) override {
    next_.endLayer(record);
    if (progress_) progress_(++done_, total_);
  }

 private:
  rt::Profiler& next_;
  const ProgressCallback& progress_;
  uint64_t done_ = 0, total_ = 0;
};

// Feeds every frame through one interpreter and collects output tensor 0.
void runFrames(rt::Interpreter& interp, const RunSpec& spec, RunResult* result,
               ProgressProfiler& progress) {
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
  const bool collect = spec.keep_output && !spec.output_sink;
  if (collect) result->output.reserve(static_cast<size_t>(frames) * out.bytes);
  progress.setTotal(frames * interp.nodes().size());
  for (uint64_t f = 0; f < frames; ++f) {
    if (spec.input.empty()) {
      for (size_t i = 0; i < interp.inputCount(); ++i) fillRandom(interp.input(i), rng);
    } else {
      std::memcpy(in.data, spec.input.data() + f * in.bytes, in.bytes);
      for (size_t i = 1; i < interp.inputCount(); ++i) fillRandom(interp.input(i), rng);
    }
    interp.invoke();
    if (spec.output_sink)
      spec.output_sink(out.data, out.bytes);
    else if (collect)
      result->output.insert(result->output.end(), out.data, out.data + out.bytes);
  }
  result->report.invocations = static_cast<uint32_t>(frames);
  result->report.memory.arena = interp.arenaFootprint();
}

// Forwards layer records to the collector, marks the current layer in the trace and puts each
// layer's span on the timeline.
class TracingProfiler final : public rt::Profiler {
 public:
  TracingProfiler(report::LayerCollector& collector, model::HostCpu& host,
                  const rt::AccelContext& accel, model::Timeline* timeline,
                  sc_core::sc_time cpu_period)
      : collector_(collector),
        host_(host),
        accel_(accel),
        timeline_(timeline),
        cpu_period_(cpu_period) {}
  // Bounds the VCD written by `tracer` to the first invocation's layers `range` as they run.
  void boundTrace(model::Tracer* tracer, const std::pair<int, int>& range) {
    window_tracer_ = tracer;
    window_layers_ = range;
    tracer->boundWindow();
  }
  void beginLayer(uint32_t invocation, int node) override {
    if (invocation != invocation_) host_.traceInvocation(invocation_ = invocation);
    host_.traceLayer(node);
    if (!window_tracer_) return;
    if (invocation != 0) {
      // The first invocation did not have the layers: run() reports it, the VCD is not written.
      if (!window_tracer_->windowKnown()) window_tracer_->abandon();
      window_tracer_ = nullptr;
      return;
    }
    // The window starts when layer A starts, and cannot end before a layer up to B starts.
    const sc_core::sc_time now = cpu_period_ * static_cast<double>(host_.now());
    if (node == window_layers_.first) window_tracer_->windowStart(now);
    if (node <= window_layers_.second) window_tracer_->windowEndsAfter(now);
  }
  void endLayer(const rt::LayerRecord& record) override {
    host_.traceLayer(std::nullopt);
    if (timeline_)
      timeline_->layer(record.invocation, record.index, record.name, rt::opName(record.op),
                       rt::pathName(record.path),
                       cpu_period_ * static_cast<double>(record.start_cycle),
                       cpu_period_ * static_cast<double>(record.start_cycle + record.cycles));
    if (window_tracer_ && record.invocation == 0 && record.index == window_layers_.second)
      window_tracer_->windowEnd(cpu_period_ *
                                static_cast<double>(record.start_cycle + record.cycles));
    collector_.endLayer(record);
    // The first failed job fails the layer whose record this is.
    if (!accel_records_at_failure_ && !accel_.failures().empty())
      accel_records_at_failure_ = collector_.accelRecords();
  }
  // Accelerated layers that completed after the layer of the first failed job.
  uint64_t accelRecordsAfterFailure() const {
    return collector_.accelRecords() - accel_records_at_failure_.value_or(0);
  }

 private:
  report::LayerCollector& collector_;
  model::HostCpu& host_;
  const rt::AccelContext& accel_;
  model::Timeline* timeline_;
  sc_core::sc_time cpu_period_;
  uint32_t invocation_ = UINT32_MAX;
  std::optional<uint64_t> accel_records_at_failure_;
  model::Tracer* window_tracer_ = nullptr;
  std::pair<int, int> window_layers_;
};

void runOnCountingClock(rt::Model& model, const RunSpec& spec, RunResult* result,
                        report::LayerCollector& collector) {
  rt::CountingClock clock;
  const std::unique_ptr<firmware::HostMcu> mcu = makeHostMcu(spec.config, clock);
  ProgressProfiler progress(collector, spec.progress);
  rt::InterpreterOptions options;
  options.clock = &clock;
  options.profiler = &progress;
  options.cost_model = config::costModel(spec.config);
  options.kernels = spec.config.cpu.kernels;
  options.cpu_target = mcu.get();
  const rt::OpResolver resolver = rt::referenceOpResolver();
  rt::Interpreter interp(model, resolver, options);
  interp.allocate();
  runFrames(interp, spec, result, progress);
  result->report.simulated_cycles = clock.now();
  if (mcu) {
    result->report.iss_instructions = mcu->cpu().instructions();
    result->report.flash = mcu->flashCounts();
  }
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

// One line for the failed accelerator jobs: the first, where it happened, and how many
// accelerator jobs (`later`) ran after it.
std::string summarizeFailures(const std::vector<rt::JobFailure>& failures, uint64_t later) {
  const rt::JobFailure& first = failures.front();
  return "invocation " + std::to_string(first.invocation) + ", " + first.describe() +
         (failures.size() > 1 ? "; " + std::to_string(failures.size() - 1) + " more jobs failed"
                              : std::string()) +
         "; the failed layer" + (failures.size() > 1 ? "s were" : " was") +
         " computed on the CPU and " + std::to_string(later) + " later accelerator job" +
         (later == 1 ? "" : "s") + " completed";
}

// The first invocation's cycles from the start of layer range.first to the end of range.second.
// Throws UsageError naming `option` when the model has no such layers.
std::pair<uint64_t, uint64_t> layerWindow(const std::string& option,
                                          const std::pair<int, int>& range,
                                          const std::vector<rt::LayerRecord>& records) {
  const auto [first, last] = range;
  std::optional<uint64_t> from, to;
  for (const rt::LayerRecord& r : records) {
    if (r.invocation != 0) break;
    if (r.index == first) from = r.start_cycle;
    if (r.index == last) to = r.start_cycle + r.cycles;
  }
  if (!from || !to)
    throw UsageError(option + " " + std::to_string(first) + "-" + std::to_string(last) +
                     ": the model has no such layers");
  return {*from, *to};
}

void runOnSimulatedPlatform(rt::Model& model, const RunSpec& spec, RunResult* result,
                            report::LayerCollector& collector) {
  // The timeline listens to the tracer's signals; the tracer writes the VCD as the run goes.
  std::unique_ptr<model::Tracer> tracer;
  std::unique_ptr<model::Timeline> timeline;
  if (spec.vcd_path || spec.timeline_path) tracer = std::make_unique<model::Tracer>();
  if (spec.vcd_path) tracer->open(*spec.vcd_path, std::string("hilsim ") + HILSIM_VERSION);
  if (spec.timeline_path) {
    timeline = std::make_unique<model::Timeline>(*spec.timeline_path, spec.timeline_layers);
    tracer->setSink(timeline.get());
  }
  const uint64_t cpu_ps = config::platformTiming(spec.config).clocks.cpu_ps;
  const sc_core::sc_time cpu_period(static_cast<double>(cpu_ps), sc_core::SC_PS);
  std::vector<rt::JobFailure> failures;
  uint64_t later_accel_jobs = 0;
  sc_core::sc_time end;
  runSession(spec.config, spec.mode, tracer.get(), [&](HostSide& side) {
    side.accel.loadMetadataPlans(model);
    side.accel.setEnergy(spec.config.energy.params(), spec.objective);
    TracingProfiler profiler(collector, side.host, side.accel, timeline.get(), cpu_period);
    if (spec.vcd_path && spec.vcd_layers) profiler.boundTrace(tracer.get(), *spec.vcd_layers);
    ProgressProfiler progress(profiler, spec.progress);
    rt::InterpreterOptions options;
    options.clock = &side.host;
    options.profiler = &progress;
    options.cost_model = config::costModel(spec.config);
    options.kernels = spec.config.cpu.kernels;
    options.cpu_target = side.mcu;
    rt::Interpreter interp(model, side.resolver, options);
    interp.allocate();
    runFrames(interp, spec, result, progress);
    result->report.notes = side.accel.notes();
    report::MemoryFootprint& memory = result->report.memory;
    memory.device_memory_bytes = side.driver.info().mem_size;
    memory.device_memory_peak_bytes = side.accel.deviceMemoryReserved();
    memory.core_sram_peak_bytes = side.accel.coreSramPeak();
    failures = side.accel.failures();
    for (const rt::JobFailure& f : failures) result->report.failures.push_back(f.describe());
    result->report.simulated_cycles = side.host.now();
    if (side.mcu) {
      result->report.iss_instructions = side.mcu->cpu().instructions();
      result->report.flash = side.mcu->flashCounts();
    }
    end = cpu_period * static_cast<double>(side.host.now());
    later_accel_jobs = profiler.accelRecordsAfterFailure();
  });
  if (!failures.empty()) result->failure = summarizeFailures(failures, later_accel_jobs);
  if (timeline) {
    if (spec.timeline_layers)
      layerWindow("--timeline-layers", *spec.timeline_layers, collector.records());
    timeline->commit(std::max(end, sc_core::sc_time_stamp()));
    tracer->setSink(nullptr);
  }
  if (spec.vcd_path) {
    if (spec.vcd_layers) layerWindow("--vcd-layers", *spec.vcd_layers, collector.records());
    tracer->finish();
    model::writeGtkw(*tracer, gtkwPath(*spec.vcd_path), *spec.vcd_path);
  }
}

// The bytes the preset's firmware image puts in flash: every loadable segment's file bytes (code,
// read-only data, and the initial values a data section is copied from at reset); nullopt when
// the preset has no image or the build made none.
std::optional<uint64_t> firmwareFlashBytes(const config::CpuConfig& cpu) {
  const std::vector<std::string>& presets = firmware::presets();
  if (std::find(presets.begin(), presets.end(), cpu.preset) == presets.end()) return std::nullopt;
  try {
    const iss::ElfImage image = iss::ElfImage::fromFile(firmware::imagePath(cpu.preset));
    uint64_t bytes = 0;
    for (const iss::ElfSegment& segment : image.segments()) bytes += segment.bytes.size();
    return bytes;
  } catch (const InputError&) {
    return std::nullopt;
  }
}

}  // namespace

RunResult runModel(rt::Model& model, const RunSpec& spec) {
  RunResult result;
  report::RunReport& report = result.report;
  report.model_path = model.label();
  report.model_sha256 = sha256Hex(model.bytes().data(), model.bytes().size());
  report.mode = modeName(spec.mode);
  report.config_source = spec.config_source;
  report.config = spec.config;
  report.with_accelerator = spec.mode != Mode::kRef;
  const config::HardwareConfig& config = report.config;
  const bool with_accelerator = report.with_accelerator;
  report::LayerCollector collector(spec.per_invocation,
                                   [&config, with_accelerator](const rt::LayerRecord& record) {
                                     return report::layerActions(record, config, with_accelerator);
                                   });
  if (spec.record_sink) collector.setSink(spec.record_sink);
  const auto start = std::chrono::steady_clock::now();
  if (spec.mode == Mode::kRef && !spec.vcd_path && !spec.timeline_path)
    runOnCountingClock(model, spec, &result, collector);
  else
    runOnSimulatedPlatform(model, spec, &result, collector);
  report.host_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.layers = collector.records();
  report.per_invocation = spec.per_invocation;
  report.layer_stats = collector.stats();
  report.memory.model_bytes = model.bytes().size();
  report.memory.firmware_bytes = firmwareFlashBytes(spec.config.cpu);
  if (report.memory.core_sram_peak_bytes.empty())
    report.memory.core_sram_peak_bytes.assign(spec.config.accel.num_cores, 0);
  for (std::string& warning : report.budgetWarnings()) report.notes.push_back(std::move(warning));
  return result;
}

}  // namespace hilsim::sim
