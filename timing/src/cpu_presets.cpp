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
         {"cortex-m0plus", 48, 2.0, {26, 160, 5000}, true, {13, 40, 3000}, 4340, 504, 230, false, {46, 0, 62}}},
        {"cortex-m4f",
         {"cortex-m4f", 120, 1.0, {13, 80, 3000}, true, {3.7, 20, 2000}, 600, 8, 60, false, {43, 0, 69}}},
        {"cortex-m33",
         {"cortex-m33", 128, 1.0, {13, 80, 3000}, true, {2.8, 18, 2000}, 600, 8, 60, false, {39, 0, 62}}},
        {"cortex-m7",
         {"cortex-m7", 480, 1.6, {21, 130, 3000}, true, {2.3, 15, 1500}, 960, 12.8, 96, false, {69, 0, 110}}},
        {"cortex-m55",
         {"cortex-m55", 400, 0.9, {12, 70, 3000}, true, {2.7, 18, 2000}, 540, 7.2, 54, false, {35, 0, 56}}},
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
          {35, 0, 56}}},
        {"rv32im",
         {"rv32im", 100, 1.0, {13.2, 100, 4000}, false, {0, 0, 0}, 2170, 252, 115, false, {17, 0, 60}}},
    };
    // Board presets (configs/README.md, "Board presets"): their core's figures at the board's
    // clock; their memories are in the ISS's table (iss/src/core_model.cpp).
    const auto board = [&t](const char* core, double clock_mhz) {
      CorePreset p = t.at(core);
      p.clock_mhz = clock_mhz;
      return p;
    };
    t.emplace("stm32g0b1", board("cortex-m0plus", 64));
    t.emplace("stm32l4r5", board("cortex-m4f", 120));
    t.emplace("nrf5340", board("cortex-m33", 128));
    t.emplace("stm32u575", board("cortex-m33", 160));
    t.emplace("fe310", board("rv32im", 320));
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
      fc_float_per_zero_mac;
};

const std::map<std::string, Calibrated>& calibrated() {
  static const std::map<std::string, Calibrated> table = {
      {"cortex-m0plus",
       {11.9988, 204.296, 497.879, 11.9553, 12.0853, 77.5676, 277.709, 1144.55, 27.5811, 0,
        55.927,  292.267, 13203.5, 16.5293, 88.0074, 2408.58, 488.353, 201.016, 157.499, 680.32,
        226.549, 1723.58, 347.135, 153.967, 1.409,   269.6,   257.72,  408.087, 14.8199, 19.1509,
        21.859,  215.919, 187.312, 807.997, 15.5781, 2057.11, 1191.27, 607.84,  188.832}},
      {"cortex-m33",
       {9.17566, 81.4207, 465.021, 9.05325, 9.13825, 42.7058, 139.207, 961.325, 17.0299, 0,
        36.6565, 148.966, 11788.4, 10.8553, 35.0287, 699.043, 152.602, 73.0874, 66.8983, 44.591,
        12.9505, 459.983, 167.817, 157.116, 1.291,   9.65865, 28.6976, 347.031, 8.17222, 9.23991,
        8.07497, 94.7482, 68.7636, 516.53,  7.76164, 737.905, 941.257, 1077.23, 9.50073}},
      {"cortex-m4f",
       {9.63705, 82.754,  841.194, 8.66467, 8.70303, 41.6728, 137.182, 1879.07, 13.9007, 3.44573,
        39.9402, 148.649, 0,       11.0837, 33.6154, 723.095, 153.394, 70.9747, 67.6306, 68.2172,
        12.2812, 530.647, 343.078, 248.001, 1.14673, 11.6485, 39.8521, 423.096, 9.11405, 14.3079,
        4.05923, 94.9253, 67.514,  1311.8,  8.27255, 736.215, 2136,    1395.98, 10.2884}},
      {"fe310",
       {347,     408.846, 13700.7, 346.916, 347.455, 24.8576, 113.624, 28265.1, 351.916, 2.72537,
        12.3564, 112.226, 28199.7, 9.95341, 43.5331, 861.78,  165.186, 67.5063, 48.1101, 291.195,
        168.919, 612.593, 15446.6, 4122,    8,       555.572, 1548.88, 3530.02, 347.023, 346.737,
        8.13741, 77.909,  407.255, 21606.8, 346.91,  782.837, 770.755, 52997.2, 357.088}},
      {"rv32im",
       {10.9996, 72.8789, 239.371, 10.932,  11.2425, 25.4356, 113.748, 712.657, 15.9551, 2.32593,
        12.5198, 114.202, 4046.38, 8.96405, 40.347,  795.594, 165.383, 70.1674, 56.4855, 265.525,
        173.854, 575.481, 202.207, 85,      8,       210.92,  127.615, 252.063, 11.0246, 11.7674,
        7.40702, 78.1177, 71.3366, 801.463, 10.9539, 772.053, 788.065, 1302.78, 140.098}},
      {"stm32g0b1",
       {12.9997, 213.667, 513.58,  12.9446, 13.1002, 77.9121, 293.672, 1201.62, 28.6586, 0,
        55.7319, 310.664, 13032.8, 21.1513, 76.5875, 2541.69, 514.742, 209.516, 165.867, 702.982,
        242.778, 1818.41, 381.777, 186.961, 1.40639, 290.246, 279.983, 401.831, 15.8247, 20.5678,
        21.5274, 224.632, 196.42,  877.64,  16.5759, 2175.53, 1228.26, 615.271, 203.696}},
  };
  return table;
}

// The optimized library's coefficients, fitted by `hilsim calibrate` with cpu.kernels optimized
// on the presets with an instruction-set simulator. Operators the library has no kernel for run
// the reference kernels, so their coefficients repeat the reference table's.
const std::map<std::string, Calibrated>& calibratedOptimized() {
  static const std::map<std::string, Calibrated> table = {
      {"cortex-m0plus",
       {9.87198, 170.93,  397.093, 10.3689, 14.8833, 6.89116, 159.712, 1034.79, 27.9806, 0,
        2.66311, 93.5037, 58784.4, 22.0053, 79.7498, 2443.66, 495.704, 203.615, 157.888, 728.209,
        233.974, 1761.16, 413.374, 212.872, 1.46061, 273.504, 258.538, 480.71,  15.8246, 20.2599,
        22.7804, 215.442, 189.159, 847.365, 16.5737, 2061.75, 1204.48, 723.88,  189.184}},
      {"cortex-m33",
       {2.81177, 58.5166,  708.902, 2.31748, 3.30063, 6.7164,  66.4847, 1998.69, 13.6456, 0.560184,
        3.35319, 0.644768, 42483,   4.06936, 39.9566, 867.514, 172.94,  80.8696, 73.2586, 49.5703,
        15.6441, 568.198,  243.711, 175.244, 1.47358, 15.0053, 32.9975, 490.897, 14.0098, 14.8703,
        11.056,  101.617,  82.0548, 671.166, 13.5775, 920.132, 958.84,  1156.15, 15.0042}},
      {"cortex-m4f",
       {3.3473,  56.124,  806.463, 2.63334, 3.83645, 7.18351, 69.4163, 2263.82, 16.075,  0,
        2.91551, 2.4204,  45723.8, 4.77376, 42.618,  978.562, 186.619, 84.0719, 78.0984, 89.8636,
        17.5578, 636.432, 272.162, 199.273, 1.4131,  19.0053, 36.9972, 536.903, 18.5275, 23.8286,
        8.71129, 114.283, 81.9678, 657.426, 17.5764, 1019.36, 957.914, 1267.51, 19.0042}},
      {"rv32im",
       {7.52285, 35.1836, 742.374, 6.40776, 7.98104, 3.20845, 51.4398, 1692.44, 16.1656, 0,
        0,       34.0447, 21736.3, 8.94387, 40.4378, 795.239, 165.515, 70.1364, 56.3394, 266.624,
        173.446, 580.734, 214.127, 92,      8,       210.933, 127.726, 284.223, 11.0246, 11.7674,
        7.40702, 78.1177, 71.3366, 803.463, 10.9538, 772.062, 787.986, 1506.69, 140.06}},
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

CpuCoefficients cpuPreset(const std::string& preset, KernelLibrary library) {
  const CorePreset& p = lookup(preset);
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

  const auto opt = calibratedOptimized().find(preset);
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
