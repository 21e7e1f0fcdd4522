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
          {14, 0, 75}}},
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
    t.emplace("ra6m4", board("cortex-m33", 200, {36, 0, 56}));
    t.emplace("fe310", board("rv32im", 320, {14, 0, 75}));
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
       {16.0385, 175.185, 467.378, 11.9566, 12.0919, 67.4999, 285.126, 1185.43, 33.0178,
        19.7076, 36.204,  266.007, 21600.2, 25.7517, 229.504, 2146.46, 411.633, 175.996,
        143.193, 677.382, 228.014, 1599.61, 358.42,  166.173, 1.40697, 269.596, 257.699,
        419.639, 14.9728, 30.9141, 13.4686, 213.506, 156.857, 987.455, 12.527,  2033.15,
        923.722, 359.267, 188.841, 0,       0,       0,       0,       0,       0}},
      {"cortex-m33",
       {8.19322, 71.6836, 256.543, 7.07635, 7.13795, 34.6028, 118.118,  788.546, 17.4521,
        12.7854, 18.881,  122.741, 12123.6, 8.32728, 83.0705, 572.146,  104.43,  62.5754,
        52.7062, 44.2979, 11.4975, 364.676, 152.372, 119.055, 0.983567, 9.6616,  27.7143,
        282.152, 10.6835, 4.01736, 11.0432, 83.8647, 44.7644, 463.011,  7.91025, 752.694,
        389.343, 511.693, 9.49273, 0,       0,       0,       0,        0,       0}},
      {"cortex-m4f",
       {10.6587, 79.4329, 626.924, 9.68322, 9.71118, 38.746,  129.13,  1883.22, 13.6978,
        23.6328, 26.9653, 136.97,  2469.23, 12.3789, 103.361, 619.965, 113.023, 65.3951,
        57.7624, 70.3898, 11.9582, 402.858, 380.976, 250.159, 1.14364, 11.6467, 39.6419,
        429.268, 11.6095, 2.83436, 13.9964, 91.686,  65.3437, 1426.46, 9.52776, 839.127,
        1536.02, 1292.61, 10.3101, 0,       0,       0,       0,       0,       0}},
      {"fe310", {348.123, 430.423, 12486,   346.915, 347.462, 21.089,  127.846, 31376.9, 344.757,
                 11.2607, 8.75096, 120.152, 33270.5, 9.16588, 99.3666, 773.812, 140.207, 64.2665,
                 45.0889, 293.866, 168.519, 551.127, 16673.1, 3783,    8,       560.195, 1554.55,
                 4946.07, 347.011, 347.93,  7.31147, 75.2205, 404.422, 22728.1, 346.929, 744.564,
                 903.15,  57581,   363.78,  0,       0,       0,       0,       0,       0}},
      {"rv32im", {12.0991, 63.0248, 264.729, 10.9239, 11.2514, 21.5994, 128.391, 777.671, 9.50756,
                  10.112,  8.96736, 123.145, 6655.68, 8.08148, 97.1904, 721.78,  139.975, 66.4565,
                  52.8647, 272.1,   174.462, 517.314, 239.843, 87,      8,       217.201, 149.338,
                  254.582, 11.0096, 11.7655, 7.37621, 76.9258, 67.0273, 904.695, 10.9442, 721.883,
                  913.738, 1273.8,  148.675, 0,       0,       0,       0,       0,       0}},
      {"stm32g0b1",
       {17.0528, 184.899, 482.784, 12.9524, 13.1107, 67.8556, 298.546, 1228.3,  32.8551,
        20.8765, 35.9612, 279.75,  21360.8, 25.8834, 234.27,  2226.46, 425.973, 181.739,
        149.82,  709.051, 239.025, 1653.72, 377.028, 178.257, 1.4106,  287.597, 280.853,
        437.229, 15.9655, 31.9183, 13.4654, 222.878, 164.788, 1033.53, 13.5298, 2151.21,
        959.872, 385.162, 205.244, 0,       0,       0,       0,       0,       0}},
      {"ra6m4", {9.19009, 83.5155, 470.037, 8.06451, 8.15554, 43.4808, 163.124, 1360.37, 25.4035,
                 15.9262, 25.7475, 171.255, 18425.6, 10.2306, 108.845, 652.856, 121.021, 73.5589,
                 60.2716, 49.0781, 14.2017, 403.374, 244.283, 167.39,  1.51952, 10.6808, 32.5507,
                 410.85,  12.7021, 2.06163, 16.9563, 97.7761, 52.5404, 845.276, 9.73504, 940.291,
                 593.276, 983.112, 10.2762, 0,       0,       0,       0,       0,       0}},
  };
  return table;
}

// The optimized library's coefficients, fitted by `hilsim calibrate` with cpu.kernels optimized
// on the presets with an instruction-set simulator; the board presets with reference rows of their
// own (fe310, stm32g0b1) have optimized ones too, and stm32u575, whose fourth wait state moves the
// optimized kernels' weight streams 5-6% off the cortex-m33 row's. Operators the library has no
// kernel for run the reference kernels, so their coefficients repeat the reference table's. Refit
// every row with scripts/refit_cost_model.sh. The reference kernels' coefficients at
// cpu.firmware_opt Os, fitted by `hilsim calibrate` with the -Os firmware images; a board preset
// uses its core's.
const std::map<std::string, Calibrated>& calibratedOs();

const std::map<std::string, Calibrated>& calibratedOptimized() {
  static const std::map<std::string, Calibrated> table = {
      {"cortex-m0plus",
       {9.66606, 162.874, 631.78,  10.212,  12.2801, 0.151473, 166.323, 956.798, 11.2282,
        0,       10.8598, 191.328, 0,       26.6472, 71.2977,  162.228, 336.636, 145.852,
        138.939, 659.179, 219.778, 1603.19, 516.179, 194.345,  1.40179, 270.918, 257.278,
        457.403, 14.9728, 30.9352, 13.4544, 214.448, 157.762,  1013.18, 8.09818, 1991.46,
        1667.18, 498.619, 188.068, 10.716,  12.1078, 60.3187,  12.7673, 70.381,  461.393}},
      {"cortex-m33",
       {1.92726,  54.4326, 426.005, 1.69039, 1.93984, 0,       53.5848,  1381.75, 0,
        0.730929, 7.80839, 61.0789, 395.123, 2.83412, 29.7437, 40.7035,  63.3591, 37.9688,
        51.1472,  41.3556, 11.3917, 361.534, 212.453, 130.494, 0.978801, 9.66449, 27.9815,
        308.295,  10.6835, 4.01252, 11.0467, 83.8629, 44.7661, 477.221,  2.10507, 672.238,
        1193.78,  759.621, 9.45592, 0,       9.20538, 43.7978, 10.8139,  14.1247, 360.242}},
      {"cortex-m4f",
       {2.47344, 64.9638, 983.762, 2.08889, 2.35197, 0,       63.4391, 2237.29, 4.92844,
        0,       6.77056, 77.9045, 3115.6,  3.71013, 33.3733, 47.1108, 84.5709, 43.8746,
        56.192,  67.6076, 11.5752, 398.961, 488.111, 265.895, 1.14318, 11.6397, 38.9119,
        459.833, 11.6095, 2.83436, 13.9964, 91.6855, 65.344,  1433.46, 2.64017, 880.968,
        2640.88, 2120.88, 10.389,  0,       12.5644, 65.1778, 13.2921, 49.5532, 173.212}},
      {"fe310", {248.029, 0,       22185.1, 178.787, 175.264, 2.82058, 0,       108449,  346.2,
                 0,       1.05348, 82.4321, 43135.6, 12.7218, 38.9998, 51.2191, 69.0919, 42.544,
                 44.8654, 297.022, 173.741, 555.31,  15903.2, 4814,    8,       558.289, 1598.93,
                 4128.26, 347.011, 346.708, 8.12764, 75.2438, 404.407, 22729.6, 343.628, 842.296,
                 1050.81, 56496.6, 363.718, 172.36,  0,       20.6045, 9.40021, 7.31213, 7.36577}},
      {"stm32g0b1",
       {10.5684, 169.45,  661.674, 10.7311, 12.7991, 0.192533, 172.339, 1252.32, 12.0654,
        0,       10.9415, 200.062, 0,       26.8678, 73.523,   167.941, 346.781, 150.585,
        146.234, 687.922, 232.05,  1674.06, 544.113, 211.317,  1.40336, 290.24,  279.99,
        478.772, 15.9655, 31.96,   13.4373, 224.76,  166.599,  1062.08, 9.08357, 2107.27,
        1747.78, 455.844, 203.706, 11.0699, 12.3905, 65.1191,  12.9454, 75.2194, 472.936}},
      {"rv32im",
       {7.48813, 50.3045, 411.388, 6.40632, 6.74776, 0.0426316, 54.7293, 1696.04, 9.06382,
        0,       2.21681, 80.165,  0,       10.8652, 33.3738,   55.24,   66.0231, 42.3162,
        51.0794, 263.511, 168.521, 514.644, 287.913, 110,       8,       214.528, 151.824,
        293.721, 11.0096, 11.75,   7.38699, 76.9277, 67.0272,   915.572, 7.85607, 770.766,
        1172.72, 972.053, 150.408, 4.6814,  8.54056, 27.0921,   9.33631, 15.7752, 62.4085}},
      {"stm32u575",
       {1.97897,  54.0349, 444.489, 1.70865, 1.97353, 0,       53.2045,  1426.48, 0,
        0.732259, 7.80977, 61.0702, 459.425, 2.83779, 29.7578, 40.6074,  63.3388, 37.9576,
        51.1125,  41.3746, 11.3701, 362.407, 230.005, 142.47,  0.978962, 9.87813, 28.6941,
        318.311,  10.7383, 4.06852, 11.1036, 86.3472, 42.9444, 447.509,  2.16736, 664.646,
        1197.83,  866.517, 9.60403, 0,       8.92759, 43.9257, 10.8136,  14.1012, 360.062}},
      {"ra6m4", {2.1965,   71.8102, 724.153, 1.98986, 2.46265, 0,       70.9713, 1791.74, 0,
                 0.140782, 11.1207, 81.0937, 1862.54, 3.86001, 38.765,  47.0533, 77.763,  45.2502,
                 58.7324,  46.1839, 14.0197, 399.578, 321.583, 181.472, 1.5185,  10.6774, 32.4524,
                 441.714,  12.7023, 2.05808, 16.958,  97.5864, 52.7198, 862.138, 2.27544, 887.882,
                 1714.73,  1465.18, 10.2893, 0,       12.3472, 56.7674, 13.6593, 36.095,  514.529}},
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
