#include "hilsim/report/collector.h"

#include <algorithm>
#include <utility>

namespace hilsim::report {

void LayerStats::add(const rt::LayerRecord& record, const LayerActions& actions) {
  actions_sum.add(actions);
  if (invocations == 0) {
    cycles_min = cycles_max = record.cycles;
    ref_cycles_min = ref_cycles_max = record.ref_cycles;
  }
  ++invocations;
  cycles_sum += record.cycles;
  cycles_min = std::min(cycles_min, record.cycles);
  cycles_max = std::max(cycles_max, record.cycles);
  ref_cycles_sum += record.ref_cycles;
  ref_cycles_min = std::min(ref_cycles_min, record.ref_cycles);
  ref_cycles_max = std::max(ref_cycles_max, record.ref_cycles);
  macs_sum += record.macs;
  if (record.path == rt::ExecPath::kAccel) {
    ++accel_invocations;
    accel_cycles_sum += record.cycles;
  }
}

void LayerCollector::endLayer(const rt::LayerRecord& record) {
  if (!first_seen_) {
    first_seen_ = true;
    first_invocation_ = record.invocation;
  }
  if (per_invocation_ || record.invocation == first_invocation_) records_.push_back(record);
  if (sink_) sink_(record);
  if (record.path == rt::ExecPath::kAccel) ++accel_records_;
  auto at = std::lower_bound(stats_.begin(), stats_.end(), record.index,
                             [](const LayerStats& s, int index) { return s.first.index < index; });
  if (at == stats_.end() || at->first.index != record.index) {
    at = stats_.insert(at, LayerStats{});
    at->first = record;
  }
  at->add(record, count_ ? count_(record) : LayerActions{});
}

}  // namespace hilsim::report
