#include "hilsim/energy/area.h"

#include "hilsim/errors.h"

namespace hilsim::energy {

AcceleratorArea acceleratorArea(const Technology& t, const AcceleratorGeometry& g) {
  if (g.cores == 0 || g.array_rows == 0 || g.array_cols == 0 || g.sram_bytes == 0)
    throw ConfigError(
        "accelerator area: cores, array rows, array columns and SRAM bytes must be "
        "at least 1");
  AcceleratorArea a;
  a.cores = g.cores;
  a.core.pe_um2 = peAreaUm2(t);
  a.core.array_mm2 = double(g.array_rows) * g.array_cols * a.core.pe_um2 * 1e-6;
  a.core.sram_mm2 = double(g.sram_bytes) * 8.0 * t.sram_cell_um2 / t.sram_array_efficiency * 1e-6;
  a.core.control_mm2 = t.control_fraction * (a.core.array_mm2 + a.core.sram_mm2);
  return a;
}

}  // namespace hilsim::energy
