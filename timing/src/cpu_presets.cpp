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
      conv_per_output, conv_per_call, dwconv_per_mac, dwconv_per_tap, dwconv_per_output,
      dwconv_per_call, pool_per_element, pool_per_output, softmax_per_element, add_per_element,
      mul_per_element, quantize_per_element, quantize_float_per_element, dequantize_per_element,
      activation_per_element, op_per_call, reshape_per_call, reshape_per_byte, lstm_per_mac,
      lstm_cell_per_element, lstm_per_step, lstm_per_call;
};

const std::map<std::string, Calibrated>& calibrated() {
  static const std::map<std::string, Calibrated> table = {
      {"cortex-m0plus",
       {12.9999, 203.88,  516.083, 13.0748, 11.1078, 32.3372, 284.021, 1126.33, 15.0073, 70.3445,
        196.182, 0,       17.5348, 92.4259, 2457.92, 494.547, 203.68,  158.002, 729.499, 233.55,
        1731.82, 357.281, 169.377, 1.46524, 16.5736, 2061.75, 1204.47, 633.543}},
      {"cortex-m33",
       {15.0167, 97.68,   348.504, 15.0433, 12.5349, 27.1774, 151.787, 830.202, 12.9995, 68.4163,
        97.4506, 0,       13.8779, 39.1957, 875.913, 173.043, 81.1095, 74.2167, 48.2239, 15.9007,
        556.812, 187.025, 96.1376, 1.49724, 13.5775, 920.148, 958.819, 1005.37}},
      {"cortex-m4f",
       {19.0218, 105.389, 359.836, 18.0747, 15.6173, 28.7424, 160.137, 835.179, 15.5897, 72.5501,
        108.258, 0,       15.8888, 40.6453, 986.466, 186.761, 84.3806, 79.104,  87.4019, 17.7589,
        623.557, 208.36,  107.505, 1.44008, 17.5764, 1019.38, 957.891, 1093.81}},
      {"rv32im",
       {11.0017, 72.4786, 279.219, 11.023,  9.44225, 12.9063, 104.182, 683.222, 11.5092, 25.7904,
        58.0436, 0,       8.97448, 40.4079, 799.698, 165.477, 70.1846, 56.7169, 267.018, 171.808,
        569.519, 194.414, 85,      8,       10.9538, 772.073, 787.965, 1306.76}},
  };
  return table;
}

// The LSTM of a preset without a calibrated one: the gate products priced as the preset's
// FULLY_CONNECTED (per MAC, per output, per call) and the cell's element-wise work relative to
// ADD; no per-step term.
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

CpuPresetMemory cpuPresetMemory(const std::string& preset) {
  // Flash wait states of the typical part at the preset's clock (iss/README.md, "Wait states"):
  // STM32G0 at 48 MHz (RM0444), STM32L4R5 at 120 MHz (RM0432), STM32U5 at 128 MHz (RM0456);
  // the E31's ITIM and DTIM have none, and every part's SRAM runs at the core clock.
  static const std::map<std::string, CpuPresetMemory> table = {
      {"cortex-m0plus", {true, 1, 0}},
      {"cortex-m4f", {true, 5, 0}},
      {"cortex-m33", {true, 3, 0}},
      {"rv32im", {true, 0, 0}},
  };
  lookup(preset);  // an unknown preset is an error
  const auto it = table.find(preset);
  return it == table.end() ? CpuPresetMemory{} : it->second;
}

CpuCoefficients cpuPreset(const std::string& preset, KernelLibrary library) {
  const CorePreset& p = lookup(preset);
  CpuCoefficients c;
  c.fc_per_mac = p.fc_ref[0];
  c.fc_per_output = p.fc_ref[1];
  c.fc_per_call = p.fc_ref[2];
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
  if (library == KernelLibrary::kReference) {
    const auto cal = calibrated().find(preset);
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
