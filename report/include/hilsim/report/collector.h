#pragma once
// Collects the interpreter's layer records for the report as the run goes. It keeps per layer the
// first invocation's record and the run-wide figures (LayerStats), so its memory does not grow
// with the number of invocations; every invocation's record only when asked (per_invocation).

#include <cstdint>
#include <functional>
#include <vector>

#include "hilsim/report/energy.h"
#include "hilsim/rt/layer_record.h"
#include "hilsim/rt/profiler.h"

namespace hilsim::report {

// One layer's figures over every invocation of a run.
struct LayerStats {
  rt::LayerRecord first;  // the record of the layer's first invocation (shape, reason, ...)
  uint32_t invocations = 0;
  uint32_t accel_invocations = 0;  // invocations that took the accelerated path
  uint64_t cycles_sum = 0, cycles_min = 0, cycles_max = 0;
  uint64_t accel_cycles_sum = 0;  // cycles of the invocations on the accelerated path
  uint64_t ref_cycles_sum = 0, ref_cycles_min = 0, ref_cycles_max = 0;
  uint64_t macs_sum = 0;
  // The action counts of every invocation, summed (energy.h).
  LayerActions actions_sum;

  void add(const rt::LayerRecord& record, const LayerActions& actions = {});
};

class LayerCollector final : public rt::Profiler {
 public:
  // `per_invocation`: keep every invocation's record; false: only the first invocation's.
  // `count`: a record's action counts (layerActions with the run's config), summed per layer.
  using ActionCounter = std::function<LayerActions(const rt::LayerRecord&)>;
  explicit LayerCollector(bool per_invocation = true, ActionCounter count = {})
      : per_invocation_(per_invocation), count_(std::move(count)) {}

  void endLayer(const rt::LayerRecord& record) override;
  // Called with every record as it completes (e.g. PerInvocationWriter::add), whether or not
  // the collector keeps it.
  void setSink(std::function<void(const rt::LayerRecord&)> sink) { sink_ = std::move(sink); }

  // The records kept: the first invocation's, or every invocation's with per_invocation.
  const std::vector<rt::LayerRecord>& records() const { return records_; }
  // Per layer, in order of operator index.
  const std::vector<LayerStats>& stats() const { return stats_; }
  // Records of layers that took the accelerated path so far, over every invocation.
  uint64_t accelRecords() const { return accel_records_; }
  bool perInvocation() const { return per_invocation_; }

 private:
  bool per_invocation_;
  ActionCounter count_;
  std::function<void(const rt::LayerRecord&)> sink_;
  std::vector<rt::LayerRecord> records_;
  std::vector<LayerStats> stats_;
  uint64_t accel_records_ = 0;
  bool first_seen_ = false;
  uint32_t first_invocation_ = 0;
};

}  // namespace hilsim::report
