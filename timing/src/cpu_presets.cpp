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
       {9.70943, 151.801, 622.31,  10.2215,  11.8224, 0.139181, 161.632, 928.253, 14.6915, 0,
        0,       137.833, 1366.57, 20.5962,  105.816, 143.849,  324.5,   138.555, 145.285, 680.406,
        233.568, 1620.25, 355.905, 195.357,  1.40168, 270.922,  257.31,  457.816, 14.9728, 30.9352,
        13.4544, 214.448, 157.762, 1014.18,  8.20987, 1933.42,  1493.7,  1103.05, 188.057, 12.707,
        14.3866, 55.23,   1.83558, 218.544,  421.333, 0,        0,       0,       0,       0,
        0,       0,       0,       0.641983, 8.21062, 0,        9.80036, 42.9063, 85.286,  52.8669,
        26.7843, 1.80669, 1.56409, 630.52,   1140.55, 2230,     1960.13, 33.5009, 9.12496, 374.485,
        160.94,  160.842, 0,       101.765,  0,       0}},
      {"cortex-m33",
       {1.39394, 53.0661, 333.372,  1.55059, 1.62582,  0,       48.064,  1271.32, 3.38707, 0,
        0,       38.4333, 1652.09,  3.94672, 36.3151,  32.119,  58.75,   26.75,   52.2292, 42.9402,
        11.9113, 361.099, 132.978,  97.8288, 0.976387, 9.65,    26.6352, 281.073, 10.6931, 4.01232,
        11.0606, 83.6072, 45.1145,  354.293, 1.96462,  694.522, 989.474, 994.255, 9.65967, 1.5557,
        9.95139, 38.191,  5.87229,  112.902, 147.043,  30.6316, 9.16667, 77.8421, 82.875,  217.688,
        38,      74.4255, 0.605871, 1.20962, 2.09673,  1.65496, 8.35802, 16.0771, 26.235,  61.8666,
        10.6191, 4.93627, 4.45804,  419.003, 369.518,  1475,    1324,    2.39656, 13.6429, 456.012,
        79.1273, 123.884, 37.125,   46.4632, 0,        16}},
      {"nrf5340",
       {1.39435, 53.0043, 330.357,  1.55472, 1.65108,  0,       48.0359, 1266.26, 3.38999, 0,
        0,       38.4072, 1642.57,  3.94672, 36.315,   32.1188, 58.75,   26.75,   52.2512, 42.9234,
        11.9116, 361.144, 129.846,  94.7308, 0.977365, 9.6599,  26.5172, 279.515, 10.7128, 3.97959,
        11.1097, 83.1206, 45.8754,  322.116, 2.01689,  705.39,  991.352, 1047.12, 9.68112, 1.47516,
        9.95842, 38.1217, 5.87389,  112.985, 146.52,   158.684, 81,      504.474, 208.875, 535.688,
        65,      231.83,  0.610803, 1.20356, 2.05522,  1.50454, 8.00011, 16.4134, 26.2078, 61.9827,
        10.5958, 4.85131, 4.37538,  416.03,  366.518,  1481,    1321,    2.39656, 13.6429, 453.017,
        79.1267, 123.884, 86.25,    46.2562, 0,        66.5}},
      {"cortex-m4f",
       {1.67791, 63.6856, 492.469,  1.98054, 2.12442, 0,       54.4653, 2074.56, 3.62056, 0,
        0,       54.1181, 5128.5,   4.9346,  36.8621, 38.698,  78,      29.75,   56.6768, 68.9109,
        12.7777, 401.64,  183.292,  113.418, 1.09794, 11.5579, 29.2054, 349.032, 11.6097, 2.92781,
        13.9305, 91.764,  65.2697,  1254.49, 3.13495, 916.376, 1961.5,  2993.13, 11.5522, 0.812126,
        14.4152, 54.424,  5.34322,  145.618, 398.829, 390.789, 39.7222, 9.47368, 189.375, 122.188,
        188.333, 260.638, 0.952997, 1.14015, 1.92394, 0,       25.1498, 0,       36.338,  38.7348,
        19.5001, 10.0608, 9.3251,   1234.18, 462.315, 3153,    2336,    2.91474, 14.933,  1259.78,
        93.1868, 141.409, 359.375,  285.318, 6.05628, 176.667}},
      {"fe310",
       {18.2769, 58.7183, 218.821, 178.871,  163.325, 0,       0,       85212.2, 344.756, 0.321604,
        0,       59.8589, 1584.39, 8.96432,  41.0246, 50.9972, 60.5,    38.4795, 53.6925, 267.888,
        174.961, 542.255, 162.333, 77.0013,  7.97907, 549.967, 481.295, 307.684, 347.011, 347.918,
        7.31604, 74.9324, 404.666, 826.982,  343.761, 716.693, 1104.47, 12620.7, 482.754, 226.746,
        68.6488, 0,       2.44686, 93.8838,  148.228, 19328.3, 39009.3, 51024,   22243.4, 49074.2,
        5075,    21182.8, 324.248, 9.20349,  344.112, 0,       3.76839, 12.5389, 26.3198, 32.9125,
        5.13423, 0,       56.5219, 754.489,  404.397, 2696,    2446.53, 12.2056, 15.5039, 799.419,
        58.4701, 58.871,  31132.9, 0.734246, 0,       5113.83}},
      {"stm32g0b1",
       {10.6117, 154.899, 653.968, 10.7419,  12.232,  0.1768,  167.025, 1218.46, 15.687,  0,
        0,       143.049, 1420.22, 20.5751,  113.234, 149.082, 336,     143.61,  152.944, 710.227,
        246.659, 1692.06, 375.674, 213.344,  1.40314, 290.247, 280.055, 479.602, 15.9655, 31.96,
        13.4373, 224.76,  166.599, 1064.07,  9.19846, 2044.07, 1571.8,  1098.66, 203.684, 13.5719,
        15.0281, 57.4886, 1.87615, 227.155,  429.683, 0,       0,       0,       0,       0,
        0,       0,       0,       0.711277, 9.22407, 0,       10.1399, 43.554,  88.2437, 55.8087,
        26.3595, 1.8217,  2.01509, 650.332,  1187.81, 2287,    2009.26, 33.5153, 9.10033, 396.869,
        168.377, 172.095, 0,       100.991,  0,       0}},
      {"rv32im",
       {4.93508, 50.9857, 348.135, 6.43525, 6.08685, 0.289317, 53.8187, 1633.72, 8.52758, 0.608444,
        0,       59.5186, 1544.94, 8.96393, 41.0278, 50.936,   60.5,    38.4786, 53.6413, 277.901,
        174.759, 524.844, 160.711, 77.0013, 7.97907, 214.667,  152.507, 274.298, 11.0116, 11.7304,
        7.38831, 76.7419, 67.0877, 923.199, 7.92965, 724.806,  1125.34, 1339.98, 150.075, 7.77617,
        11.1763, 20.7398, 2.50269, 92.5107, 152.679, 36,       23.5,    193.895, 8.625,   0,
        35,      32.5319, 3.06019, 0,       8.03195, 0,        4.21464, 5.28168, 26.1018, 37.1273,
        3.44145, 2.48236, 3.78704, 748.795, 404.243, 2753,     2518.6,  12.2123, 15.3866, 800.706,
        58.3505, 56.8324, 0,       0,       0,       18.5}},
      {"stm32u575",
       {1.37901, 52.9536, 334.743,  1.56875, 1.63383,  0,       47.6901, 1295.89, 3.38997, 0,
        0,       38.4097, 1667.47,  3.94673, 36.3151,  32.1191, 58.75,   26.75,   52.2219, 42.9456,
        11.9112, 361.085, 134.021,  98.8609, 0.976071, 9.86043, 26.8529, 283.188, 10.751,  4.06836,
        11.122,  86.0141, 43.4017,  283.572, 2.00802,  682.738, 995.14,  1078.22, 9.87421, 1.69795,
        9.69475, 38.2284, 5.87414,  112.928, 146.647,  40.8421, 12.2222, 103.789, 110.5,   290.25,
        50.6667, 99.234,  0.684377, 1.20963, 2.20385,  1.69514, 8.72284, 16.2639, 26.2292, 61.9786,
        10.591,  5.0853,  4.49799,  419.995, 370.517,  1476,    1325,    2.39656, 13.6429, 457.01,
        79.1275, 123.884, 49.5,     46.3096, 0,        21.3333}},
      {"ra6m4",
       {1.65013, 62.4985, 429.888,  1.73985, 2.1099,  0,        58.0255, 1426.6,  3.60147, 0,
        0,       49.4838, 2017.82,  4.69584, 43.5257, 36.4306,  70.25,   29.5,    58.6013, 46.5811,
        13.911,  381.847, 159.153,  111.549, 1.23495, 10.662,   28.5142, 336.54,  12.7222, 3.95202,
        14.1058, 91.5043, 52.4253,  430.575, 2.2813,  863.114,  1214.13, 1230.63, 10.6831, 1.40947,
        11.6422, 48.9017, 6.84355,  162.634, 216.432, 158.684,  81,      504.474, 208.875, 535.688,
        65,      231.83,  0.604324, 1.20647, 2.27667, 0.554197, 9.86878, 10.0633, 35.5378, 75.6083,
        13.1428, 6.74925, 4.14666,  521.484, 407.238, 1787,     1581,    2.92057, 16.5413, 561.993,
        96.1716, 147.707, 86.25,    37.1154, 0,       66.5}},
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
