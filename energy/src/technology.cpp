#include "hilsim/energy/technology.h"

#include <cmath>
#include <stdexcept>

#include "hilsim/errors.h"

namespace hilsim::energy {
namespace {

// Linear interpolation of y over x between the two rows of `rows` (x descending) that bracket
// `x`; throws std::out_of_range outside the rows.
template <size_t N, typename Row, typename Value>
double between(const std::array<Row, N>& rows, double x, Value value) {
  for (size_t i = 0; i + 1 < N; ++i) {
    const double hi = rows[i].feature_nm, lo = rows[i + 1].feature_nm;
    if (x <= hi && x >= lo) {
      const double t = (hi - x) / (hi - lo);
      return value(rows[i]) + t * (value(rows[i + 1]) - value(rows[i]));
    }
  }
  throw std::out_of_range("technology node outside the scaling tables");
}

// Stillmaker & Baas (2017), the energy fits of the general-purpose (HP) models: energy factor =
// a*V^2 + b*V + c. The HP32 row and the 65 nm row are confirmed by the authors' published
// erratum to their Section 4.2.1 example (0.8367, -0.4341, 0.1701 and 3.755, -4.398, 1.975).
struct EnergyFit {
  double feature_nm, a, b, c;
};
constexpr std::array<EnergyFit, 3> kHpEnergy{{
    {45, 1.018, -0.3107, 0.1539},
    {32, 0.8367, -0.4341, 0.1701},
    {20, 0.373, -0.1582, 0.04104},
}};

// The paper's area scaling table, the row from 45 nm.
struct AreaRow {
  double feature_nm, factor;
};
constexpr std::array<AreaRow, 3> kAreaFrom45{{{45, 1.0}, {32, 0.46}, {20, 0.21}}};

// CACTI 7 tech_params/{45,32,22}nm.dat: itrs-lstp I_off_n at 300 K, A/um.
struct IoffRow {
  double feature_nm, amps_per_um;
};
constexpr std::array<IoffRow, 3> kLstpIoff{{{45, 1.01e-11}, {32, 2.06e-11}, {22, 2.43e-11}}};
// CACTI's 6T cell: Wmemcellnmos 2.08 F, Wmemcellpmos 1.23 F, Wmemcella 1.31 F; area_cell 146 F^2.
constexpr double kCellOffWidthF = 2.08 + 1.23 + 1.31;
constexpr double kCellAreaF2 = 146.0;

// Horowitz, "Computing's energy problem", ISSCC 2014, at 45 nm and 0.9 V: energy and area of
// the arithmetic, and the energy of a 64-bit SRAM access at 8 KB, 32 KB and 1 MB.
constexpr double kHorowitzVdd = 0.9;
constexpr double kMult8Pj = 0.2, kAdd32Pj = 0.1;
constexpr double kMult8Um2 = 282.0, kAdd32Um2 = 137.0;
constexpr std::array<SramEnergyPoint, 3> kHorowitzSram{
    {{8192, 10.0}, {32768, 20.0}, {1048576, 100.0}}};

// Aladdin's 40 nm library tables (as shipped with Accelergy's hwcomponents-library): a register
// bit 0.009 pJ per read and 5.98 um^2; leakage 80 uW for a 32x32 multiplier (scaled by the
// product of the widths to 8x8) and 2.4 uW for a 32-bit adder.
constexpr double kRegisterBitPj = 0.009, kRegisterBitUm2 = 5.98;
constexpr double kPeLeakage40nmUw = 80.0 * (8.0 * 8.0) / (32.0 * 32.0) + 2.4;

// A bus wire at 45 nm: about 0.1 pJ per bit and mm (Borkar & Chien, CACM 54(5), 2011, Fig. 11).
constexpr double kWirePjPerBitMm45 = 0.1;

// Estimates (docs/ENERGY.md): SRAM macro array efficiency, a core's control logic.
constexpr double kSramArrayEfficiency = 0.6;
constexpr double kControlFraction = 0.1;

Technology make(TechNode node, double feature_nm, double supply_v) {
  Technology t;
  t.node = node;
  t.feature_nm = feature_nm;
  t.supply_v = supply_v;
  t.energy_factor = stillmakerEnergy(feature_nm, supply_v) / stillmakerEnergy(45, kHorowitzVdd);
  t.area_factor = stillmakerAreaFrom45(feature_nm);
  t.mult8_pj = kMult8Pj * t.energy_factor;
  t.add32_pj = kAdd32Pj * t.energy_factor;
  t.register_bit_pj = kRegisterBitPj * t.energy_factor;
  for (size_t i = 0; i < kHorowitzSram.size(); ++i)
    t.sram_points[i] = {kHorowitzSram[i].bytes, kHorowitzSram[i].pj_per_64bit * t.energy_factor};
  // Wire capacitance per mm hardly scales; its energy goes with the supply squared.
  t.wire_pj_per_bit_mm = kWirePjPerBitMm45 * (supply_v / kHorowitzVdd) * (supply_v / kHorowitzVdd);
  // System memory: on-chip SRAM in banks of 1 MB, Horowitz's 1 MB point per byte.
  t.system_memory_pj_per_byte = kHorowitzSram[2].pj_per_64bit * t.energy_factor / 8.0;
  t.sram_leakage_uw_per_kib = cactiLstpCellLeakageW(feature_nm, supply_v) * 8192.0 * 1e6;
  // Leakage scaled like energy, as Accelergy's hwcomponents does (tech_node_leak).
  t.pe_leakage_uw = kPeLeakage40nmUw * t.energy_factor;
  t.mult8_um2 = kMult8Um2 * t.area_factor;
  t.add32_um2 = kAdd32Um2 * t.area_factor;
  t.register_bit_um2 = kRegisterBitUm2 * t.area_factor;
  t.sram_cell_um2 = cactiSramCellUm2(feature_nm);
  t.sram_array_efficiency = kSramArrayEfficiency;
  t.control_fraction = kControlFraction;
  return t;
}

// Nodes and supplies: Horowitz's 45 nm at 0.9 V; 28 nm at 0.9 V and 22 nm at 0.8 V, the nominal
// core supplies of those nodes.
const std::array<Technology, 3>& presets() {
  static const std::array<Technology, 3> kPresets{make(TechNode::k45nm, 45, 0.9),
                                                  make(TechNode::k28nm, 28, 0.9),
                                                  make(TechNode::k22nm, 22, 0.8)};
  return kPresets;
}

}  // namespace

const char* techNodeName(TechNode node) {
  switch (node) {
    case TechNode::k45nm:
      return "45nm";
    case TechNode::k28nm:
      return "28nm";
    case TechNode::k22nm:
      return "22nm";
  }
  return "?";
}

std::vector<std::string> techNodeNames() {
  return {"45nm", "28nm", "22nm"};
}

TechNode techNodeFromName(const std::string& name) {
  for (const Technology& t : presets())
    if (name == techNodeName(t.node)) return t.node;
  throw ConfigError("unknown technology preset '" + name + "' (valid: 45nm, 28nm, 22nm)");
}

const Technology& technology(TechNode node) {
  return presets()[static_cast<size_t>(node)];
}

double macPj(const Technology& t) {
  return t.mult8_pj + t.add32_pj + kMacRegisterBits * t.register_bit_pj;
}

double peAreaUm2(const Technology& t) {
  return t.mult8_um2 + t.add32_um2 + kPeRegisterBits * t.register_bit_um2;
}

double sramPjPer64Bit(const Technology& t, uint64_t bytes) {
  if (bytes == 0) throw ConfigError("SRAM energy: the SRAM has no bytes");
  const auto& p = t.sram_points;
  // The segment containing `bytes`, or the end segment nearest to it.
  const size_t i = bytes <= p[1].bytes ? 0 : 1;
  const double slope = std::log(p[i + 1].pj_per_64bit / p[i].pj_per_64bit) /
                       std::log(double(p[i + 1].bytes) / double(p[i].bytes));
  return p[i].pj_per_64bit * std::pow(double(bytes) / double(p[i].bytes), slope);
}

double stillmakerEnergy(double feature_nm, double vdd) {
  return between(kHpEnergy, feature_nm,
                 [vdd](const EnergyFit& r) { return r.a * vdd * vdd + r.b * vdd + r.c; });
}

double stillmakerAreaFrom45(double feature_nm) {
  return between(kAreaFrom45, feature_nm, [](const AreaRow& r) { return r.factor; });
}

double cactiLstpCellLeakageW(double feature_nm, double vdd) {
  const double ioff =
      between(kLstpIoff, feature_nm, [](const IoffRow& r) { return r.amps_per_um; });
  return ioff * kCellOffWidthF * (feature_nm / 1000.0) * vdd;
}

double cactiSramCellUm2(double feature_nm) {
  const double f_um = feature_nm / 1000.0;
  return kCellAreaF2 * f_um * f_um;
}

}  // namespace hilsim::energy
