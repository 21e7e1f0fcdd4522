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
       {17.0006, 178.015, 479.062, 12.958,  13.0765, 67.6246, 286.81,  1201.1,  33.1853, 20.6911,
        36.3233, 264.787, 22795,   22.058,  79.7109, 2185.74, 385.895, 177.233, 144.023, 726.944,
        235.26,  1621.72, 347.211, 152.137, 1.46772, 273.504, 258.439, 368.028, 15.9793, 31.7952,
        14.5487, 215.844, 158.992, 965.484, 13.5273, 2041.42, 944.099, 188.956, 189.199}},
      {"cortex-m33",
       {16.0032, 98.1093, 323.696, 14.9837, 15.0505, 44.9282, 154.986, 895.128, 19.3946, 24.1353,
        23.6467, 157.221, 16218,   14.9894, 39.9266, 737.96,  124.753, 72.783,  64.3368, 48.6769,
        15.7107, 471.532, 180.828, 101.31,  1.49496, 15.0052, 32.9975, 359.906, 16.9693, 8.09063,
        18.0817, 100.543, 79.0547, 886.252, 14.8423, 975.768, 652.021, 273.613, 15.0042}},
      {"cortex-m4f",
       {20.0039, 110.208, 325.364, 18.9977, 19.0479, 50.1497, 161.254, 923.943, 19.276,  27.2418,
        23.6739, 167.199, 15772.3, 17.4115, 41.3171, 831.391, 130.627, 79.2318, 70.8367, 88.4297,
        17.5834, 527.616, 197.852, 114.788, 1.43682, 19.0052, 36.9973, 385.91,  20.9646, 13.1338,
        18.0423, 108.82,  80.9538, 940.903, 18.8742, 1053.65, 679.838, 277.689, 19.0042}},
      {"rv32im",
       {12.0033, 68.2787, 257.385, 10.9238, 11.2526, 21.6142, 128.379, 763.696, 9.2549,  10.5272,
        8.85299, 121.818, 6734.84, 8.95613, 40.4358, 722.6,   138.184, 66.2385, 53.1102, 264.523,
        173.686, 513.486, 200.299, 90,      8,       210.9,   127.411, 247.667, 11.0094, 11.7866,
        7.36215, 76.9692, 66.9894, 877.306, 10.9439, 719.93,  791.671, 1145.2,  140.162}},
  };
  return table;
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
    if (cal != calibrated().end()) {
      const Calibrated& f = cal->second;
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
    return c;
  }

  if (!p.has_cmsis)
    throw ConfigError("cpu.kernels 'cmsis_nn' is not available for preset '" + preset +
                      "' (CMSIS-NN has no kernels for it)");
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
