#include "hilsim/model/timeline.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "hilsim/errors.h"

namespace hilsim::model {
namespace {

constexpr int kCpuPid = 1;
constexpr int kBusPid = 2;
constexpr int kDmaPid = 3;
constexpr int kCorePid = 10;  // core i is process kCorePid + i

// Trace-event times are microseconds, and viewers place a span's end at ts + dur summed in
// float64. Times are therefore written as multiples of 1/1024 us (0.98 ns): such values and their
// sums are exact in a double below 2^43 us (100 days of simulated time), so a span that ends where
// its parent ends, or before, does so in the viewer too, and spans that touch do not overlap.
constexpr uint64_t kTicksPerMicro = 1024;

// Picoseconds to 1/1024 us, to the nearest tick (monotonic, so nesting and order are kept).
uint64_t ticks(uint64_t ps) {
  constexpr uint64_t kPsPerMicro = 1'000'000;
  return ps / kPsPerMicro * kTicksPerMicro +
         ((ps % kPsPerMicro) * kTicksPerMicro + kPsPerMicro / 2) / kPsPerMicro;
}

double micros(uint64_t ticks) {
  return static_cast<double>(ticks) / static_cast<double>(kTicksPerMicro);
}

// One event per line, members separated as the format's examples write them; numbers in the
// shortest text that reads back as the same double.
std::string eventText(const Json& event) {
  static const JsonLayout layout{0, [](double us, const JsonPath&) {
                                   char text[40];
                                   const std::to_chars_result r =
                                       std::to_chars(text, text + sizeof text, us);
                                   return std::string(text, r.ptr);
                                 }};
  return formatJson(event, layout);
}

// "core3" -> 3, "dma.ch1" -> 1: the number ending a scope.
int scopeNumber(const std::string& scope) {
  size_t i = scope.size();
  while (i > 0 && scope[i - 1] >= '0' && scope[i - 1] <= '9') --i;
  return i == scope.size() ? 0 : std::stoi(scope.substr(i));
}

const char* phaseName(uint64_t phase) {
  switch (phase) {
    case 1:
      return "startup";
    case 2:
      return "load";
    case 3:
      return "compute";
    case 4:
      return "store";
    default:
      return "phase";
  }
}

}  // namespace

Timeline::Timeline(std::string path, std::optional<std::pair<int, int>> layers)
    : path_(std::move(path)), layers_(layers) {
  tmp_ = path_ + ".tmp." + std::to_string(::getpid());
  tmp_registration_ = RegisteredTemporary(tmp_);
  out_.open(tmp_, std::ios::binary);
  if (!out_) throw InputError("cannot write timeline '" + path_ + "'");
  out_ << "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n";
}

Timeline::~Timeline() {
  if (!committed_) {
    out_.close();
    std::remove(tmp_.c_str());
  }
}

void Timeline::event(const Json& event) {
  if (!first_event_) out_ << ",\n";
  first_event_ = false;
  out_ << eventText(event);
}

Timeline::Track Timeline::track(const std::string& process, int pid, const std::string& thread,
                                int tid) {
  if (named_processes_.insert(pid).second) {
    event({{"ph", "M"},
           {"name", "process_name"},
           {"pid", pid},
           {"tid", 0},
           {"args", {{"name", process}}}});
    event({{"ph", "M"},
           {"name", "process_sort_index"},
           {"pid", pid},
           {"tid", 0},
           {"args", {{"sort_index", pid}}}});
  }
  if (named_tracks_.insert({pid, tid}).second)
    event({{"ph", "M"},
           {"name", "thread_name"},
           {"pid", pid},
           {"tid", tid},
           {"args", {{"name", thread}}}});
  return {pid, tid};
}

bool Timeline::inWindow(uint64_t begin_ps) const {
  if (!layers_) return true;
  return window_from_ps_ && begin_ps >= *window_from_ps_ &&
         (!window_to_ps_ || begin_ps < *window_to_ps_);
}

namespace {

// A complete ("X") event from begin to end, in ticks.
Json spanEvent(int pid, int tid, const std::string& name, uint64_t begin_ps, uint64_t end_ps,
               Json args) {
  const uint64_t begin = ticks(begin_ps);
  const uint64_t end = ticks(std::max(begin_ps, end_ps));
  Json e;
  e["ph"] = "X";
  e["name"] = name;
  e["pid"] = pid;
  e["tid"] = tid;
  e["ts"] = micros(begin);
  e["dur"] = micros(end - begin);
  e["args"] = std::move(args);
  return e;
}

}  // namespace

void Timeline::span(const Track& track, const std::string& name, uint64_t begin_ps, uint64_t end_ps,
                    Json args) {
  Json e = spanEvent(track.pid, track.tid, name, begin_ps, end_ps, std::move(args));
  if (track.pid == kCpuPid)
    pending_cpu_.push_back(std::move(e));
  else
    event(e);
}

void Timeline::flushCpuSpans() {
  for (const Json& e : pending_cpu_) event(e);
  pending_cpu_.clear();
}

void Timeline::close(const Track& track, std::optional<Open>& open, uint64_t end_ps) {
  if (!open) return;
  // A span shorter than a tick is a state passed through within one instant: nothing to show.
  if (ticks(end_ps) > ticks(open->begin_ps) && inWindow(open->begin_ps))
    span(track, open->name, open->begin_ps, end_ps, std::move(open->args));
  open.reset();
}

Json Timeline::layerArg() const {
  return last_layer_ ? Json::object({{"layer", *last_layer_}}) : Json::object();
}

void Timeline::onAdd(const Tracer::SignalInfo& info) {
  if (info.name != "busy" && info.name != "state" && info.name != "active") return;
  if (info.scope == "cpu") track("cpu", kCpuPid, "host cpu", 1);
  if (info.scope == "bus") track("bus", kBusPid, "bus", 1);
  if (info.scope.rfind("core", 0) == 0) coreTrack(info.scope);
  if (info.scope.rfind("dma.ch", 0) == 0) {
    dmaTrack(info.scope);
    if (info.name == "busy") ++dma_channels_;
  }
}

Timeline::Track Timeline::coreTrack(const std::string& scope) {
  return track(scope, kCorePid + scopeNumber(scope), scope + " (jobs, phases, tiles)", 1);
}

Timeline::Track Timeline::dmaTrack(const std::string& scope) {
  const int channel = scopeNumber(scope);
  return track("dma", kDmaPid, "ch" + std::to_string(channel), channel + 1);
}

void Timeline::onChange(Tracer::Signal /*signal*/, const Tracer::SignalInfo& info,
                        std::optional<uint64_t> value, const sc_core::sc_time& t) {
  const uint64_t now = t.value();
  const std::string& scope = info.scope;
  const std::string& name = info.name;

  if (scope.empty()) {
    if (name == "invocation") {
      invocation_ = value ? std::optional<uint32_t>(static_cast<uint32_t>(*value)) : std::nullopt;
    } else if (name == "layer") {
      const std::optional<int> layer =
          value ? std::optional<int>(static_cast<int>(*value)) : std::nullopt;
      if (layers_ && invocation_ == 0u) {
        if (layer == layers_->first && !window_from_ps_) window_from_ps_ = now;
        if (!layer && layer_ == layers_->second && window_from_ps_ && !window_to_ps_)
          window_to_ps_ = now;
      }
      layer_ = layer;
      if (layer) last_layer_ = layer;
    }
    return;
  }

  if (scope == "cpu" && name == "state") {
    const Track cpu = track("cpu", kCpuPid, "host cpu", 1);
    // 0 is idle: inside a layer that is the host waiting (for the interrupt or a copy).
    const char* what = !value               ? nullptr
                       : *value == 1        ? "kernel"
                       : *value == 2        ? "driver"
                       : layer_.has_value() ? "wait"
                                            : nullptr;
    if (cpu_state_ && what && cpu_state_->name == what) return;  // the same activity goes on
    close(cpu, cpu_state_, now);
    if (what) cpu_state_ = Open{now, what, layerArg()};
    return;
  }

  if (scope.rfind("core", 0) == 0) {
    const Track core = coreTrack(scope);
    if (name == "busy") {
      if (value == 1u) {
        close(core, core_job_[scope], now);
        core_job_[scope] = Open{now, "job", layerArg()};
        core_tiles_[scope] = 0;
      } else {
        close(core, core_phase_[scope], now);
        if (auto& job = core_job_[scope]) job->args["tiles"] = core_tiles_[scope];
        close(core, core_job_[scope], now);
      }
    } else if (name == "phase") {
      close(core, core_phase_[scope], now);
      if (value && *value != 0) core_phase_[scope] = Open{now, phaseName(*value), layerArg()};
    } else if (name == "tile" && value) {
      ++core_tiles_[scope];
      if (auto& phase = core_phase_[scope]; phase && phase->name == "compute")
        phase->args["tile"] = *value;
    }
    return;
  }

  if (scope.rfind("dma.", 0) == 0) {
    const Track dma = dmaTrack(scope);
    if (name == "busy") {
      close(dma, dma_transfer_[scope], now);
      if (value == 1u) dma_transfer_[scope] = Open{now, "transfer", layerArg()};
    } else if (name == "bytes" && value && *value != 0) {
      if (auto& transfer = dma_transfer_[scope]) transfer->args["bytes"] = *value;
    }
    return;
  }

  if (scope == "bus") {
    if (name == "active") {
      bus_active_ = value.value_or(0);
      return;
    }
    if (name != "owner") return;
    // The owner is set right after the count: one span per stretch of the same occupancy.
    const Track bus = track("bus", kBusPid, "bus", 1);
    bus_owner_ = value;
    close(bus, bus_span_, now);
    if (bus_active_ == 0) return;
    Json args = layerArg();
    args["active"] = bus_active_;
    if (bus_owner_) {
      args["port"] = *bus_owner_;
      // Named as the VCD's bus.owner filter names the port.
      const std::string port =
          *bus_owner_ < dma_channels_ ? "dma.ch" + std::to_string(*bus_owner_) : std::string("cpu");
      bus_span_ = Open{now, port, std::move(args)};
    } else {
      bus_span_ = Open{now, "shared", std::move(args)};
    }
  }
}

void Timeline::layer(uint32_t invocation, int index, const std::string& name, const std::string& op,
                     const std::string& path, const sc_core::sc_time& begin,
                     const sc_core::sc_time& end) {
  if (layers_ && (invocation != 0 || index < layers_->first || index > layers_->second)) {
    flushCpuSpans();
    return;
  }
  const Track cpu = track("cpu", kCpuPid, "host cpu", 1);
  event(spanEvent(
      cpu.pid, cpu.tid, name.empty() ? op : name, begin.value(), end.value(),
      {{"layer", index}, {"invocation", invocation}, {"op", op}, {"path", path}, {"name", name}}));
  flushCpuSpans();
}

void Timeline::commit(const sc_core::sc_time& end) {
  const uint64_t end_ps = end.value();
  if (cpu_state_) close(track("cpu", kCpuPid, "host cpu", 1), cpu_state_, end_ps);
  for (auto& [scope, open] : core_phase_) close({kCorePid + scopeNumber(scope), 1}, open, end_ps);
  for (auto& [scope, open] : core_job_) close({kCorePid + scopeNumber(scope), 1}, open, end_ps);
  for (auto& [scope, open] : dma_transfer_) close({kDmaPid, scopeNumber(scope) + 1}, open, end_ps);
  close({kBusPid, 1}, bus_span_, end_ps);
  flushCpuSpans();
  if (layers_ && !window_from_ps_)
    throw UsageError("--timeline-layers " + std::to_string(layers_->first) + "-" +
                     std::to_string(layers_->second) + ": the model has no such layers");
  out_ << "\n]}\n";
  out_.close();
  if (!out_ || std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    std::remove(tmp_.c_str());
    throw InputError("cannot write timeline '" + path_ + "'");
  }
  committed_ = true;
}

}  // namespace hilsim::model
