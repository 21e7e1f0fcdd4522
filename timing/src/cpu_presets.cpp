// CPU presets grounded in the published figures of ../shared/reference/cpu_cycles.md; the
// derivation of every number is in configs/README.md ("cpu presets").

#include <map>

#include "hilsim/errors.h"
#include "hilsim/timing/cpu_cost_model.h"

namespace hilsim::timing {
namespace {

struct CorePreset {
  // The core preset whose published figures and calibration these are: the preset itself, or a
  // board preset's core.
  const char* core;
  double clock_mhz;
  double k;  // cross-core factor applied to the RV32-measured reference figures of other ops
  double fc_ref[3];  // a, b, c of FULLY_CONNECTED, TFLM reference kernels
  bool has_cmsis;
  double fc_cmsis[3];  // a, b, c of FULLY_CONNECTED, CMSIS-NN kernels
  double softmax_ref;  // cycles per element, reference kernel
  double dequantize_ref;
  double add_ref;  // cycles per element of an int8 ADD, reference kernel
  bool helium;
  CpuDriverCycles driver;  // see the driver figures above presets()
};

// RV32 measurements (k = 1) of the reference kernels other than FULLY_CONNECTED.
constexpr double kConv1x1PerMac = 18.6, kConvPerMac = 19.0, kConvPerOutput = 164.0,
                 kConvPerCall = 4500.0, kDwPerMac = 48.8, kPoolPerElement = 22.7,
                 kQuantizePerElement = 5.3, kInterpreterFloor = 1000.0, kStatePerByte = 1.0;

// Element-wise operators relative to the preset's int8 ADD (configs/README.md, all E): MUL does
// one requantization where ADD does three; MAXIMUM/MINIMUM only compare; LOGISTIC/TANH evaluate a
// fixed-point exp and reciprocal (about forty 64-bit multiplies); HARD_SWISH two requantizations;
// an LSTM cell step runs five activations and four multiplies besides its eight gate products'
// requantizations, priced as FULLY_CONNECTED outputs (lstmFromFullyConnected).
constexpr double kMulPerAdd = 0.5, kMinMaxPerAdd = 0.25, kActivationPerAdd = 2.0,
                 kHardSwishPerAdd = 1.0, kLstmCellPerAdd = 12.0;
// Data movement (RV32, E): an indexed copy per element; MEAN accumulates per input element.
constexpr double kCopyPerElement = 4.0, kMeanPerElement = 6.0;

// Driver figures (job, per register access, interrupt to return), in the preset's CPU cycles:
// on the presets with an instruction-set simulator, the driver's job path executed by the
// planner's probe (firmware::measureDriverPath) at the preset's default wait states: the submit
// with its register writes' instructions (so 0 per register access besides the bus trip), and
// exception entry, handler, return and the rest of the wait. The presets without one take the
// figures of the simulated core of their architecture times their k (E): cortex-m7 those of
// cortex-m4f (Armv7E-M) x 1.6, cortex-m55 and cortex-m55-helium those of cortex-m33 (Armv8-M
// Mainline) x 0.9.
const std::map<std::string, CorePreset>& presets() {
  static const std::map<std::string, CorePreset> table = [] {
    std::map<std::string, CorePreset> t = {
        {"cortex-m0plus",
         {"cortex-m0plus",
          48,
          2.0,
          {26, 160, 5000},
          true,
          {13, 40, 3000},
          4340,
          504,
          230,
          false,
          {46, 0, 64}}},
        {"cortex-m4f",
         {"cortex-m4f",
          120,
          1.0,
          {13, 80, 3000},
          true,
          {3.7, 20, 2000},
          600,
          8,
          60,
          false,
          {33, 0, 54}}},
        {"cortex-m33",
         {"cortex-m33",
          128,
          1.0,
          {13, 80, 3000},
          true,
          {2.8, 18, 2000},
          600,
          8,
          60,
          false,
          {25, 0, 47}}},
        {"cortex-m7",
         {"cortex-m7",
          480,
          1.6,
          {21, 130, 3000},
          true,
          {2.3, 15, 1500},
          960,
          12.8,
          96,
          false,
          {53, 0, 86}}},
        {"cortex-m55",
         {"cortex-m55",
          400,
          0.9,
          {12, 70, 3000},
          true,
          {2.7, 18, 2000},
          540,
          7.2,
          54,
          false,
          {23, 0, 42}}},
        {"cortex-m55-helium",
         {"cortex-m55-helium",
          400,
          0.9,
          {12, 70, 3000},
          true,
          {0.8, 16, 2000},
          540,
          7.2,
          54,
          true,
          {23, 0, 42}}},
        {"rv32im",
         {"rv32im",
          100,
          1.0,
          {13.2, 100, 4000},
          false,
          {0, 0, 0},
          2170,
          252,
          115,
          false,
          {14, 0, 60}}},
    };
    // Board presets (configs/README.md, "Board presets"): their core's figures at the board's
    // clock; their memories are in the ISS's table (iss/src/core_model.cpp).
    // The driver figures are the board's own: its wait states and flash memory system move them.
    const auto board = [&t](const char* core, double clock_mhz, CpuDriverCycles driver) {
      CorePreset p = t.at(core);
      p.clock_mhz = clock_mhz;
      p.driver = driver;
      return p;
    };
    t.emplace("stm32g0b1", board("cortex-m0plus", 64, {53, 0, 70}));
    t.emplace("stm32l4r5", board("cortex-m4f", 120, {33, 0, 54}));
    t.emplace("nrf5340", board("cortex-m33", 128, {25, 0, 47}));
    t.emplace("stm32u575", board("cortex-m33", 160, {25, 0, 47}));
    t.emplace("fe310", board("rv32im", 320, {14, 0, 60}));
    return t;
  }();
  return table;
}

// The reference kernels' coefficients of the presets with an instruction-set simulator, as
// `hilsim calibrate` fits them at the preset's default wait states (README.md, "calibrate";
// configs/README.md, "Calibrated on the ISS"). They replace the published figures above, which
// stay the cross-check. A board preset uses its core's unless its memories move the cost model
// more than 5% off its ISS on person_detect (stm32g0b1: no data cache at 2 wait states; fe310:
// uncached weights in QSPI flash), which have their own.
struct Calibrated {
  double fc_per_mac, fc_per_output, fc_per_call, conv1x1_per_mac, conv_per_mac, conv_per_tap,
      conv_per_output, conv_per_call, dwconv_per_mac, dwconv_per_tap, dwconv_per_row,
      dwconv_per_output, dwconv_per_call, pool_per_element, pool_per_output, softmax_per_element,
      add_per_element, mul_per_element, quantize_per_element, quantize_float_per_element,
      dequantize_per_element, activation_per_element, op_per_call, reshape_per_call,
      reshape_per_byte, fc_float_per_mac, fc_float_per_output, fc_float_per_call,
      svdf_per_feature_mac, svdf_per_time_mac, svdf_state_per_byte, svdf_per_filter, svdf_per_unit,
      svdf_per_call, lstm_per_mac, lstm_cell_per_element, lstm_per_step, lstm_per_call,
      fc_float_per_zero_mac, conv_per_padded_mac, conv_per_patch_element, conv_per_pixel_tap,
      dwconv_per_scalar_mac, dwconv_per_pixel, dwconv_per_general_pixel;
};

const std::map<std::string, Calibrated>& calibrated() {
  static const std::map<std::string, Calibrated> table = {
      {"cortex-m0plus",
       {16.0024, 178.134, 488.76,  11.9566, 12.0919, 67.5003, 286.125, 1079.38, 32.825,
        20.0443, 36.107,  265.836, 21817.3, 25.7304, 229.067, 2172.36, 383.211, 175.179,
        144.424, 675.318, 229.463, 1615.59, 381.817, 184.213, 1.40297, 270.918, 257.262,
        439.454, 14.9728, 30.9349, 13.4545, 214.45,  157.761, 988.214, 12.5273, 2044.24,
        923.123, 380.77,  188.071, 0,       0,       0,       0,       0,       0}},
      {"cortex-m33",
       {8.17485, 70.524,  318.912, 7.07636, 7.13799, 34.6027, 118.118, 837.567, 17.3672,
        12.9452, 18.8327, 122.137, 12247.8, 8.31923, 83.0607, 572.031, 111.592, 61.665,
        51.8851, 43.5063, 11.6237, 365.393, 183.373, 136.676, 0.97876, 9.66184, 27.9119,
        315.186, 10.6835, 4.01743, 11.0432, 83.8639, 44.7651, 467.001, 7.91019, 752.541,
        390.606, 480.717, 9.47994, 0,       0,       0,       0,       0,       0}},
      {"cortex-m4f",
       {10.6349, 79.8575, 657.331, 9.68586, 9.71054, 38.7208, 129.04,  1937.75, 14.3045,
        22.3985, 27.3899, 141.796, 1127.86, 12.3618, 103.345, 618.45,  115.026, 65.4768,
        57.1269, 69.6376, 11.9977, 400.769, 426.562, 267.995, 1.1428,  11.6379, 38.8018,
        472.132, 11.6096, 2.81786, 14.0084, 91.6889, 65.3433, 1417.27, 9.53386, 840.009,
        1555.34, 1269.71, 10.4032, 0,       0,       0,       0,       0,       0}},
      {"fe310", {348.004, 404.228, 13357,   346.915, 347.462, 21.089,  127.846, 30658.7, 344.783,
                 11.4738, 8.62195, 118.383, 33469.6, 9.06316, 100.791, 772.816, 138.255, 63.4147,
                 44.9124, 289.24,  172.2,   547.857, 15847.6, 4792,    8,       554.877, 1422,
                 5262.86, 347.009, 347.313, 7.71602, 76.4568, 403.147, 21854.1, 346.929, 736.49,
                 785.89,  57040.7, 367.804, 0,       0,       0,       0,       0,       0}},
      {"rv32im", {12.0034, 68.2772, 252.399, 10.9239, 11.2514, 21.5994, 128.391, 731.612, 9.25483,
                  10.5272, 8.85301, 121.819, 6771.94, 8.08843, 97.1948, 722.634, 138.335, 66.2228,
                  52.9755, 265.516, 173.622, 518.136, 204.356, 88,      8,       210.964, 127.834,
                  183.121, 11.0095, 11.7667, 7.37583, 76.966,  66.9942, 874.672, 10.9442, 720.06,
                  788.4,   1378.39, 140.162, 0,       0,       0,       0,       0,       0}},
      {"stm32g0b1",
       {17.0026, 189.681, 510.412, 12.9524, 13.1106, 67.8563, 300.544, 1112.23, 32.6414,
        21.2467, 35.8546, 280.476, 21598.9, 25.8475, 233.446, 2277.45, 399.52,  182.338,
        152.011, 704.646, 242.485, 1686.97, 402.449, 198.131, 1.40491, 290.24,  279.97,
        456.837, 15.9655, 31.9597, 13.4374, 224.762, 166.598, 1034.11, 13.5302, 2173.36,
        958.75,  408.844, 203.71,  0,       0,       0,       0,       0,       0}},
  };
  return table;
}

// The optimized library's coefficients, fitted by `hilsim calibrate` with cpu.kernels optimized
// on the presets with an instruction-set simulator; the board presets with reference rows of their
// own (fe310, stm32g0b1) have optimized ones too. Operators the library has no kernel for run
// the reference kernels, so their coefficients repeat the reference table's. Refit every row with
// scripts/refit_cost_model.sh.
// The reference kernels' coefficients at cpu.firmware_opt Os, fitted by `hilsim calibrate` with
// the -Os firmware images; a board preset uses its core's.
const std::map<std::string, Calibrated>& calibratedOs();

const std::map<std::string, Calibrated>& calibratedOptimized() {
  static const std::map<std::string, Calibrated> table = {
      {"cortex-m0plus",
       {9.64124, 172.438, 422.397, 10.2087, 12.2468, 0.154422, 167.619, 948.836, 11.8145,
        0,       10.5102, 187.968, 0,       26.6325, 71.3147,  161.906, 332.604, 143.051,
        139.559, 659.344, 218.574, 1601.55, 535.897, 207.502,  1.40043, 270.918, 257.287,
        468.372, 14.9728, 30.9352, 13.4544, 214.448, 157.762,  1011.18, 8.09818, 1991.46,
        1667.18, 498.619, 188.066, 10.9055, 11.9877, 56.6131,  13.6807, 75.2915, 376.261}},
      {"cortex-m33",
       {1.9427,   48.9414, 537.763, 1.69048, 1.93761, 0,       53.5793,  1382.7,  0,
        0.708829, 7.82652, 61.1865, 331.712, 2.82802, 29.7368, 40.4872,  63.0955, 37.7721,
        50.8539,  42.449,  11.2614, 362.738, 224.311, 140.837, 0.976258, 9.66417, 28.0976,
        332.982,  10.6835, 4.01766, 11.0431, 83.8612, 44.7674, 479.97,   2.10507, 672.238,
        1193.78,  759.621, 9.44552, 0,       9.25646, 43.7667, 10.7622,  14.2808, 363.696}},
      {"cortex-m4f",
       {2.49754, 54.4907, 1281.74, 2.08882, 2.3509,  0,       63.4432, 2242.37, 4.50199,
        0,       7.03414, 79.8279, 1671.2,  3.7001,  33.3577, 46.8485, 84.1998, 43.5999,
        56.1175, 68.1675, 11.4944, 397.793, 509.229, 287.898, 1.13939, 11.6279, 37.7814,
        526.364, 11.6096, 2.81787, 14.0084, 91.6877, 65.3441, 1436.26, 2.64017, 880.968,
        2640.88, 2120.88, 10.5154, 0,       12.6193, 65.1432, 12.4468, 52.4351, 234.514}},
      {"fe310",
       {7.5235,  35.1535, 786.705, 6.40632, 6.74776, 0.0426316, 54.7293, 1696.04, 9.43006,
        0,       2.00046, 79.4042, 0,       10.8652, 33.3738,   55.24,   66.0231, 42.3162,
        51.0794, 263.511, 168.521, 514.644, 287.913, 110,       8,       214.528, 151.824,
        293.721, 11.0096, 11.75,   7.38699, 76.9277, 67.0272,   915.572, 7.85607, 770.766,
        1172.72, 972.053, 150.408, 4.6814,  8.54056, 27.0921,   10.2701, 12.8785, 0.68601}},
      {"stm32g0b1",
       {9.64124, 172.438, 422.397, 10.2087, 12.2468, 0.154422, 167.619, 948.836, 11.8145,
        0,       10.5102, 187.968, 0,       26.6325, 71.3147,  161.906, 332.604, 143.051,
        139.559, 659.344, 218.574, 1601.55, 535.897, 207.502,  1.40043, 270.918, 257.287,
        468.372, 14.9728, 30.9352, 13.4544, 214.448, 157.762,  1011.18, 8.09818, 1991.46,
        1667.18, 498.619, 188.066, 10.9055, 11.9877, 56.6131,  13.6807, 75.2915, 376.261}},
      {"rv32im",
       {7.5235,  35.1535, 786.705, 6.40632, 6.74776, 0.0426316, 54.7293, 1696.04, 9.43006,
        0,       2.00046, 79.4042, 0,       10.8652, 33.3738,   55.24,   66.0231, 42.3162,
        51.0794, 263.511, 168.521, 514.644, 287.913, 110,       8,       214.528, 151.824,
        293.721, 11.0096, 11.75,   7.38699, 76.9277, 67.0272,   915.572, 7.85607, 770.766,
        1172.72, 972.053, 150.408, 4.6814,  8.54056, 27.0921,   10.2701, 12.8785, 0.68601}},
  };
  return table;
}

const std::map<std::string, Calibrated>& calibratedOs() {
  static const std::map<std::string, Calibrated> table = {
      {"cortex-m0plus",
       {23.002,  219.991, 985.865, 97.077,  97.0378, 53.7915, 295.053, 1655.08, 94.4455,
        22.8503, 36.27,   266.691, 11351.4, 27.3858, 274.467, 2883.09, 510.455, 231.773,
        209.368, 713.318, 240.254, 2068.44, 559.117, 201.431, 1.40104, 276.558, 272.519,
        746.594, 19.6218, 28.5047, 21.0628, 259.072, 220.416, 1535.44, 14.9618, 2737.03,
        745.319, 2350.29, 193.372, 0,       0,       0,       0,       0,       0}},
      {"cortex-m33",
       {10.1742, 73.1417, 768.542, 65.1351, 65.0783, 39.3048, 116.55,  1365.11, 65.4466,
        18.9049, 17.9864, 116.11,  8039.14, 17.4245, 134.31,  819.71,  150.975, 93.0853,
        82.6056, 62.1374, 15.4813, 577.865, 392.7,   147.028, 0.97489, 12.664,  32.439,
        465.339, 11.8736, 2.7303,  13.4747, 111.538, 68.6485, 1023.33, 8.1526,  1062.26,
        520.526, 2079.08, 12.4058, 0,       0,       0,       0,       0,       0}},
      {"cortex-m4f",
       {13.635,  85.3748, 1179.16, 75.7757, 75.6722, 42.3821, 125.234, 2121.17, 67.6493,
        25.1313, 24.3045, 132.54,  0,       20.3844, 156.946, 905.609, 165.283, 98.9175,
        91.7744, 90.0959, 15.9238, 640.638, 741.66,  286.853, 1.13956, 14.6274, 42.8113,
        659.876, 14.67,   1.58725, 16.464,  118.125, 79.7615, 1858.37, 9.65886, 1205.43,
        1087.61, 3066.8,  13.4698, 0,       0,       0,       0,       0,       0}},
      {"rv32im", {14.0009, 102.594, 989.211, 86.1964, 85.681,  29.8861, 144.224, 1640.2,  78.9483,
                  11.5391, 19.8149, 144.845, 9158.12, 11.5374, 120.218, 1526.56, 215.355, 116.607,
                  86.7643, 277.665, 174.228, 976.427, 370.645, 100,     8,       219.889, 138.476,
                  584.462, 18.9973, 19.5268, 5.5822,  121.97,  105.385, 1160.05, 12.9815, 1205.07,
                  515.514, 2028.1,  149.051, 0,       0,       0,       0,       0,       0}},
  };
  return table;
}

// The coefficients `hilsim calibrate` fitted, in place of the published figures.
void applyCalibrated(const Calibrated& f, CpuCoefficients& c) {
  c.fc_per_mac = f.fc_per_mac;
  c.fc_per_output = f.fc_per_output;
  c.fc_per_call = f.fc_per_call;
  c.conv1x1_per_mac = f.conv1x1_per_mac;
  c.conv_per_mac = f.conv_per_mac;
  c.conv_per_tap = f.conv_per_tap;
  c.conv_per_output = f.conv_per_output;
  c.conv_per_call = f.conv_per_call;
  c.conv_per_padded_mac = f.conv_per_padded_mac;
  c.conv_per_patch_element = f.conv_per_patch_element;
  c.conv_per_pixel_tap = f.conv_per_pixel_tap;
  c.dwconv_per_scalar_mac = f.dwconv_per_scalar_mac;
  c.dwconv_per_pixel = f.dwconv_per_pixel;
  c.dwconv_per_general_pixel = f.dwconv_per_general_pixel;
  c.dwconv_per_mac = f.dwconv_per_mac;
  c.dwconv_per_tap = f.dwconv_per_tap;
  c.dwconv_per_row = f.dwconv_per_row;
  c.dwconv_per_output = f.dwconv_per_output;
  c.dwconv_per_call = f.dwconv_per_call;
  c.pool_per_element = f.pool_per_element;
  c.pool_per_output = f.pool_per_output;
  c.softmax_per_element = f.softmax_per_element;
  c.add_per_element = f.add_per_element;
  c.mul_per_element = f.mul_per_element;
  c.quantize_per_element = f.quantize_per_element;
  c.quantize_float_per_element = f.quantize_float_per_element;
  c.dequantize_per_element = f.dequantize_per_element;
  c.activation_per_element = f.activation_per_element;
  c.op_per_call = f.op_per_call;
  c.reshape_per_call = f.reshape_per_call;
  c.reshape_per_byte = f.reshape_per_byte;
  c.svdf_per_feature_mac = f.svdf_per_feature_mac;
  c.svdf_per_time_mac = f.svdf_per_time_mac;
  c.svdf_state_per_byte = f.svdf_state_per_byte;
  c.svdf_per_filter = f.svdf_per_filter;
  c.svdf_per_unit = f.svdf_per_unit;
  c.svdf_per_call = f.svdf_per_call;
  c.lstm_per_mac = f.lstm_per_mac;
  c.lstm_cell_per_element = f.lstm_cell_per_element;
  c.lstm_per_step = f.lstm_per_step;
  c.lstm_per_call = f.lstm_per_call;
}

// The LSTM of a preset without a calibrated one: the gate products priced as the preset's
// FULLY_CONNECTED (per MAC, per output, per call) and the cell's element-wise work relative to
// ADD; no per-step term.
// SVDF without a calibration of its own: two FULLY_CONNECTED-like products, and per filter and
// unit FULLY_CONNECTED's per-output work (E). fc: a, b, c of the kernel library's FULLY_CONNECTED.
void svdfFromFullyConnected(const double (&fc)[3], CpuCoefficients* c) {
  c->svdf_per_feature_mac = fc[0];
  c->svdf_per_time_mac = fc[0];
  c->svdf_per_filter = fc[1];
  c->svdf_per_unit = fc[1];
  c->svdf_per_call = fc[2];
}

void lstmFromFullyConnected(double add_ref, CpuCoefficients* c) {
  c->lstm_per_mac = c->fc_per_mac;
  c->lstm_cell_per_element = 8.0 * c->fc_per_output + add_ref * kLstmCellPerAdd;
  c->lstm_per_step = 0.0;
  c->lstm_per_call = c->fc_per_call;
}

const CorePreset& lookup(const std::string& name) {
  const auto& table = presets();
  const auto it = table.find(name);
  if (it == table.end()) {
    std::string valid;
    for (const auto& [key, _] : table) valid += (valid.empty() ? "" : ", ") + key;
    throw ConfigError("unknown CPU preset '" + name + "' (valid: " + valid + ")");
  }
  return it->second;
}

// The reference kernels built at -Os: the -O2 coefficients with the -Os calibration in place.
CpuCoefficients cpuPresetOs(const std::string& preset, const CorePreset& p, KernelLibrary library) {
  if (library != KernelLibrary::kReference)
    throw ConfigError(
        "cpu.firmware_opt 'Os' applies to the reference kernels only (the optimized "
        "library is built at -O2)");
  auto os = calibratedOs().find(preset);
  if (os == calibratedOs().end()) os = calibratedOs().find(p.core);
  if (os == calibratedOs().end())
    throw ConfigError("cpu.firmware_opt 'Os' has no cost-model coefficients for preset '" + preset +
                      "': they are calibrated on the presets with an instruction-set simulator");
  CpuCoefficients c = cpuPreset(preset, library, FirmwareOpt::kO2);
  applyCalibrated(os->second, c);
  c.fc_float_per_mac = os->second.fc_float_per_mac;
  c.fc_float_per_zero_mac = os->second.fc_float_per_zero_mac;
  c.fc_float_per_output = os->second.fc_float_per_output;
  c.fc_float_per_call = os->second.fc_float_per_call;
  return c;
}

}  // namespace

const std::vector<std::string>& cpuPresetNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [key, _] : presets()) out.push_back(key);
    return out;
  }();
  return names;
}

double cpuPresetClockMhz(const std::string& preset) {
  return lookup(preset).clock_mhz;
}

CpuDriverCycles cpuPresetDriver(const std::string& preset) {
  return lookup(preset).driver;
}

CpuCoefficients cpuPreset(const std::string& preset, KernelLibrary library, FirmwareOpt level) {
  const CorePreset& p = lookup(preset);
  if (level == FirmwareOpt::kOs) return cpuPresetOs(preset, p, library);
  CpuCoefficients c;
  c.fc_per_mac = p.fc_ref[0];
  c.fc_per_output = p.fc_ref[1];
  c.fc_per_call = p.fc_ref[2];
  // Float32 FULLY_CONNECTED: a single-precision FPU MAC priced as an int8 one (E).
  c.fc_float_per_mac = p.fc_ref[0];
  c.fc_float_per_zero_mac = p.fc_ref[0];  // an FPU's MAC takes no shortcut for a zero
  c.fc_float_per_output = p.fc_ref[1];
  c.fc_float_per_call = p.fc_ref[2];
  svdfFromFullyConnected(p.fc_ref, &c);
  c.conv1x1_per_mac = kConv1x1PerMac * p.k;
  c.conv_per_mac = kConvPerMac * p.k;
  c.conv_per_output = kConvPerOutput * p.k;
  c.conv_per_call = kConvPerCall * p.k;
  c.dwconv_per_mac = kDwPerMac * p.k;
  c.dwconv_per_call = kConvPerCall * p.k;
  c.pool_per_element = kPoolPerElement * p.k;
  c.softmax_per_element = p.softmax_ref;
  c.quantize_per_element = kQuantizePerElement * p.k;
  // From float32: one float division and rounding per element, priced as DEQUANTIZE's float
  // multiply (E).
  c.quantize_float_per_element = p.dequantize_ref;
  c.dequantize_per_element = p.dequantize_ref;
  c.reshape_per_call = kInterpreterFloor * p.k;
  c.op_per_call = kInterpreterFloor * p.k;
  c.svdf_state_per_byte = kStatePerByte * p.k;
  c.add_per_element = p.add_ref;
  c.mul_per_element = p.add_ref * kMulPerAdd;
  c.minmax_per_element = p.add_ref * kMinMaxPerAdd;
  c.activation_per_element = p.add_ref * kActivationPerAdd;
  c.hard_swish_per_element = p.add_ref * kHardSwishPerAdd;
  c.copy_per_element = kCopyPerElement * p.k;
  c.reshape_per_byte = c.copy_per_element;
  c.mean_per_element = kMeanPerElement * p.k;
  c.reduction_multiple = 1;
  lstmFromFullyConnected(p.add_ref, &c);
  // A board preset without a calibration of its own uses its core's.
  auto cal = calibrated().find(preset);
  if (cal == calibrated().end()) cal = calibrated().find(p.core);
  if (cal != calibrated().end()) {
    // CMSIS-NN has no float32 FULLY_CONNECTED: both libraries run the reference kernel.
    c.fc_float_per_mac = cal->second.fc_float_per_mac;
    c.fc_float_per_zero_mac = cal->second.fc_float_per_zero_mac;
    c.fc_float_per_output = cal->second.fc_float_per_output;
    c.fc_float_per_call = cal->second.fc_float_per_call;
  }
  if (library == KernelLibrary::kReference) {
    if (cal != calibrated().end()) applyCalibrated(cal->second, c);
    return c;
  }

  auto opt = calibratedOptimized().find(preset);
  if (opt == calibratedOptimized().end()) opt = calibratedOptimized().find(p.core);
  if (opt != calibratedOptimized().end()) {
    applyCalibrated(opt->second, c);
    return c;
  }
  if (!p.has_cmsis)
    throw ConfigError("cpu.kernels 'optimized' has no cost-model coefficients for preset '" +
                      preset + "': no published optimized-kernel figures, and none calibrated");
  // Without a calibration: published CMSIS-NN figures of the core.
  // Convolutions scale with the core's CMSIS-NN / reference FULLY_CONNECTED ratio, except on
  // Helium where pointwise and depthwise convolutions were measured directly.
  const double ratio = p.fc_cmsis[0] / p.fc_ref[0];
  c.fc_per_mac = p.fc_cmsis[0];
  c.fc_per_output = p.fc_cmsis[1];
  c.fc_per_call = p.fc_cmsis[2];
  c.conv1x1_per_mac *= ratio;
  c.conv_per_mac *= ratio;
  c.conv_per_output *= ratio;
  c.dwconv_per_mac *= ratio;
  c.conv_per_call = p.fc_cmsis[2];
  c.dwconv_per_call = p.fc_cmsis[2];
  svdfFromFullyConnected(p.fc_cmsis, &c);
  if (p.helium) {
    c.conv1x1_per_mac = 0.25;
    c.conv_per_mac = 0.26;
    c.conv_per_output = 16.0;
    c.dwconv_per_mac = 3.8;
    c.reduction_multiple = 16;
  }
  lstmFromFullyConnected(p.add_ref, &c);
  return c;
}

}  // namespace hilsim::timing
