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
    t.emplace("ra6m4", board("cortex-m33", 200, {28, 0, 51}));
    t.emplace("fe310", board("rv32im", 320, {14, 0, 75}));
    return t;
  }();
  return table;
}

// The reference kernels' coefficients of the presets with an instruction-set simulator, as
// `hilsim calibrate` fits them at the preset's default wait states (README.md, "calibrate";
// configs/README.md, "Calibrated on the ISS"). They replace the published figures above, which
// stay the cross-check. A board preset uses its core's unless its memories move the cost model
// more than 5% off its ISS (stm32g0b1: no data cache at 2 wait states; fe310: uncached weights in
// QSPI flash; ra6m4: an SRAM wait state; nrf5340: its cache's first calls), which have their own.
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
      dwconv_per_scalar_mac, dwconv_per_pixel, dwconv_per_general_pixel, fc_first_call,
      conv_first_call, dwconv_first_call, svdf_first_call, lstm_first_call, reshape_first_call,
      op_first_call, fc_per_weight_read, fc_per_tail_mac, lstm_per_recurrent_mac,
      lstm_per_unaligned_load, lstm_per_tail_mac, dwconv_per_quad, dwconv_per_quad_row,
      dwconv_per_scalar_channel, dwconv_per_scalar_row, conv_per_tail_mac, conv_per_unaligned_load,
      pool_per_call, softmax_per_call, add_per_call, mul_per_call, maxpool_per_element,
      maxpool_per_output, maxpool_per_call, pool_per_row, maxpool_per_row, fc_float_first_call,
      dwconv_per_quad_pixel, dwconv_per_filter_miss, fc_path_first_call;
};

const std::map<std::string, Calibrated>& calibrated() {
  static const std::map<std::string, Calibrated> table = {
      {"cortex-m0plus",
       {16.0349, 175.225, 468.392, 11.9338, 12.1202, 67.5112, 286.353, 1195.99, 33.0178, 19.7076,
        36.204,  266.007, 21601.2, 24.0661, 276.7,   1976.87, 396.656, 166.668, 144.527, 681.797,
        230.995, 1603.09, 326.79,  167.189, 1.40681, 269.6,   257.731, 420.051, 14.9728, 30.9141,
        13.4686, 213.506, 156.857, 988.454, 10.9482, 1904.9,  1261.7,  883.683, 188.83,  0,
        0,       0,       0,       0,       0,       0,       0,       0,       0,       0,
        0,       0,       0,       0,       15.8742, 0,       0,       0,       0,       0,
        0,       0,       0,       2321.54, 2171.37, 2008.76, 1838.81, 25.0636, 199.064, 1943.58,
        0,       0,       0,       0,       0,       0}},
      {"cortex-m33",
       {8.18753, 71.2606, 221.849, 7.06637, 7.1522,   34.5625, 118.647, 714.771, 17.4524, 12.7851,
        18.8813, 122.741, 12032.8, 6.79409, 92.5892,  528.635, 97.7716, 58.0747, 52.8246, 44.7326,
        11.6542, 361.482, 114.433, 89.5608, 0.979112, 9.6496,  26.6721, 259.97,  10.6955, 4.02352,
        11.0528, 83.4583, 45.2748, 340.237, 6.05355,  621.261, 701.852, 753.162, 9.6592,  0,
        0,       0,       0,       0,       0,        28.8947, 132.667, 91.7368, 78.1875, 210.938,
        33,      79.2128, 0,       0,       12.2092,  0,       0,       0,       0,       0,
        0,       0,       0,       845.123, 512.75,   1275.21, 1227.07, 9.38471, 72.3686, 779.897,
        0,       0,       29.625,  0,       0,        0}},
      {"nrf5340",
       {8.18924, 71.2507, 218.799, 7.07083, 7.15556,  34.5567, 118.613, 709.554, 17.4486, 12.7884,
        18.8813, 122.742, 12029.3, 6.79408, 92.5893,  528.633, 97.7716, 58.0747, 52.8615, 44.7651,
        11.6514, 361.552, 111.069, 86.4546, 0.980234, 9.6619,  26.5594, 258.346, 10.7193, 4.07227,
        11.0324, 82.5748, 46.27,   322.902, 6.05248,  621.749, 701.112, 778.638, 9.68418, 0,
        0,       0,       0,       0,       0,        88.4211, 297.333, 331.263, 209.438, 498.75,
        65,      210.128, 0,       0,       12.2278,  0,       0,       0,       0,       0,
        0,       0,       0,       842.096, 509.77,   1272.22, 1224.07, 9.38471, 72.3687, 776.878,
        0,       0,       82.5,    0,       0,        0}},
      {"cortex-m4f",
       {10.664,  78.6041, 256.184, 9.66661, 9.74982, 38.8343, 129.787, 1890.92, 20.3815, 16.2172,
        24.29,   139.7,   14828.9, 10.4956, 116.514, 550.57,  105.268, 60.5772, 57.9192, 71.2631,
        12.5541, 400.285, 146.888, 108.29,  1.09926, 11.5577, 29.2101, 320.02,  11.6098, 2.82055,
        14.0081, 91.781,  65.2686, 1232.24, 7.65472, 712.034, 1904.7,  1676.59, 11.552,  0,
        0,       0,       0,       0,       0,       373.684, 9.72222, 0,       189.375, 0,
        173.333, 290.106, 0,       0,       13.5686, 0,       0,       0,       0,       0,
        0,       0,       0,       1532.85, 1288.93, 2270.95, 1829.81, 12.9396, 90.5167, 1437.17,
        0,       0,       374.375, 0,       4.48259, 0}},
      {"fe310",
       {348.146, 397.006, 235.439, 346.907, 347.614, 21.006,  128.083, 758.785, 344.756, 11.2725,
        8.74585, 120.058, 7340.25, 6.27854, 96.0692, 673.04,  130.279, 61.0202, 53.8621, 273.289,
        177.189, 521.331, 166.51,  60.0152, 7.97834, 552.65,  478.61,  274.048, 347.011, 347.933,
        7.30501, 74.8961, 404.695, 838.348, 346.916, 733.409, 898.242, 1261.31, 481.175, 0,
        0,       0,       0,       0,       0,       12768.9, 30656.7, 25919,   21897.5, 57783.8,
        3725,    20979.1, 0,       0,       346.877, 0,       0,       0,       0,       0,
        0,       0,       0,       634.304, 758.714, 2323.13, 2376.07, 11.5901, 87.2514, 991.497,
        0,       0,       30811.1, 0,       0,       0}},
      {"rv32im",
       {12.0855, 62.7321, 228.818, 10.9025, 11.3316, 21.7946, 129.045, 742.102, 9.5073,  10.1125,
        8.96748, 123.142, 6600.35, 6.27861, 96.059,  672.063, 130.278, 61.0165, 53.5788, 279.082,
        175.937, 521.951, 174.7,   60.0152, 7.97834, 217.327, 150.119, 236.705, 11.0117, 11.7963,
        7.33305, 77.3483, 66.3423, 899.208, 10.9494, 718.407, 918.186, 1301.71, 148.36,  0,
        0,       0,       0,       0,       0,       39.6842, 84.9444, 50.7368, 38.25,   0,
        29,      24.6383, 0,       0,       10.939,  0,       0,       0,       0,       0,
        0,       0,       0,       633.54,  771.957, 2395.13, 2445.14, 11.4374, 90.7101, 825.788,
        0,       0,       0,       0,       0,       0}},
      {"stm32g0b1",
       {17.0472, 184.957, 484.81,  12.9269, 13.1437, 67.8952, 299.868, 1241.1,  32.8551, 20.8765,
        35.9612, 279.75,  21362.8, 24.0985, 287.565, 2050.93, 410.557, 172.192, 151.222, 713.689,
        242.185, 1657.37, 344.581, 180.295, 1.41026, 287.604, 280.918, 438.06,  15.9655, 31.9183,
        13.4654, 222.878, 164.788, 1035.53, 11.9443, 2023.2,  1294.25, 910.88,  205.221, 0,
        0,       0,       0,       0,       0,       0,       0,       0,       0,       0,
        0,       0,       0,       0,       16.8733, 0,       0,       0,       0,       0,
        0,       0,       0,       2364.51, 2254.46, 2075.24, 1886.63, 25.1108, 201.417, 2058.56,
        0,       0,       0,       0,       0,       0}},
      {"ra6m4",
       {9.18951, 80.2676, 289.928, 8.05468, 8.17117, 40.695,  150.028, 902.042, 24.0498, 14.2883,
        23.8059, 153.258, 15884.2, 8.35682, 114.5,   569.951, 111.772, 67.0745, 59.333,  48.8614,
        13.5482, 382.384, 136.084, 102.252, 1.23822, 10.664,  28.5584, 308.353, 12.7287, 4.04499,
        14.0282, 91.012,  52.7735, 430.022, 7.04027, 719.882, 901.056, 881.761, 10.6861, 0,
        0,       0,       0,       0,       0,       88.4211, 297.333, 331.263, 209.438, 498.75,
        65,      210.128, 0,       0,       15.2122, 0,       0,       0,       0,       0,
        0,       0,       0,       1064.44, 573.719, 1538.19, 1461.12, 10.8016, 90.9177, 980.836,
        0,       0,       82.5,    0,       0,       0}},
  };
  return table;
}

// The optimized library's coefficients, fitted by `hilsim calibrate` with cpu.kernels optimized
// on the presets with an instruction-set simulator; the board presets with reference rows of their
// own (fe310, stm32g0b1, ra6m4, nrf5340) have optimized ones too, and stm32u575, whose fourth wait
// state moves the optimized kernels' weight streams 5-6% off the cortex-m33 row's. Operators the
// library has no kernel for run the reference kernels, so their coefficients repeat the reference
// table's. Refit every row with scripts/refit_cost_model.sh. The reference kernels' coefficients at
// cpu.firmware_opt Os, fitted by `hilsim calibrate` with the -Os firmware images; a board preset
// uses its core's.
const std::map<std::string, Calibrated>& calibratedOs();

const std::map<std::string, Calibrated>& calibratedOptimized() {
  static const std::map<std::string, Calibrated> table = {
      {"cortex-m0plus",
       {9.68329, 163.978, 612.423, 10.2288, 11.8536, 0.256411, 165.47,  950.55,  14.969,  0.730032,
        0,       162.231, 1212.84, 20.5962, 105.816, 143.849,  322.875, 138.061, 145.285, 680.406,
        233.568, 1620.25, 355.905, 195.357, 1.40168, 270.922,  257.31,  457.816, 14.9728, 30.9352,
        13.4544, 214.448, 157.762, 1014.18, 8.20987, 1933.42,  1493.7,  1103.05, 188.057, 12.5537,
        14.526,  56.6372, 1.05887, 211.301, 104.963, 0,        0,       0,       0,       0,
        0,       0,       0,       0.65383, 8.21062, 0,        9.80036, 51.7123, 41.8425, 81.3123,
        53.1032, 2.15661, 2.05837, 630.52,  1140.55, 2232,     1967.02, 33.5009, 9.12496, 374.485,
        160.94,  160.842, 0,       96.3595, 0,       0}},
      {"cortex-m33",
       {1.39954, 57.6797, 338.201,  1.72425,  1.67061,  0,       51.7544, 1306.01, 3.42598, 0,
        0,       46.7594, 1311,     3.94672,  36.3151,  36.1221, 58.75,   35,      52.2292, 42.9402,
        11.9113, 361.099, 132.978,  97.8288,  0.976387, 9.65071, 26.632,  281.07,  10.6955, 4.02259,
        11.0545, 83.4612, 45.2788,  347.31,   1.95239,  659.704, 1018.3,  967.964, 9.6603,  1.37664,
        9.85805, 38.8252, 5.93047,  102.402,  20.737,   35.0526, 0,       100.737, 83.625,  195.375,
        35,      76.7872, 0.601285, 0.959356, 2.10906,  1.6994,  8.24813, 71.0837, 28.341,  49.407,
        25.5504, 5.07483, 4.52482,  419.003,  364.526,  1475,    1330,    2.39656, 13.6429, 456.012,
        79.1273, 123.884, 39,       33.5082,  0,        21.5}},
      {"nrf5340",
       {1.39787, 57.6307, 335.074,  1.72848,  1.69428,  0,       51.7227, 1309.92, 3.4278,  0,
        0,       46.7458, 1299.35,  3.94723,  36.3121,  36.1219, 58.75,   35,      52.2512, 42.9234,
        11.9116, 361.144, 129.846,  94.7308,  0.977365, 9.6599,  26.5172, 279.515, 10.718,  4.05529,
        11.0531, 82.4429, 46.4343,  305.777,  2.01677,  673.047, 1023.18, 960.365, 9.68112, 1.30223,
        9.86272, 38.7588, 5.9337,   102.44,   20.3431,  164.842, 134.167, 495,     229.312, 565.312,
        70,      230.872, 0.608317, 0.955585, 2.05403,  1.49873, 7.61338, 71.3521, 28.3235, 49.51,
        25.5219, 4.99555, 4.44818,  442.261,  361.528,  1472,    1327,    2.39656, 13.6429, 453.017,
        79.255,  123.884, 86.25,    33.3344,  0,        71}},
      {"cortex-m4f",
       {1.69181, 69.0124, 571.537,  2.15292, 2.11484, 0,       60.0539, 2002.27, 3.04609, 0.211068,
        0,       74.1122, 2558.66,  4.93419, 36.8623, 40.421,  78,      40.25,   56.8616, 67.6143,
        12.8547, 402.011, 177.301,  113.418, 1.09794, 11.5579, 29.2054, 349.032, 11.6099, 2.80408,
        14.0201, 91.7814, 65.2698,  1263.01, 3.10506, 869.186, 1923.04, 2931.4,  11.5522, 0.861783,
        14.5307, 54.4217, 11.6898,  102.512, 0,       354.737, 35.2778, 11.8421, 164.375, 0,
        185,     265,     0.937767, 1.12849, 2.00955, 0,       25.3985, 19.5128, 35.4948, 71.1479,
        9.70467, 9.77008, 9.62094,  1224.56, 552.107, 3183,    2356,    2.91796, 14.8908, 1199.25,
        93.2813, 141.622, 359.375,  543.872, 3.57865, 170.833}},
      {"fe310",
       {18.2621, 59.5127, 210.083, 178.855, 163.311, 0,       0,       85224,   345.636, 0,
        2.35509, 72.1492, 0,       8.95077, 41.3563, 50.9872, 60.5,    38.4795, 53.6723, 268.657,
        174.896, 542.215, 162.896, 77.0013, 7.97907, 550.822, 478.051, 304.181, 347.011, 347.924,
        7.31242, 74.9324, 404.666, 828.491, 343.755, 715.878, 1113.9,  12611.5, 483.974, 226.745,
        68.9273, 0,       4.44385, 55.1189, 0,       19478.7, 39798.7, 51482.4, 21908.9, 48360.8,
        4739,    21012.1, 324.261, 9.20288, 344.119, 0,       3.90067, 0,       0,       21.5749,
        22.5423, 0,       56.6559, 730.05,  407.437, 2684,    2449.53, 12.2192, 15.1608, 826.162,
        58.3916, 58.8222, 31174.1, 70.0122, 0,       5457.5}},
      {"stm32g0b1",
       {10.5725, 170.667, 641.193,  10.7509,  12.31,   0.321649, 171.338, 1245.84, 15.9577, 0.86116,
        0,       167.699, 1335.02,  20.5751,  113.234, 149.082,  332.751, 142.623, 152.944, 710.227,
        246.659, 1692.06, 375.674,  213.344,  1.40314, 290.247,  280.055, 479.602, 15.9655, 31.96,
        13.4373, 224.76,  166.599,  1064.07,  9.19846, 2044.07,  1571.8,  1098.66, 203.684, 13.2043,
        15.0537, 60.8643, 0.979296, 220.45,   103.791, 0,        0,       0,       0,       0,
        0,       0,       0,        0.731215, 9.22407, 0,        10.1399, 62.4005, 41.2648, 89.4217,
        52.4021, 2.34544, 2.54569,  650.332,  1187.81, 2291,     2023.03, 33.5153, 9.10033, 396.869,
        168.377, 172.095, 0,        94.3088,  0,       0}},
      {"rv32im",
       {4.92513, 51.7297, 339.591, 6.43389, 6.07626, 0.295641, 53.4768, 1641.36, 9.47232, 0,
        2.38424, 73.1583, 0,       8.95102, 41.3563, 50.9359,  60.5,    38.4786, 53.6413, 277.901,
        174.759, 524.844, 160.711, 77.0013, 7.97907, 214.653,  152.597, 276.013, 11.0116, 11.7304,
        7.38831, 76.7419, 67.0877, 923.199, 7.92902, 724.657,  1119.71, 1340.66, 150.096, 7.77543,
        11.486,  21.1259, 4.73109, 53.0502, 0,       44.2105,  22.5,    39.1579, 8.625,   0,
        35,      32.2766, 3.06976, 0,       8.03285, 0,        4.21036, 0,       0,       25.9902,
        20.9454, 2.49896, 3.92433, 723.831, 407.245, 2750,     2518.6,  12.2127, 15.3801, 800.709,
        58.3334, 56.8406, 0,       69.9799, 0,       25.5}},
      {"stm32u575",
       {1.38584, 57.5605, 339.557,  1.74279,  1.67937,  0,       51.3775, 1330.39, 3.42787, 0,
        0,       46.7466, 1327,     3.94673,  36.3151,  36.1222, 58.75,   35,      52.2219, 42.9456,
        11.9112, 361.085, 134.021,  98.8609,  0.976071, 9.86135, 26.8487, 283.184, 10.7542, 4.08207,
        11.114,  85.8206, 43.6196,  274.26,   1.99609,  647.792, 1023.97, 1050.79, 9.87504, 1.51809,
        9.59918, 38.8606, 5.93237,  102.406,  20.4708,  46.7368, 0,       134.316, 111.5,   260.5,
        46.6667, 102.383, 0.678555, 0.960325, 2.21645,  1.73586, 8.61973, 71.2041, 28.341,  49.4844,
        25.5284, 5.22393, 4.56206,  419.995,  365.525,  1476,    1331,    2.39656, 13.6429, 457.01,
        79.1275, 123.884, 52,       33.3812,  0,        28.6667}},
      {"ra6m4",
       {1.66149, 68.3082, 436.064,  1.97177,  2.1269,  0,        63.0624, 1441.81, 3.6323,  0,
        0,       61.3401, 1608.53,  4.69635,  43.5228, 40.4305,  70.25,   40,      58.6013, 46.5811,
        13.911,  381.847, 159.153,  111.549,  1.23495, 10.662,   28.5142, 336.54,  12.7273, 4.02776,
        14.0487, 90.8485, 52.9663,  414.566,  2.2739,  806.547,  1267.93, 1129.53, 10.6831, 1.3431,
        11.5664, 49.0501, 6.86387,  145.911,  32.843,  164.842,  134.167, 495,     229.312, 565.312,
        70,      230.872, 0.593703, 0.959341, 2.28322, 0.571008, 9.64721, 81.095,  38.5294, 60.7392,
        34.9147, 6.6385,  4.1296,   547.72,   402.263, 1778,     1586,    2.92057, 16.5413, 561.993,
        96.2996, 147.707, 86.25,    27.803,   0,       71}},
  };
  return table;
}

const std::map<std::string, Calibrated>& calibratedOs() {
  static const std::map<std::string, Calibrated> table = {
      {"cortex-m0plus",
       {23.0268, 219.312, 962.184, 97.0619, 97.1126, 53.7366, 296.033, 1664.43, 94.496,  22.7007,
        36.3272, 267.956, 11127.3, 19.8475, 306.006, 2661.14, 489.459, 217.05,  210.209, 721.331,
        241.272, 2059.33, 515.224, 202.696, 1.40223, 275.213, 273.573, 744.081, 19.6212, 28.4798,
        21.0813, 258.16,  219.472, 1535.27, 14.9882, 2733.64, 743.604, 2345.46, 194.1,   0,
        0,       0,       0,       0,       0,       0,       0,       0,       0,       0,
        0,       0,       0,       0,       14.9017, 0,       0,       0,       0,       0,
        0,       0,       0,       2730.58, 2674.29, 3291.3,  3172.42, 37.1251, 213.87,  2633.93,
        0,       0,       0,       0,       0,       0}},
      {"cortex-m33",
       {10.1881, 73.6747, 624.652, 65.1311, 65.119,   39.2992, 116.658, 1195.11, 65.4687, 18.8099,
        18.0272, 116.669, 7651.55, 14.3649, 141.516,  769.807, 142.214, 87.0726, 82.9099, 62.786,
        15.7492, 576.112, 299.898, 118.412, 0.970954, 12.6559, 30.6434, 429.095, 11.8922, 2.75986,
        13.4811, 110.987, 69.3548, 793.412, 8.10557,  1060.9,  527.36,  1810.7,  12.6676, 0,
        0,       0,       0,       0,       0,        72,      280.333, 160.737, 147.75,  333.562,
        35,      124.915, 0,       0,       8.22581,  0,       0,       0,       0,       0,
        0,       0,       0,       1578.03, 794.849,  2369.08, 2252.41, 20.5478, 120.659, 1410.11,
        0,       0,       48.75,   0,       0,        0}},
      {"cortex-m4f",
       {13.6635, 84.0831, 738.295, 75.7685, 75.7785, 42.2912, 125.504, 1902.1,  73.8735, 18.5465,
        21.5709, 133.442, 7047.65, 16.7836, 163.04,  843.007, 156.683, 92.5767, 93.4573, 89.8275,
        16.5953, 644.803, 361.761, 144.078, 1.09177, 14.5565, 34.1996, 514.095, 14.6633, 1.41951,
        16.6098, 117.924, 80.0222, 1529.6,  9.66363, 1206.62, 1114.34, 2999.05, 14.5512, 0,
        0,       0,       0,       0,       0,       415,     297.778, 393.158, 291.875, 129.375,
        170,     415.213, 0,       0,       9.64397, 0,       0,       0,       0,       0,
        0,       0,       0,       2033.36, 1107.4,  2980.45, 2944.95, 23.9681, 143.169, 1948.87,
        0,       0,       359.375, 0,       4.62481, 0}},
      {"rv32im",
       {14.0205, 101.799, 1061.17, 86.1892, 85.6334, 29.8335, 144.491, 1797.25, 78.9501, 11.5294,
        19.8195, 144.906, 9292.3,  8.96225, 119.269, 1448.02, 202.992, 108.509, 88.2099, 305.925,
        172.789, 1063.37, 367.991, 90.9887, 7.97966, 222.161, 204.244, 602.939, 18.9967, 19.5006,
        5.59233, 121.553, 105.731, 1322.13, 13.0008, 1208.57, 702.78,  2109.71, 156.311, 0,
        0,       0,       0,       0,       0,       0,       0,       0,       0,       0,
        29,      40.5957, 0,       0,       12.9317, 0,       0,       0,       0,       0,
        0,       0,       0,       1698.66, 1304.72, 3122.97, 3166.98, 14.8114, 114.205, 1792.78,
        0,       0,       0,       0,       0,       0}},
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
  c.fc_first_call = f.fc_first_call;
  c.fc_float_first_call = f.fc_float_first_call;
  c.fc_path_first_call = f.fc_path_first_call;
  c.conv_first_call = f.conv_first_call;
  c.dwconv_first_call = f.dwconv_first_call;
  c.svdf_first_call = f.svdf_first_call;
  c.lstm_first_call = f.lstm_first_call;
  c.reshape_first_call = f.reshape_first_call;
  c.op_first_call = f.op_first_call;
  c.fc_per_weight_read = f.fc_per_weight_read;
  c.fc_per_tail_mac = f.fc_per_tail_mac;
  c.lstm_per_recurrent_mac = f.lstm_per_recurrent_mac;
  c.lstm_per_unaligned_load = f.lstm_per_unaligned_load;
  c.lstm_per_tail_mac = f.lstm_per_tail_mac;
  c.dwconv_per_quad = f.dwconv_per_quad;
  c.dwconv_per_quad_row = f.dwconv_per_quad_row;
  c.dwconv_per_scalar_channel = f.dwconv_per_scalar_channel;
  c.dwconv_per_scalar_row = f.dwconv_per_scalar_row;
  c.dwconv_per_quad_pixel = f.dwconv_per_quad_pixel;
  c.dwconv_per_filter_miss = f.dwconv_per_filter_miss;
  c.conv_per_tail_mac = f.conv_per_tail_mac;
  c.conv_per_unaligned_load = f.conv_per_unaligned_load;
  c.pool_per_call = f.pool_per_call;
  c.softmax_per_call = f.softmax_per_call;
  c.add_per_call = f.add_per_call;
  c.mul_per_call = f.mul_per_call;
  c.maxpool_per_element = f.maxpool_per_element;
  c.maxpool_per_output = f.maxpool_per_output;
  c.maxpool_per_call = f.maxpool_per_call;
  c.pool_per_row = f.pool_per_row;
  c.maxpool_per_row = f.maxpool_per_row;
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
  c->lstm_per_recurrent_mac = c->fc_per_mac;
  c->lstm_per_unaligned_load = 0.0;
  c->lstm_per_tail_mac = 0.0;
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
  c.kernels = library;
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
  c.pool_per_call = c.softmax_per_call = c.add_per_call = c.mul_per_call = c.op_per_call;
  c.maxpool_per_element = c.pool_per_element;
  c.maxpool_per_output = c.pool_per_output;
  c.maxpool_per_call = c.pool_per_call;
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
