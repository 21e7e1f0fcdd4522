#include "hilsim/timing/core_timing.h"

namespace hilsim::timing {

double ComputeCycles::utilization() const {
  return cycles && array_pes ? static_cast<double>(macs) /
                                   (static_cast<double>(array_pes) * static_cast<double>(cycles))
                             : 0.0;
}

ComputeCycles computeCycles(Dataflow dataflow, ArrayShape array, uint64_t m, uint64_t k,
                            uint64_t n) {
  ComputeCycles c;
  if (m == 0 || k == 0 || n == 0) return c;
  const uint64_t r = array.rows, cols = array.cols;
  uint64_t streamed = 0, stationary_fill = 0;
  switch (dataflow) {
    case Dataflow::kWeightStationary:
      c.folds = ceilDiv(k, r) * ceilDiv(n, cols);
      streamed = m;
      stationary_fill = r;
      break;
    case Dataflow::kOutputStationary:
      c.folds = ceilDiv(m, r) * ceilDiv(n, cols);
      streamed = k;
      stationary_fill = 0;
      break;
    case Dataflow::kInputStationary:
      c.folds = ceilDiv(k, r) * ceilDiv(m, cols);
      streamed = n;
      stationary_fill = r;
      break;
  }
  c.cycles_per_fold = stationary_fill + r + cols + streamed - 2;
  c.cycles = c.folds * c.cycles_per_fold;
  c.macs = m * k * n;
  c.array_pes = r * cols;
  return c;
}

uint32_t outputFeatureGranularity(Dataflow dataflow, ArrayShape array) {
  return dataflow == Dataflow::kInputStationary ? 1 : array.cols;
}

}  // namespace hilsim::timing
