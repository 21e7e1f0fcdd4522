// The technology presets against their published figures and the documented derivations,
// worked out by hand here (docs/ENERGY.md).

#include "hilsim/energy/technology.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "hilsim/errors.h"

namespace hilsim::energy {
namespace {

// Stillmaker & Baas HP rows at a supply, by hand.
double hp45(double v) {
  return 1.018 * v * v - 0.3107 * v + 0.1539;
}
double hp32(double v) {
  return 0.8367 * v * v - 0.4341 * v + 0.1701;
}
double hp20(double v) {
  return 0.373 * v * v - 0.1582 * v + 0.04104;
}

TEST(Technology, ScalingRuleReproducesThePapersErratumExample) {
  // The authors' corrected example: HP32 at 0.9 V gives 0.4571.
  EXPECT_NEAR(stillmakerEnergy(32, 0.9), 0.4571, 5e-5);
  EXPECT_DOUBLE_EQ(stillmakerEnergy(45, 0.9), hp45(0.9));
  EXPECT_DOUBLE_EQ(stillmakerEnergy(20, 0.8), hp20(0.8));
}

TEST(Technology, ScalingRuleInterpolatesLinearlyInFeatureSize) {
  // 28 nm is a third of the way from 32 to 20 nm, 22 nm five sixths.
  EXPECT_NEAR(stillmakerEnergy(28, 0.9), hp32(0.9) + (hp20(0.9) - hp32(0.9)) / 3, 1e-12);
  EXPECT_NEAR(stillmakerEnergy(22, 0.8), hp32(0.8) + (hp20(0.8) - hp32(0.8)) * 5 / 6, 1e-12);
  EXPECT_NEAR(stillmakerEnergy(38.5, 1.0), (hp45(1.0) + hp32(1.0)) / 2, 1e-12);
  EXPECT_NEAR(stillmakerAreaFrom45(28), 0.46 - 0.25 / 3, 1e-12);
  EXPECT_NEAR(stillmakerAreaFrom45(22), 0.46 - 0.25 * 5 / 6, 1e-12);
  EXPECT_THROW(stillmakerEnergy(16, 0.8), std::out_of_range);
  EXPECT_THROW(stillmakerEnergy(65, 1.1), std::out_of_range);
}

TEST(Technology, FactorsOfThePresets) {
  EXPECT_DOUBLE_EQ(technology(TechNode::k45nm).energy_factor, 1.0);
  EXPECT_DOUBLE_EQ(technology(TechNode::k45nm).area_factor, 1.0);
  // 0.371688 / 0.69885 and 0.187385 / 0.69885 (docs/ENERGY.md).
  EXPECT_NEAR(technology(TechNode::k28nm).energy_factor, 0.531857, 1e-6);
  EXPECT_NEAR(technology(TechNode::k22nm).energy_factor, 0.268133, 1e-6);
  EXPECT_NEAR(technology(TechNode::k28nm).area_factor, 0.376667, 1e-6);
  EXPECT_NEAR(technology(TechNode::k22nm).area_factor, 0.251667, 1e-6);
  EXPECT_DOUBLE_EQ(technology(TechNode::k28nm).supply_v, 0.9);
  EXPECT_DOUBLE_EQ(technology(TechNode::k22nm).supply_v, 0.8);
}

TEST(Technology, FortyFiveNanometresIsHorowitzAndAladdin) {
  const Technology& t = technology(TechNode::k45nm);
  EXPECT_DOUBLE_EQ(t.mult8_pj, 0.2);
  EXPECT_DOUBLE_EQ(t.add32_pj, 0.1);
  EXPECT_DOUBLE_EQ(t.register_bit_pj, 0.009);
  // 0.2 + 0.1 + 40 register bits x 0.009.
  EXPECT_NEAR(macPj(t), 0.66, 1e-12);
  EXPECT_DOUBLE_EQ(t.wire_pj_per_bit_mm, 0.1);
  EXPECT_DOUBLE_EQ(t.system_memory_pj_per_byte, 12.5);
  // 80 uW x 64 / 1024 + 2.4 uW.
  EXPECT_NEAR(t.pe_leakage_uw, 7.4, 1e-12);
  // 282 + 137 + 48 x 5.98.
  EXPECT_NEAR(peAreaUm2(t), 706.04, 1e-9);
  EXPECT_NEAR(t.sram_cell_um2, 146 * 0.045 * 0.045, 1e-12);
}

TEST(Technology, ScaledNodesAreFortyFiveTimesTheirFactors) {
  const Technology& t45 = technology(TechNode::k45nm);
  for (TechNode node : {TechNode::k28nm, TechNode::k22nm}) {
    const Technology& t = technology(node);
    EXPECT_NEAR(t.mult8_pj, t45.mult8_pj * t.energy_factor, 1e-15);
    EXPECT_NEAR(macPj(t), 0.66 * t.energy_factor, 1e-12);
    EXPECT_NEAR(t.sram_points[2].pj_per_64bit, 100 * t.energy_factor, 1e-12);
    EXPECT_NEAR(t.pe_leakage_uw, 7.4 * t.energy_factor, 1e-12);
    EXPECT_NEAR(peAreaUm2(t), 706.04 * t.area_factor, 1e-9);
    // A wire's energy goes with the supply squared.
    EXPECT_NEAR(t.wire_pj_per_bit_mm, 0.1 * (t.supply_v / 0.9) * (t.supply_v / 0.9), 1e-15);
  }
  EXPECT_NEAR(macPj(technology(TechNode::k28nm)), 0.351026, 1e-6);
  EXPECT_NEAR(macPj(technology(TechNode::k22nm)), 0.176968, 1e-6);
}

TEST(Technology, SramEnergyPassesThroughHorowitzsPoints) {
  const Technology& t = technology(TechNode::k45nm);
  EXPECT_NEAR(sramPjPer64Bit(t, 8 * 1024), 10, 1e-12);
  EXPECT_NEAR(sramPjPer64Bit(t, 32 * 1024), 20, 1e-12);
  EXPECT_NEAR(sramPjPer64Bit(t, 1024 * 1024), 100, 1e-9);
  // Square root of the size between 8 and 32 KB, and beyond them to smaller SRAMs.
  EXPECT_NEAR(sramPjPer64Bit(t, 16 * 1024), 10 * std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(sramPjPer64Bit(t, 4 * 1024), 10 / std::sqrt(2.0), 1e-12);
  // 20 pJ x 8^(ln 5 / ln 32) at 256 KiB: 52.5306 pJ, 6.5663 pJ per byte.
  EXPECT_NEAR(sramPjPer64Bit(t, 256 * 1024), 52.5306, 1e-4);
  EXPECT_NEAR(sramPjPerByte(t, 256 * 1024), 6.56632, 1e-5);
  // Beyond 1 MB the 32 KB - 1 MB exponent continues.
  EXPECT_NEAR(sramPjPer64Bit(t, 2 * 1024 * 1024),
              100 * std::pow(2.0, std::log(5.0) / std::log(32.0)), 1e-9);
  EXPECT_THROW(sramPjPer64Bit(t, 0), ConfigError);
}

TEST(Technology, SramLeakageIsCactisLowStandbyPowerCell) {
  // I_off x 4.62 F x V x 8192 bits, in uW per KiB.
  EXPECT_NEAR(technology(TechNode::k45nm).sram_leakage_uw_per_kib,
              1.01e-11 * 4.62 * 0.045 * 0.9 * 8192 * 1e6, 1e-12);
  EXPECT_NEAR(technology(TechNode::k45nm).sram_leakage_uw_per_kib, 0.0154813, 1e-7);
  // 28 nm: I_off 40% of the way from CACTI's 32 nm to its 22 nm value.
  EXPECT_NEAR(technology(TechNode::k28nm).sram_leakage_uw_per_kib, 0.0210587, 1e-7);
  EXPECT_NEAR(technology(TechNode::k22nm).sram_leakage_uw_per_kib, 0.0161864, 1e-7);
  EXPECT_NEAR(cactiSramCellUm2(22), 146 * 0.022 * 0.022, 1e-15);
}

TEST(Technology, Names) {
  EXPECT_EQ(techNodeFromName("28nm"), TechNode::k28nm);
  EXPECT_STREQ(techNodeName(TechNode::k22nm), "22nm");
  EXPECT_EQ(techNodeNames().size(), 3u);
  try {
    techNodeFromName("7nm");
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("45nm, 28nm, 22nm"), std::string::npos);
  }
}

}  // namespace
}  // namespace hilsim::energy
