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
      dwconv_per_scalar_mac, dwconv_per_pixel, dwconv_per_general_pixel, fc_first_call,
      conv_first_call, dwconv_first_call, svdf_first_call, lstm_first_call, reshape_first_call,
      op_first_call, fc_per_weight_read, fc_per_tail_mac, lstm_per_recurrent_mac,
      lstm_per_unaligned_load, lstm_per_tail_mac;
};

const std::map<std::string, Calibrated>& calibrated() {
  static const std::map<std::string, Calibrated> table = {
      {"cortex-m0plus",
       {16.0349, 175.225, 468.392, 11.9566, 12.0919, 67.4999, 285.126, 1186.43, 33.0178, 19.7076,
        36.204,  266.007, 21601.2, 25.7516, 229.504, 2146.43, 411.63,  175.993, 143.19,  677.381,
        228.021, 1599.59, 359.493, 167.189, 1.40681, 269.6,   257.731, 420.051, 14.9728, 30.9141,
        13.4686, 213.506, 156.857, 988.454, 10.9482, 1904.9,  1261.7,  883.683, 188.83,  0,
        0,       0,       0,       0,       0,       0,       0,       0,       0,       0,
        0,       0,       0,       0,       15.8742, 0,       0}},
      {"cortex-m33",
       {8.18753, 71.2606, 221.849, 7.07646, 7.13779,  34.6028, 118.115, 710.458, 17.4524, 12.7851,
        18.8813, 122.741, 12032.8, 8.31474, 83.0485,  566.93,  104.348, 62.5652, 52.6594, 44.4905,
        11.5577, 360.986, 119.578, 89.5608, 0.979112, 9.6496,  26.6721, 259.97,  10.6955, 4.02352,
        11.0528, 83.4583, 45.2748, 340.237, 6.05355,  621.261, 701.852, 753.162, 9.6592,  0,
        0,       0,       0,       0,       0,        29.1111, 141.6,   91.7368, 78.1875, 210.938,
        33,      79.2128, 0,       0,       12.2092,  0,       0}},
      {"cortex-m4f",
       {10.664,  78.6041, 256.184, 9.6859,  9.71053, 38.7208, 129.036, 1881.75, 13.7054, 23.629,
        26.966,  136.97,  2385.9,  12.3575, 103.32,  626.5,   113.723, 65.7246, 57.6514, 70.7893,
        12.4076, 399.671, 155.723, 108.29,  1.09926, 11.5577, 29.2101, 320.02,  11.6098, 2.82055,
        14.0081, 91.781,  65.2686, 1232.24, 7.65472, 712.034, 1904.7,  1676.59, 11.552,  0,
        0,       0,       0,       0,       0,       373.889, 15,      0,       189.375, 0,
        173.333, 290.106, 0,       0,       13.5686, 0,       0}},
      {"fe310",
       {348.146, 397.006, 235.439, 346.914, 347.463, 21.088,  127.86,  751.549, 344.756, 11.2725,
        8.74585, 120.058, 7340.25, 8.16287, 95.9247, 725.82,  140.091, 66.5309, 53.0565, 270.33,
        174.647, 519.01,  189.803, 60.0152, 7.97834, 552.65,  478.61,  274.048, 347.011, 347.933,
        7.30501, 74.8961, 404.695, 838.348, 346.916, 733.409, 898.242, 1261.31, 481.175, 0,
        0,       0,       0,       0,       0,       18114.7, 30654.7, 25919,   21897.5, 57783.8,
        3725,    20979.1, 0,       0,       346.877, 0,       0}},
      {"rv32im",
       {12.0855, 62.7321, 228.818, 10.9239, 11.2512, 21.5995, 128.384, 730.581, 9.5073,  10.1125,
        8.96748, 123.142, 6600.35, 8.07393, 97.2108, 724.832, 140.163, 66.5556, 52.7644, 276.544,
        173.346, 519.738, 198.247, 60.0152, 7.97834, 217.327, 150.119, 236.705, 11.0117, 11.7963,
        7.33305, 77.3483, 66.3423, 899.208, 10.9494, 718.407, 918.186, 1301.71, 148.36,  0,
        0,       0,       0,       0,       0,       26.8148, 83.2667, 50.7368, 38.25,   0,
        29,      24.6383, 0,       0,       10.939,  0,       0}},
      {"stm32g0b1",
       {17.0472, 184.957, 484.81,  12.9524, 13.1107, 67.8556, 298.546, 1230.3,  32.8551, 20.8765,
        35.9612, 279.75,  21362.8, 25.8833, 234.27,  2226.39, 425.967, 181.733, 149.815, 709.048,
        239.041, 1653.69, 379.175, 180.295, 1.41026, 287.604, 280.918, 438.06,  15.9655, 31.9183,
        13.4654, 222.878, 164.788, 1035.53, 11.9443, 2023.2,  1294.25, 910.88,  205.221, 0,
        0,       0,       0,       0,       0,       0,       0,       0,       0,       0,
        0,       0,       0,       0,       16.8733, 0,       0}},
      {"ra6m4",
       {9.18893, 83.2809, 351.147, 8.06495, 8.1559,  43.4805, 163.12,  1035.98, 25.4002, 15.9294,
        25.7475, 171.254, 18085.5, 10.1657, 108.756, 640.092, 120.878, 73.5657, 60.2265, 49.4163,
        14.362,  394.989, 170.184, 113.932, 1.49758, 10.6646, 29.5435, 359.485, 12.7385, 2.13087,
        16.9299, 96.3583, 54.1292, 533.936, 7.03347, 745.104, 1072,    1028.23, 10.6866, 0,
        0,       0,       0,       0,       0,       86.6667, 293.2,   331.263, 209.438, 498.75,
        65,      210.128, 0,       0,       16.1943, 0,       0}},
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
       {9.68329, 163.978, 612.423, 10.212,  12.2801, 0.151474, 166.323, 957.799, 11.2281, 0,
        10.8599, 191.329, 0,       26.6471, 71.2978, 162.211,  336.632, 145.849, 138.942, 659.177,
        219.795, 1603.16, 517.358, 195.357, 1.40168, 270.922,  257.31,  457.816, 14.9728, 30.9352,
        13.4544, 214.448, 157.762, 1014.18, 8.20987, 1933.42,  1493.7,  1103.05, 188.057, 10.716,
        12.1078, 60.3187, 12.7673, 70.3812, 461.395, 0,        0,       0,       0,       0,
        0,       0,       0,       0.65383, 8.21062, 0,        9.80036}},
      {"cortex-m33",
       {1.39954, 57.6797, 338.201,  1.69052,  1.94001,  0,       53.5813, 1321.46, 0,       0.72923,
        7.81089, 61.0873, 270.342,  2.82245,  29.7025,  40.9963, 63.4145, 38.0005, 51.2341, 41.296,
        11.4517, 358.192, 163.971,  97.8288,  0.976387, 9.65071, 26.632,  281.07,  10.6955, 4.02259,
        11.0545, 83.4612, 45.2788,  347.31,   1.95239,  659.704, 1018.3,  967.964, 9.6603,  0,
        9.20203, 43.788,  10.8146,  14.1212,  360.442,  36.2222, 0,       100.737, 83.625,  195.375,
        35,      76.7872, 0.601285, 0.959356, 2.10906,  1.6994,  8.24813}},
      {"cortex-m4f",
       {1.69181, 69.0124, 571.537,  2.08893, 2.35178, 0,       63.4742, 2031.27, 4.92881, 0,
        6.77053, 77.9022, 3109.34,  3.73365, 33.3016, 46.9109, 85.2173, 44.2261, 55.5699, 64.982,
        12.3164, 399.419, 219.17,   113.418, 1.09794, 11.5579, 29.2054, 349.032, 11.6099, 2.80408,
        14.0201, 91.7814, 65.2698,  1263.01, 3.10506, 869.186, 1923.04, 2931.4,  11.5522, 0,
        12.5752, 65.2022, 13.2918,  49.5508, 173.165, 356.111, 40,      11.8421, 164.375, 0,
        185,     265,     0.937767, 1.12849, 2.00955, 0,       25.3985}},
      {"fe310",
       {18.2621, 59.5127, 210.083, 178.72,  174.666, 3.27324, 0,       85239.4, 345.057, 0,
        2.21078, 79.2652, 0,       10.8694, 33.3734, 55.8069, 66.0779, 42.3461, 50.8289, 258.237,
        165.696, 536.602, 242.017, 77.0013, 7.97907, 550.822, 478.051, 304.181, 347.011, 347.924,
        7.31242, 74.9324, 404.666, 828.491, 343.755, 715.878, 1113.9,  12611.5, 483.974, 174.702,
        0,       14.0995, 9.95795, 5.85525, 95.9484, 22944,   37905,   51482.4, 21908.9, 48360.8,
        4739,    21012.1, 324.261, 9.20288, 344.119, 0,       3.90067}},
      {"stm32g0b1",
       {10.5725, 170.667, 641.193, 10.7311,  12.7991, 0.192535, 172.339, 1254.32, 12.0654, 0,
        10.9416, 200.063, 0,       26.8676,  73.5232, 167.906,  346.772, 150.578, 146.24,  687.919,
        232.085, 1674.02, 546.468, 213.344,  1.40314, 290.247,  280.055, 479.602, 15.9655, 31.96,
        13.4373, 224.76,  166.599, 1064.07,  9.19846, 2044.07,  1571.8,  1098.66, 203.684, 11.0699,
        12.3905, 65.1191, 12.9454, 75.2197,  472.94,  0,        0,       0,       0,       0,
        0,       0,       0,       0.731215, 9.22407, 0,        10.1399}},
      {"rv32im",
       {4.92513, 51.7297, 339.591, 6.40623, 6.74811, 0.041552, 54.7315, 1654.03, 9.0751,  0,
        2.21161, 80.12,   0,       10.8611, 33.3787, 55.8337,  66.1302, 42.3943, 50.7823, 268.995,
        165.549, 517.627, 239.227, 77.0013, 7.97907, 214.653,  152.597, 276.013, 11.0116, 11.7304,
        7.38831, 76.7419, 67.0877, 923.199, 7.92902, 724.657,  1119.71, 1340.66, 150.096, 4.67767,
        8.54959, 27.1026, 9.3279,  15.9567, 61.8584, 29.3333,  25.2,    39.1579, 8.625,   0,
        35,      32.2766, 3.06976, 0,       8.03285, 0,        4.21036}},
      {"stm32u575",
       {1.38584,  57.5605, 339.557, 1.70882, 1.97375, 0,       53.1999,  1346.08,  0,
        0.729996, 7.8131,  61.0814, 293.039, 2.82237, 29.7026, 40.9799,  63.4112,  37.9982,
        51.2245,  41.303,  11.4515, 358.163, 165.213, 98.8609, 0.976071, 9.86135,  26.8487,
        283.184,  10.7542, 4.08207, 11.114,  85.8206, 43.6196, 274.26,   1.99609,  647.792,
        1023.97,  1050.79, 9.87504, 0,       8.92317, 43.9125, 10.8145,  14.0965,  360.328,
        48.2963,  0,       134.316, 111.5,   260.5,   46.6667, 102.383,  0.678555, 0.960325,
        2.21645,  1.73586, 8.61973}},
      {"ra6m4",
       {1.79325, 73.6273, 508.413,  1.99046,  2.46319, 0,       70.9421, 1541.56, 0,       0.129163,
        11.1397, 81.1543, 1173.72,  3.78079,  38.6017, 46.5606, 77.672,  45.2154, 58.6479, 45.7801,
        14.3093, 391.658, 227.669,  124.258,  1.49375, 10.6627, 29.4953, 389.688, 12.7371, 2.11208,
        16.9504, 96.1264, 54.3816,  521.28,   2.30549, 864.336, 1494.9,  1377.28, 10.6838, 0,
        12.3314, 56.7365, 13.6642,  36.0662,  515.887, 141.556, 49.6,    495,     229.312, 565.312,
        70,      230.872, 0.463306, 0.954067, 2.24837, 0.46107, 10.008}},
  };
  return table;
}

const std::map<std::string, Calibrated>& calibratedOs() {
  static const std::map<std::string, Calibrated> table = {
      {"cortex-m0plus",
       {23.0268, 219.312, 962.184, 97.077,  97.0379, 53.7917, 295.544, 1656.08, 94.496,  22.7007,
        36.3272, 267.956, 11127.3, 27.2206, 271.661, 2864.59, 511.614, 230.826, 208.245, 715.776,
        238.22,  2054.26, 563.321, 202.696, 1.40223, 275.213, 273.573, 744.081, 19.6212, 28.4798,
        21.0813, 258.16,  219.472, 1535.27, 14.9882, 2733.64, 743.604, 2345.46, 194.1,   0,
        0,       0,       0,       0,       0,       0,       0,       0,       0,       0,
        0,       0,       0,       0,       14.9017, 0,       0}},
      {"cortex-m33",
       {10.1881, 73.6747, 624.652, 65.1352, 65.0777,  39.3057, 116.549, 1192.02, 65.4687, 18.8099,
        18.0272, 116.669, 7651.55, 17.3958, 134.299,  815.547, 152.129, 93.8001, 82.4821, 62.3018,
        15.5854, 574.777, 315.509, 118.412, 0.970954, 12.6559, 30.6434, 429.095, 11.8922, 2.75986,
        13.4811, 110.987, 69.3548, 793.412, 8.10557,  1060.9,  527.36,  1810.7,  12.6676, 0,
        0,       0,       0,       0,       0,        65.1111, 302.2,   160.737, 147.75,  333.562,
        35,      124.915, 0,       0,       8.22581,  0,       0}},
      {"cortex-m4f",
       {13.6635, 84.0831, 738.295, 75.7823, 75.6695, 42.3262, 125.112, 1893.18, 67.3528, 25.9023,
        24.0733, 128.932, 0,       20.3627, 156.96,  906.367, 168.082, 100.144, 92.9348, 89.0125,
        16.3824, 643.257, 383.209, 144.078, 1.09177, 14.5565, 34.1996, 514.095, 14.6633, 1.41951,
        16.6098, 117.924, 80.0222, 1529.6,  9.66363, 1206.62, 1114.34, 2999.05, 14.5512, 0,
        0,       0,       0,       0,       0,       398.519, 306,     393.158, 291.875, 129.375,
        170,     415.213, 0,       0,       9.64397, 0,       0}},
      {"rv32im",
       {14.0205, 101.799, 1061.17, 86.1964, 85.681,  29.8863, 144.223, 1796.17, 78.9501, 11.5294,
        19.8195, 144.906, 9292.3,  11.4988, 120.751, 1537.5,  216.853, 117.237, 87.2886, 302.738,
        169.551, 1059.74, 405.854, 90.9887, 7.97966, 222.161, 204.244, 602.939, 18.9967, 19.5006,
        5.59233, 121.553, 105.731, 1322.13, 13.0008, 1208.57, 702.78,  2109.71, 156.311, 0,
        0,       0,       0,       0,       0,       0,       0,       0,       0,       0,
        29,      40.5957, 0,       0,       12.9317, 0,       0}},
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
