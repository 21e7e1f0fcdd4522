#include "hilsim/timing/job_timeline.h"

#include <algorithm>

#include "job_links.h"

namespace hilsim::timing {
namespace {

using detail::CoreRun;
using detail::kNever;
using detail::Links;
using detail::TimedStep;

// One core's share of a FULLY_CONNECTED job: its input, then every weight tile (rows x k against
// the tile's features).
std::vector<TimedStep> fcSteps(const PlatformTiming& t, const JobWork& job, const CoreWork& w) {
  std::vector<TimedStep> steps;
  for (const CoreStep& s : fcSchedule(w.num_tiles, w.double_buffer)) {
    const uint64_t features = std::min<uint64_t>(w.tile_n, w.n_count - uint64_t{s.tile} * w.tile_n);
    TimedStep& timed = steps.emplace_back();
    timed.step = s;
    timed.band_bytes = uint64_t{job.rows} * job.k;
    timed.tile_bytes = features * (uint64_t{job.k} + job.param_bytes_per_feature);
    timed.compute_cycles =
        computeCycles(t.geometry.dataflow, t.geometry.array(), job.rows, job.k, features).cycles;
    timed.output_bytes = uint64_t{job.rows} * features;
  }
  return steps;
}

// One core's share of a convolution job: the steps of its schedule (conv_schedule.h).
std::vector<TimedStep> convSteps(const PlatformTiming& t, const JobWork& job,
                                 const ConvCoreWork& w) {
  std::vector<TimedStep> steps;
  for (const CoreStep& s : convSchedule(w)) {
    TimedStep& timed = steps.emplace_back();
    timed.step = s;
    timed.band_bytes = bandLoadBytes(job.conv, w, s.band);
    timed.tile_bytes = tileLoadBytes(job.conv, w, s.tile, job.param_bytes_per_feature);
    timed.compute_cycles =
        convStepCycles(t.geometry.dataflow, t.geometry.array(), job.conv, w, s).cycles;
    timed.output_bytes = stepOutputBytes(job.conv, w, s);
  }
  return steps;
}

// Runs the cores from `start_ps` until the last one has stored its outputs; returns that time.
uint64_t runCores(std::vector<CoreRun>& cores, Links& links, uint64_t start_ps) {
  for (CoreRun& c : cores) c.start(start_ps);
  links.admit(start_ps);
  uint64_t last_end = start_ps;
  std::vector<uint32_t> woken;
  while (true) {
    uint64_t now = links.nextCompletionPs();
    for (const CoreRun& c : cores) now = std::min(now, c.computeEndPs());
    if (now == kNever) break;
    woken.clear();
    if (links.nextCompletionPs() == now) links.complete(now, &woken);
    for (CoreRun& c : cores) c.resume(now);
    links.admit(now);
    for (const CoreRun& c : cores)
      if (c.finished()) last_end = std::max(last_end, c.endPs());
  }
  return last_end;
}

}  // namespace

JobTimeline jobTimeline(const PlatformTiming& t, const JobWork& work, const DriverTraffic& driver) {
  const uint64_t cpu_ps = t.clocks.cpu_ps;
  Links links(t);
  JobTimeline out;
  uint64_t now = t.host.dispatch_cycles * cpu_ps;
  out.steps.dispatched = out.steps.uploaded = now / cpu_ps;
  now = hostWakePs(links.hostCopy(now, hostInputBytes(work)), now, cpu_ps);
  out.steps.input_sent = now / cpu_ps;

  now += t.host.driver_job_cycles * cpu_ps;
  uint64_t start_ps = now;
  for (uint32_t w = 0; w < driver.submit_writes; ++w) {
    const RegisterAccess a = registerAccess(t, now);
    start_ps = a.effect_ps;  // the last write starts the job
    now = a.done_ps;
  }
  out.steps.job_started = now / cpu_ps;

  // The transfers a core submits live in it: the cores do not move once they have started.
  std::vector<CoreRun> cores;
  cores.reserve(work.cores.size() + work.conv_cores.size());
  for (const CoreWork& w : work.cores)
    cores.emplace_back(t, w.core, work.descriptor_bytes, fcSteps(t, work, w), links);
  for (const ConvCoreWork& w : work.conv_cores)
    cores.emplace_back(t, w.core, work.descriptor_bytes, convSteps(t, work, w), links);
  const uint64_t last_end = runCores(cores, links, start_ps);
  const uint64_t wait_start_ps = now;
  now = hostWakePs(irqRisePs(t, last_end), now, cpu_ps);
  out.sleep_cycles = (now - wait_start_ps) / cpu_ps;
  now += t.host.irq_handler_cycles * cpu_ps;
  for (uint32_t a = 0; a < driver.completion_reads + driver.completion_writes; ++a)
    now = registerAccess(t, now).done_ps;
  out.steps.job_done = now / cpu_ps;

  now = hostWakePs(links.hostCopy(now, hostOutputBytes(work)), now, cpu_ps);
  out.steps.end = now / cpu_ps;
  for (const CoreRun& c : cores) out.cores.push_back(c.counts());
  return out;
}

uint64_t hostInputBytes(const JobWork& w) {
  return w.convolution ? w.conv.inputBytes() : uint64_t{w.rows} * w.k;
}

uint64_t hostOutputBytes(const JobWork& w) {
  return w.convolution ? w.conv.outputBytes() : uint64_t{w.rows} * w.n;
}

uint64_t jobBytes(const JobWork& w) {
  uint64_t bytes = hostInputBytes(w) + hostOutputBytes(w);
  for (const ConvCoreWork& c : w.conv_cores) {
    bytes += w.descriptor_bytes;
    for (const CoreStep& s : convSchedule(c)) {
      if (s.load_band) bytes += bandLoadBytes(w.conv, c, s.band);
      if (s.load_tile) bytes += tileLoadBytes(w.conv, c, s.tile, w.param_bytes_per_feature);
      bytes += stepOutputBytes(w.conv, c, s);
    }
  }
  for (const CoreWork& c : w.cores)
    bytes += w.descriptor_bytes + uint64_t{w.rows} * w.k +
             uint64_t{c.n_count} * (uint64_t{w.k} + w.param_bytes_per_feature) +
             uint64_t{w.rows} * c.n_count;
  return bytes;
}

}  // namespace hilsim::timing
