#pragma once
// Silicon area of the accelerator at a technology node: per core its MAC array, its SRAM and its
// control, and the total (docs/ENERGY.md, "Area").

#include <cstdint>

#include "hilsim/energy/technology.h"

namespace hilsim::energy {

// What the area and the per-action energies depend on: the configured hardware.
struct AcceleratorGeometry {
  uint32_t cores = 0;            // accel.num_cores
  uint32_t array_rows = 0;       // accel.core.array_rows
  uint32_t array_cols = 0;       // accel.core.array_cols
  uint64_t sram_bytes = 0;       // accel.core.sram_bytes, per core
  uint32_t bus_width_bytes = 0;  // bus.width_bytes
};

struct CoreArea {
  double pe_um2 = 0;       // one processing element
  double array_mm2 = 0;    // rows x cols processing elements
  double sram_mm2 = 0;     // bit cells / array efficiency
  double control_mm2 = 0;  // control_fraction x (array + SRAM)
  double totalMm2() const { return array_mm2 + sram_mm2 + control_mm2; }
};

struct AcceleratorArea {
  uint32_t cores = 0;
  CoreArea core;
  double totalMm2() const { return cores * core.totalMm2(); }
};

// Throws hilsim::ConfigError when the geometry has no cores, array or SRAM.
AcceleratorArea acceleratorArea(const Technology& t, const AcceleratorGeometry& g);

}  // namespace hilsim::energy
