#pragma once
// The accelerator's silicon at a technology node: energy per action, static power and area of
// its parts. 45 nm comes from published figures (Horowitz ISSCC 2014, Aladdin's 40 nm tables,
// CACTI's technology files); 28 and 22 nm are scaled from it by Stillmaker & Baas (2017).
// Every value, its source and its derivation are in docs/ENERGY.md; the functions below are the
// derivations, so the presets can be checked against them.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hilsim::energy {

enum class TechNode : uint8_t { k45nm, k28nm, k22nm };

// "45nm", "28nm", "22nm".
const char* techNodeName(TechNode node);
// The node of a name; throws hilsim::ConfigError naming the valid ones.
TechNode techNodeFromName(const std::string& name);
std::vector<std::string> techNodeNames();

// Energy of one 64-bit access to an SRAM of `bytes`, in pJ: a point of the size law.
struct SramEnergyPoint {
  uint64_t bytes = 0;
  double pj_per_64bit = 0;
};

struct Technology {
  TechNode node = TechNode::k45nm;
  double feature_nm = 0;
  double supply_v = 0;
  // Dynamic energy relative to 45 nm at 0.9 V, and logic area relative to 45 nm.
  double energy_factor = 0;
  double area_factor = 0;

  // Dynamic energy, pJ.
  double mult8_pj = 0;                           // one 8-bit x 8-bit multiply
  double add32_pj = 0;                           // one 32-bit add
  double register_bit_pj = 0;                    // one flip-flop bit written and read
  std::array<SramEnergyPoint, 3> sram_points{};  // 64-bit access energy against size
  double wire_pj_per_bit_mm = 0;                 // a bus wire, per bit and millimetre
  double system_memory_pj_per_byte = 0;

  // Static power, uW.
  double sram_leakage_uw_per_kib = 0;
  double pe_leakage_uw = 0;

  // Area.
  double mult8_um2 = 0;
  double add32_um2 = 0;
  double register_bit_um2 = 0;
  double sram_cell_um2 = 0;          // one 6T bit cell
  double sram_array_efficiency = 0;  // bit cells / macro area
  double control_fraction = 0;       // a core's control, as a fraction of its array and SRAM
};

// The preset of a node.
const Technology& technology(TechNode node);

// Flip-flop bits a processing element writes per MAC (the streamed 8-bit operand and the 32-bit
// partial sum), and the bits it holds (those and the stationary 8-bit operand).
constexpr uint32_t kMacRegisterBits = 40;
constexpr uint32_t kPeRegisterBits = 48;

// One int8 MAC in a processing element: multiply, 32-bit accumulate, its pipeline registers.
double macPj(const Technology& t);
// One processing element's area, um^2.
double peAreaUm2(const Technology& t);
// Energy of one 64-bit access to an SRAM of `bytes`: log-log interpolation between the
// technology's points, the end segments extended beyond them.
double sramPjPer64Bit(const Technology& t, uint64_t bytes);
inline double sramPjPerByte(const Technology& t, uint64_t bytes) {
  return sramPjPer64Bit(t, bytes) / 8.0;
}

// The scaling rule (Stillmaker & Baas, Integration 58 (2017), general-purpose "HP" rows):
// energy factor a*V^2 + b*V + c of a node at supply `vdd`, rows at 45, 32 and 20 nm, linear in the
// feature size between rows. Valid from 20 to 45 nm; throws std::out_of_range outside.
double stillmakerEnergy(double feature_nm, double vdd);
// Logic area of a node relative to 45 nm (the paper's area table, 45 nm row), linear in the
// feature size between 45, 32 and 20 nm.
double stillmakerAreaFrom45(double feature_nm);
// Leakage of one 6T SRAM cell in W at 300 K: CACTI's low-standby-power (itrs-lstp) off current
// per micron times the cell's off transistors' width (pull-down, pull-up and access: 4.62 F),
// times `vdd`. CACTI's tables are at 45, 32 and 22 nm, linear in the feature size between them.
double cactiLstpCellLeakageW(double feature_nm, double vdd);
// A 6T cell's area in CACTI: 146 F^2, um^2.
double cactiSramCellUm2(double feature_nm);

}  // namespace hilsim::energy
