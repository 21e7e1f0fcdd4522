// The accelerator's area against hand-computed figures (docs/ENERGY.md, "Area").

#include "hilsim/energy/area.h"

#include <gtest/gtest.h>

#include "hilsim/errors.h"

namespace hilsim::energy {
namespace {

// The default accelerator: 4 cores of 16x16 with 256 KiB of SRAM each.
constexpr AcceleratorGeometry kDefault{4, 16, 16, 256 * 1024, 16};

TEST(Area, DefaultAcceleratorAtFortyFiveNanometres) {
  const AcceleratorArea a = acceleratorArea(technology(TechNode::k45nm), kDefault);
  EXPECT_NEAR(a.core.pe_um2, 706.04, 1e-9);
  // 256 PEs x 706.04 um^2.
  EXPECT_NEAR(a.core.array_mm2, 0.18074624, 1e-9);
  // 2,097,152 bits x 0.29565 um^2 / 0.6.
  EXPECT_NEAR(a.core.sram_mm2, 1.033371648, 1e-9);
  EXPECT_NEAR(a.core.control_mm2, 0.1 * (0.18074624 + 1.033371648), 1e-9);
  EXPECT_NEAR(a.totalMm2(), 5.3421187, 1e-6);
}

TEST(Area, DefaultAcceleratorAtTheScaledNodes) {
  EXPECT_NEAR(acceleratorArea(technology(TechNode::k28nm), kDefault).totalMm2(), 2.059912, 1e-5);
  EXPECT_NEAR(acceleratorArea(technology(TechNode::k22nm), kDefault).totalMm2(), 1.286896, 1e-5);
}

TEST(Area, GrowsWithEachPart) {
  const Technology& t = technology(TechNode::k45nm);
  const double base = acceleratorArea(t, kDefault).totalMm2();
  AcceleratorGeometry g = kDefault;
  g.cores = 8;
  EXPECT_NEAR(acceleratorArea(t, g).totalMm2(), 2 * base, 1e-9);
  g = kDefault;
  g.array_rows = 32;
  EXPECT_NEAR(acceleratorArea(t, g).core.array_mm2, 2 * 0.18074624, 1e-9);
  g = kDefault;
  g.sram_bytes = 64 * 1024;
  EXPECT_NEAR(acceleratorArea(t, g).core.sram_mm2, 1.033371648 / 4, 1e-9);
}

TEST(Area, RejectsAnEmptyGeometry) {
  AcceleratorGeometry g = kDefault;
  g.sram_bytes = 0;
  EXPECT_THROW(acceleratorArea(technology(TechNode::k45nm), g), ConfigError);
  g = kDefault;
  g.cores = 0;
  EXPECT_THROW(acceleratorArea(technology(TechNode::k45nm), g), ConfigError);
}

}  // namespace
}  // namespace hilsim::energy
