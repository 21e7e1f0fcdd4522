#pragma once
// Compute cycles of one GEMM tile on a systolic array, following SCALE-Sim's model
// (../shared/reference/README.md). Pure functions: no SystemC.
//
// For a GEMM of M rows, reduction K and N output columns on an R x C array:
//   ws: K on the rows, N on the columns, M streamed:  folds = ceil(K/R) * ceil(N/C)
//   os: M on the rows, N on the columns, K streamed:  folds = ceil(M/R) * ceil(N/C)
//   is: K on the rows, M on the columns, N streamed:  folds = ceil(K/R) * ceil(M/C)
//   cycles per fold = 2R + C + T - 2 (ws, is) or R + C + T - 2 (os), T = streamed dimension
//   cycles = folds * cycles per fold
// SCALE-Sim reports one cycle less (the index of the last busy cycle).

#include <cstdint>

namespace hilsim::timing {

enum class Dataflow : uint8_t { kWeightStationary, kOutputStationary, kInputStationary };

struct ArrayShape {
  uint32_t rows = 0;
  uint32_t cols = 0;
};

struct ComputeCycles {
  uint64_t folds = 0;
  uint64_t cycles_per_fold = 0;
  uint64_t cycles = 0;  // folds * cycles_per_fold; 0 for an empty GEMM
  uint64_t macs = 0;
  uint64_t array_pes = 0;  // R * C
  // MACs / (R * C * cycles): the share of the array's MAC slots doing useful work.
  double utilization() const;
};

ComputeCycles computeCycles(Dataflow dataflow, ArrayShape array, uint64_t m, uint64_t k,
                            uint64_t n);

// The GEMM dimension that maps onto the array's columns and is split across cores in units of
// the array width (ws, os: the output features; is: none, output features are streamed).
// Returns the granularity in output features at which a layer should be split.
uint32_t outputFeatureGranularity(Dataflow dataflow, ArrayShape array);

inline uint64_t ceilDiv(uint64_t a, uint64_t b) {
  return b ? (a + b - 1) / b : 0;
}

}  // namespace hilsim::timing
