// CPU presets grounded in the published figures of ../shared/reference/cpu_cycles.md; the
// derivation of every number is in configs/README.md ("cpu presets").

#include <map>

#include "hilsim/errors.h"
#include "hilsim/timing/cpu_cost_model.h"

namespace hilsim::timing {
namespace {

struct CorePreset {
  double clock_mhz;
  double k;  // cross-core factor applied to the RV32-measured reference figures of other ops
  double fc_ref[3];  // a, b, c of FULLY_CONNECTED, TFLM reference kernels
  bool has_cmsis;
  double fc_cmsis[3];  // a, b, c of FULLY_CONNECTED, CMSIS-NN kernels
  double softmax_ref;  // cycles per element, reference kernel
  double dequantize_ref;
  double add_ref;  // cycles per element of an int8 ADD, reference kernel
  bool helium;
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

const std::map<std::string, CorePreset>& presets() {
  static const std::map<std::string, CorePreset> table = {
      {"cortex-m0plus", {48, 2.0, {26, 160, 5000}, true, {13, 40, 3000}, 4340, 504, 230, false}},
      {"cortex-m4f", {120, 1.0, {13, 80, 3000}, true, {3.7, 20, 2000}, 600, 8, 60, false}},
      {"cortex-m33", {128, 1.0, {13, 80, 3000}, true, {2.8, 18, 2000}, 600, 8, 60, false}},
      {"cortex-m7", {480, 1.6, {21, 130, 3000}, true, {2.3, 15, 1500}, 960, 12.8, 96, false}},
      {"cortex-m55", {400, 0.9, {12, 70, 3000}, true, {2.7, 18, 2000}, 540, 7.2, 54, false}},
      {"cortex-m55-helium", {400, 0.9, {12, 70, 3000}, true, {0.8, 16, 2000}, 540, 7.2, 54, true}},
      {"rv32im", {100, 1.0, {13.2, 100, 4000}, false, {0, 0, 0}, 2170, 252, 115, false}},
  };
  return table;
}

// The reference kernels' coefficients of the presets with an instruction-set simulator, as
// `hilsim calibrate` fits them at the preset's default wait states (README.md, "calibrate";
// configs/README.md, "Calibrated on the ISS"). They replace the published figures above, which
// stay the cross-check.
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
       {12.9995, 203.606, 505.268, 12.9559, 13.0706, 77.6809, 278.448, 1171.54, 28.5468, 0,
        56.1603, 294.303, 14063.8, 17.62,   91.8043, 2443.89, 495.181, 203.889, 158.419, 730.93,
        232.42,  1753.65, 352.021, 157.21,  1.46694, 273.504, 258.477, 411.905, 15.8245, 20.2603,
        22.7803, 215.436, 189.164, 807.293, 16.5736, 2061.75, 1204.47, 633.543, 189.193}},
      {"cortex-m33",
       {15.0066, 98.1013, 415.198, 14.9673, 15.0433, 49.6171, 150.104, 891.915, 21.5581, 1.61635,
        36.6982, 169.934, 10912.8, 13.8867, 39.1887, 873.939, 173.216, 81.2058, 74.529,  47.5242,
        15.9851, 564.416, 158.948, 155.822, 1.47765, 15.0052, 32.9975, 364.905, 14.0098, 14.8703,
        11.056,  101.617, 82.0551, 657.165, 13.5775, 920.148, 958.819, 1005.37, 15.0042}},
      {"cortex-m4f",
       {19.0088, 106.021, 437.451, 17.9759, 18.0428, 53.008,  159.394, 926.166, 23.0586, 4.03852,
        35.8265, 183.633, 9686.13, 15.8961, 40.6376, 984.98,  186.887, 84.4259, 79.278,  86.4915,
        17.7894, 631.109, 179.753, 173.655, 1.41825, 19.0052, 36.9973, 386.91,  18.5275, 23.8284,
        8.71138, 114.283, 81.9678, 639.43,  17.5764, 1019.38, 957.891, 1093.81, 19.0042}},
      {"rv32im",
       {10.9996, 72.8789, 239.371, 10.932,  11.2425, 25.4356, 113.748, 712.657, 15.9551, 2.32593,
        12.5198, 114.202, 4046.38, 8.96405, 40.347,  795.594, 165.383, 70.1674, 56.4855, 265.525,
        173.854, 575.481, 202.207, 85,      8,       210.92,  127.615, 252.063, 11.0246, 11.7674,
        7.40702, 78.1177, 71.3366, 801.463, 10.9539, 772.053, 788.065, 1302.78, 140.098}},
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
  const auto cal = calibrated().find(preset);
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
