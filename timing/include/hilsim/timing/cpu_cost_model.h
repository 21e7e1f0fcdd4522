#pragma once
// Host-CPU cycle model of the reference kernels: cycles as a function of the work an operator
// does. The formulas and the origin of every preset figure are in configs/README.md.
//
//   FULLY_CONNECTED    int8: (fc_per_mac * rows * pad(K) * N
//                      + fc_per_weight_read * ceil(rows / 2) * pad(K) * N
//                      + fc_per_tail_mac * tail MACs) * weight_memory
//                      + fc_per_output * outputs + fc_per_call
//                      (weight reads: a kernel that multiplies two rows by each weight it loads
//                      reads the weights once per pair of rows; tail MACs: the products of the
//                      outputs left to its one-output loop, N mod 2 per pair of rows and N mod 4
//                      of a last single row; both 0 for the reference kernels)
//                      float32: (fc_float_per_mac * (rows * K * N - zero MACs)
//                      + fc_float_per_zero_mac * zero MACs) * weight_memory
//                      + fc_float_per_output * outputs + fc_float_per_call
//                      (zero MACs: products with a zero input or weight, counted on the
//                      invocation's data; software floating point skips most of their work)
//   CONV_2D            conv(1x1)_per_mac * inside MACs + conv_per_tap * inside taps
//                      + conv_per_output * outputs + conv_per_call
//                      + (not 1x1) conv_per_padded_mac * padding MACs
//                      + conv_per_patch_element * patch elements + conv_per_pixel_tap * pixel taps
//                      + conv_per_tail_mac * tail MACs
//                      + conv_per_unaligned_load * unaligned weight loads
//                      (inside taps: filter taps inside the input, summed over every output;
//                      inside MACs: their products, inside taps x input channels per filter;
//                      padding MACs: the products of the taps outside it; pixel taps: output
//                      pixels x KH x KW; patch elements: pixel taps x input channels per filter,
//                      what an im2col kernel copies; tail MACs: output pixels x filters x
//                      (K mod 4), the rests of its four-wide loops; unaligned weight loads: its
//                      word loads of filter rows (filter f at f x K bytes) that start at an
//                      address not a multiple of 4, one per four MACs, a row read once per pair
//                      of output pixels, or per pixel for a filter left over from the pairs of
//                      its group and for the last pixel of an odd count)
//   DEPTHWISE_CONV_2D  dwconv_per_mac * inside MACs + dwconv_per_tap * taps checked
//                      + dwconv_per_row * rows checked + dwconv_per_output * outputs
//                      + dwconv_per_call + dwconv_per_scalar_mac * scalar MACs
//                      + dwconv_per_pixel * output pixels
//                      + dwconv_per_general_pixel * general pixels
//                      + dwconv_per_quad * general quads + dwconv_per_quad_row * quad rows
//                      + dwconv_per_scalar_channel * general scalar channels
//                      + dwconv_per_scalar_row * scalar rows
//                      + dwconv_per_quad_pixel * quad pixels
//                      + dwconv_per_filter_miss * filter misses
//                      (taps checked: outputs x KH x KW; rows checked: outputs x KH;
//                      inside MACs: the taps inside the input; scalar MACs: the inside MACs of
//                      the channels a four-channel kernel leaves to scalar code, the last
//                      in_c mod 4 at depth multiplier 1 and every channel above it; general
//                      pixels: output pixels outside an unrolled 3x3 kernel's path, every
//                      pixel unless KH = KW = 3, dilation 1 and depth multiplier 1, else those
//                      whose window is not wholly inside the input; general quads: their
//                      four-channel groups, in_c / 4 per general pixel at depth multiplier 1, 0
//                      above it; general scalar channels: their scalar channels per general
//                      pixel; quad rows, scalar rows: those groups and channels times the filter
//                      rows inside the input, one loop over a window row each; quad pixels:
//                      the output pixels when the channels run four at a time, depth
//                      multiplier 1 and at least four channels, else 0; filter misses:
//                      depthwiseFilterMisses, the kernel's filter loads that miss the data
//                      cache in front of the weights)
//   AVERAGE_POOL_2D    pool_per_element * outputs * KH * KW + pool_per_output * outputs
//                      + pool_per_row * window rows + pool_per_call
//   MAX_POOL_2D        maxpool_per_element * outputs * KH * KW
//                      + maxpool_per_output * outputs + maxpool_per_row * window rows
//                      + maxpool_per_call
//                      (window rows: the window rows inside the input summed over the output
//                      pixels, batches x OW x the rows inside over OH)
//   SOFTMAX            softmax_per_element * elements + softmax_per_call
//   QUANTIZE           quantize_per_element * elements + op_per_call (integer input),
//                      quantize_float_per_element * elements + op_per_call (float input)
//   DEQUANTIZE         dequantize_per_element * elements + op_per_call
//   RESHAPE            reshape_per_byte * bytes copied + reshape_per_call
//   SVDF               (svdf_per_feature_mac * feature MACs + svdf_per_time_mac * time MACs)
//                      * weight_memory + svdf_state_per_byte * state bytes
//                      + svdf_per_filter * batches * filters + svdf_per_unit * batches * units
//                      + svdf_per_call
//                      (feature MACs = batches * filters * input size, time MACs = batches *
//                      filters * memory; the whole state buffer is shifted by one element)
//   ADD, SUB           add_per_element * elements + add_per_call
//   MUL                mul_per_element * elements + mul_per_call
//   MAXIMUM, MINIMUM   minmax_per_element * elements + op_per_call
//   LOGISTIC, TANH     activation_per_element * elements + op_per_call
//   HARD_SWISH         hard_swish_per_element * elements + op_per_call
//   CONCATENATION, PAD, PADV2, TRANSPOSE, STRIDED_SLICE, SQUEEZE
//                      copy_per_element * elements + op_per_call
//   MEAN               mean_per_element * input elements + quantize_per_element * outputs
//                      + op_per_call
//   UNIDIRECTIONAL_SEQUENCE_LSTM
//                      (lstm_per_mac * input MACs + lstm_per_recurrent_mac * recurrent MACs)
//                      * weight_memory + lstm_per_unaligned_load * unaligned word loads
//                      + lstm_per_tail_mac * tail MACs
//                      + lstm_cell_per_element * cell steps + lstm_per_step * steps
//                      + lstm_per_call
//                      (input MACs = 4 * cell steps * input size, recurrent MACs = 4 * cell
//                      steps * cells; cell steps = time steps * batch * cells; steps: the
//                      kernel's sequence steps, time steps * batch when batch-major, time steps
//                      when time-major; unaligned word loads and tail MACs: lstmGateLoads)
//   other ops          quantize_per_element * elements + op_per_call
// The first invocation of an operator in an inference adds its kernel's first-call cost
// (firstCallCycles: fc_first_call, fc_float_first_call for a float32 FULLY_CONNECTED,
// conv_first_call, dwconv_first_call, svdf_first_call, lstm_first_call, reshape_first_call,
// op_first_call for the rest): its code fetched into the flash memory system's caches; later
// invocations of the same kernel run it warm. A later int8 FULLY_CONNECTED adds
// fc_path_first_call for each code path of the optimized kernel it runs that no earlier one in the
// inference ran (newPathCycles; fullyConnectedPaths names the paths).
// pad(K) rounds K up to reduction_multiple (16 for Helium kernels). Results round to nearest.

#include <cstdint>
#include <string>
#include <vector>

#include "hilsim/schema/tflite_generated.h"
#include "hilsim/timing/conv_schedule.h"

namespace hilsim::timing {

// A set-associative data cache with least-recently-used replacement in front of the weights:
// lines of line_bytes in sets of `ways`. lines 0: none (the weights are not behind one).
struct WeightCache {
  uint32_t line_bytes = 0;
  uint32_t lines = 0;
  uint32_t ways = 1;
};

// The kernel library the CPU runs: TFLite Micro's reference kernels, or hilsim's optimized int8
// kernels (kernels/optimized).
enum class KernelLibrary : uint8_t { kReference, kOptimized };

// Cost coefficients in host-CPU cycles. Use cpuPreset() to get a consistent set.
struct CpuCoefficients {
  double fc_per_mac = 0.0;
  double fc_per_output = 0.0;
  double fc_per_call = 0.0;
  double fc_per_weight_read = 0.0;  // per weight loaded, ceil(rows / 2) x pad(K) x N
  double fc_per_tail_mac = 0.0;     // per MAC of an output left to a one-output loop
  // FULLY_CONNECTED in float32: software floating point on cores without an FPU.
  double fc_float_per_mac = 0.0;
  double fc_float_per_zero_mac = 0.0;  // a MAC with a zero operand
  double fc_float_per_output = 0.0;
  double fc_float_per_call = 0.0;
  double conv1x1_per_mac = 0.0;
  double conv_per_mac = 0.0;
  double conv_per_output = 0.0;
  double conv_per_call = 0.0;
  // Per filter tap inside the input: the window loop's bounds check and addressing, which
  // dominate a convolution over few input channels.
  double conv_per_tap = 0.0;
  // Kernels that multiply the padding (an im2col patch is zero-filled outside the input): per
  // MAC of a tap outside the input, per patch element copied and per tap of an output pixel's
  // window. 0 for the reference kernels, which skip the taps outside.
  double conv_per_padded_mac = 0.0;
  double conv_per_patch_element = 0.0;
  double conv_per_pixel_tap = 0.0;
  // The optimized im2col kernel: per MAC in the K mod 4 rest of a dot product, per word load
  // from an unaligned filter row.
  double conv_per_tail_mac = 0.0;
  double conv_per_unaligned_load = 0.0;
  double dwconv_per_mac = 0.0;
  double dwconv_per_tap = 0.0;  // per tap checked against the input, inside or not
  double dwconv_per_row = 0.0;  // per filter row checked against the input
  double dwconv_per_output = 0.0;
  double dwconv_per_call = 0.0;
  // Kernels that process four channels at a time, with an unrolled path for the interior of a
  // 3x3 filter: per inside MAC of a channel left to scalar code, per output pixel (its window's
  // set-up) and per output pixel outside the unrolled path. 0 for the reference kernels, which
  // loop over every output the same way.
  double dwconv_per_scalar_mac = 0.0;
  double dwconv_per_pixel = 0.0;
  double dwconv_per_general_pixel = 0.0;
  // Outside the unrolled path: per four-channel group and per scalar channel of an output pixel
  // (their sums' set-up and requantization), and per filter row inside the input of each.
  double dwconv_per_quad = 0.0;
  double dwconv_per_quad_row = 0.0;
  double dwconv_per_scalar_channel = 0.0;
  double dwconv_per_scalar_row = 0.0;
  double dwconv_per_quad_pixel = 0.0;   // per output pixel of the four-channel loop
  double dwconv_per_filter_miss = 0.0;  // per filter load that misses the weights' data cache
  double pool_per_element = 0.0;
  double pool_per_output = 0.0;
  double softmax_per_element = 0.0;
  double quantize_per_element = 0.0;
  double quantize_float_per_element = 0.0;
  double dequantize_per_element = 0.0;
  double reshape_per_call = 0.0;
  double reshape_per_byte = 0.0;
  double op_per_call = 0.0;  // the per-call cost of the operators without one of their own
  // Per invocation of pooling, SOFTMAX, ADD and SUB, and MUL: their kernels' set-up (the
  // optimized library's differ most from op_per_call).
  double pool_per_call = 0.0;
  // MAX_POOL_2D: per window element, per output, per invocation (AVERAGE_POOL_2D: pool_*).
  double maxpool_per_element = 0.0;
  double maxpool_per_output = 0.0;
  double maxpool_per_call = 0.0;
  // The optimized pooling kernels walk each output pixel's window row by row, all channels at
  // once: per window row inside the input (0 for the reference kernels).
  double pool_per_row = 0.0;
  double maxpool_per_row = 0.0;
  double softmax_per_call = 0.0;
  double add_per_call = 0.0;
  double mul_per_call = 0.0;
  // SVDF: the feature product (a MAC per input element and filter), the time product (a MAC per
  // state element), the state shift (bytes moved), per filter (the feature sum's requantization
  // and narrowing to the state, the time sum) and per unit (bias, rank sum, requantization).
  double svdf_per_feature_mac = 0.0;
  double svdf_per_time_mac = 0.0;
  double svdf_state_per_byte = 0.0;
  double svdf_per_filter = 0.0;
  double svdf_per_unit = 0.0;
  double svdf_per_call = 0.0;
  double add_per_element = 0.0;
  double mul_per_element = 0.0;
  double minmax_per_element = 0.0;
  double activation_per_element = 0.0;
  double hard_swish_per_element = 0.0;
  double copy_per_element = 0.0;
  double mean_per_element = 0.0;
  // UNIDIRECTIONAL_SEQUENCE_LSTM: per gate MAC of the input product and of the recurrent
  // product; per unaligned word load and per MAC left to the scalar tail of the gate products
  // (the optimized kernels: lstmGateLoads); per cell and time step (eight product
  // requantizations, four gate activations, the cell and hidden updates); per sequence step (the
  // four gate calls and the state updates); per invocation.
  double lstm_per_mac = 0.0;
  double lstm_per_recurrent_mac = 0.0;
  double lstm_per_unaligned_load = 0.0;
  double lstm_per_tail_mac = 0.0;
  double lstm_cell_per_element = 0.0;
  double lstm_per_step = 0.0;
  double lstm_per_call = 0.0;
  // Cycles the first invocation of an operator in an inference adds (its kernel's code not yet in
  // the caches), per formula above; 0 on parts without caches in front of wait states.
  double fc_first_call = 0.0;
  double fc_float_first_call = 0.0;  // FULLY_CONNECTED in float32 (its own kernel)
  // A later int8 FULLY_CONNECTED, per code path of the kernel no earlier one ran (optimized).
  double fc_path_first_call = 0.0;
  double conv_first_call = 0.0;
  double dwconv_first_call = 0.0;
  double svdf_first_call = 0.0;
  double lstm_first_call = 0.0;
  double reshape_first_call = 0.0;
  double op_first_call = 0.0;  // every other operator
  uint32_t reduction_multiple = 1;
  // Multiplies fc_per_mac and the LSTM's per-MAC terms: 1 flash, 0.6 SRAM/TCM, 2.5 external.
  double weight_memory_factor = 1.0;
  // The data cache the weights are read through (not a key: the configuration derives it from
  // cpu.flash when cpu.weight_memory is flash).
  WeightCache weight_cache;
  // The library whose kernels these coefficients price (not a key: cpuPreset() sets it from
  // cpu.kernels); the filter misses follow its loop order (depthwiseFilterMisses).
  KernelLibrary kernels = KernelLibrary::kReference;
};

// The optimization level the firmware image of the kernels is built at (cpu.firmware_opt): -O2 as
// TFLite Micro's Makefile builds its kernels, or -Os. The optimized library exists at -O2 only.
enum class FirmwareOpt : uint8_t { kO2, kOs };

// The CPU presets: names accepted by `cpu.preset`.
const std::vector<std::string>& cpuPresetNames();
// Coefficients of a preset for a kernel library built at `opt`. Throws hilsim::ConfigError if the
// combination does not exist (no optimized-library coefficients for the preset; -Os coefficients
// are calibrated for the reference kernels of the presets with an instruction-set simulator).
CpuCoefficients cpuPreset(const std::string& preset, KernelLibrary library,
                          FirmwareOpt opt = FirmwareOpt::kO2);
// Clock of the preset's typical part, in MHz.
double cpuPresetClockMhz(const std::string& preset);

// The driver software's cost on a preset, in host-CPU cycles, as cpu.model cost prices it
// (cpu.driver_job_cycles, cpu.driver_reg_cycles, cpu.irq_handler_cycles).
struct CpuDriverCycles {
  uint32_t job_cycles = 0;  // submitting one job, its register writes' instructions included
  uint32_t reg_cycles = 0;  // per register access, besides the bus trip
  uint32_t irq_handler_cycles = 0;  // from the interrupt to the driver's return
};
// Throws hilsim::ConfigError for an unknown preset.
CpuDriverCycles cpuPresetDriver(const std::string& preset);

// The work an operator invocation does, filled in by the kernel's prepare.
struct OpWork {
  uint64_t macs = 0;             // SVDF: both products
  uint64_t time_macs = 0;        // SVDF: MACs of the time product (batches x filters x memory)
  uint64_t outputs = 0;          // output elements (SVDF: batches x units)
  uint64_t elements = 0;         // elements processed (element-wise and data-movement ops,
                                 // softmax; MEAN: input elements; LSTM: steps x batch x cells;
                                 // RESHAPE: bytes copied)
  uint64_t inside_macs = 0;      // CONV_2D, DEPTHWISE_CONV_2D: MACs of the taps inside the input
  uint64_t window_elements = 0;  // pooling: outputs * KH * KW; CONV_2D: taps inside the input x
                                 // output channels; DEPTHWISE_CONV_2D: taps checked (outputs x
                                 // KH x KW)
  uint64_t window_rows = 0;      // DEPTHWISE_CONV_2D: filter rows checked (outputs x KH);
                                 // pooling: window rows inside the input over the output pixels
  uint64_t pixel_taps = 0;       // CONV_2D: output pixels x KH x KW
  uint64_t patch_elements = 0;   // CONV_2D: pixel taps x input channels per filter
  uint64_t scalar_macs = 0;      // DEPTHWISE_CONV_2D: inside MACs of the channels outside a
                                 // four-channel loop (in_c mod 4; all at depth multiplier > 1)
  uint64_t pixels = 0;           // DEPTHWISE_CONV_2D: output pixels (batches x OH x OW)
  uint64_t general_quads = 0;    // DEPTHWISE_CONV_2D: see the formula above
  uint64_t general_quad_rows = 0;
  uint64_t general_scalar_channels = 0;
  uint64_t general_scalar_rows = 0;
  uint64_t quad_pixels = 0;      // DEPTHWISE_CONV_2D: output pixels whose channels run four at a
                                 // time (depth multiplier 1, at least four channels)
  uint32_t filter_taps = 0;      // DEPTHWISE_CONV_2D: KH x KW
  uint32_t filter_channels = 0;  // DEPTHWISE_CONV_2D: output channels, the bytes between taps
  uint64_t general_pixels = 0;   // DEPTHWISE_CONV_2D: output pixels outside the unrolled 3x3
                                 // path (see the formula above)
  uint64_t state_bytes = 0;      // SVDF state shifted per invocation; LSTM state bytes
  uint64_t filters = 0;          // SVDF: batches x filters
  uint64_t steps = 0;            // LSTM: sequence steps (time steps, x batch when batch-major)
  uint64_t recurrent_macs = 0;   // LSTM: MACs of the recurrent product (part of macs)
  uint64_t unaligned_loads = 0;  // LSTM, CONV_2D (not 1x1): the optimized kernels' word loads at
                                 // unaligned addresses (see the formulas above)
  uint64_t tail_macs = 0;        // LSTM, CONV_2D (not 1x1): MACs outside their four-wide loops
  uint32_t gemm_rows = 0;        // FULLY_CONNECTED: rows, K, N (for reduction padding)
  uint32_t gemm_k = 0;
  uint32_t gemm_n = 0;
  uint8_t fc_paths = 0;      // int8 FULLY_CONNECTED: fullyConnectedPaths(rows, N)
  bool pointwise = false;    // CONV_2D with a 1x1 kernel
  bool float_input = false;  // QUANTIZE from float32; FULLY_CONNECTED in float32
  // FULLY_CONNECTED in float32: MACs with a zero input or weight. Counted on the data when the
  // layer runs (rt::InvokeContext::priceReference); 0 in prepare's work.
  uint64_t zero_operand_macs = 0;
};

// The work of a CONV_2D or DEPTHWISE_CONV_2D invocation as the reference kernels do it (every
// filter tap is checked against the input; the taps inside it are multiplied). filter_in_c: the
// input channels one CONV_2D filter reads (in_c / groups); ignored for a depthwise geometry.
OpWork convolutionWork(const ConvGeometry& g, uint32_t filter_in_c);

// A DEPTHWISE_CONV_2D kernel's filter loads that miss `cache`. Per output pixel the reference
// kernel reads, for each output channel in turn, that channel's byte of every tap
// (filter_channels bytes apart): a walk over lines that repeats for the neighbouring channels and
// the next pixel. The optimized kernel walks the same way at a depth multiplier above 1; at 1
// (work.quad_pixels) it reads four channels' bytes as one word per tap, one walk per four
// channels, and the in_c mod 4 rest a channel at a time (`kernels`).
// Nothing misses when the whole filter fits the cache's sets; a line that one channel's walk
// puts in a set together with more lines than the set has ways misses on every load of that walk
// (the walk evicts it before it comes round again); any other line of a set the filter
// overflows misses once per pixel. Scaled by the share of taps that lie inside the input; 0
// without a cache.
uint64_t depthwiseFilterMisses(const OpWork& work, const WeightCache& cache,
                               KernelLibrary kernels = KernelLibrary::kReference);

// An int8 FULLY_CONNECTED's weight loads and tail MACs, as in the formula above (K padded to
// `reduction_multiple`).
uint64_t fullyConnectedWeightReads(uint32_t rows, uint64_t padded_k, uint32_t n);
uint64_t fullyConnectedTailMacs(uint32_t rows, uint64_t padded_k, uint32_t n);

// The code paths of the optimized int8 FULLY_CONNECTED kernel a shape runs, as bits: row pairs
// two outputs at a time (kFcPairPath) and the odd output of a pair (kFcPairTailPath); a single row
// four outputs at a time (kFcQuadPath) and the N mod 4 outputs one at a time (kFcSingleTailPath).
constexpr uint8_t kFcPairPath = 1, kFcPairTailPath = 2, kFcQuadPath = 4, kFcSingleTailPath = 8;
uint8_t fullyConnectedPaths(uint32_t rows, uint32_t n);

// The gate products of an int8 UNIDIRECTIONAL_SEQUENCE_LSTM as the optimized kernels run them:
// per gate and row, four cells at a time, each dot product reading a word of the input (of the
// hidden state) and of each cell's weight row per four MACs, the K mod 4 rest one MAC at a time.
// With the tensors word-aligned, row r of a K-wide array starts unaligned when r * K is not a
// multiple of 4. unaligned_loads counts the word loads of the four gates at such addresses (input
// rows of the sequence, hidden-state rows of the batch, weight rows of the cells); tail_macs the
// MACs of the K mod 4 rests (4 * cell steps * (input size mod 4 + cells mod 4)).
struct LstmGateLoads {
  uint64_t unaligned_loads = 0;
  uint64_t tail_macs = 0;
};
LstmGateLoads lstmGateLoads(uint32_t time_steps, uint32_t batches, uint32_t input_size,
                            uint32_t cells);

// The coefficient holding the first-call cost of the kernel that runs `op` doing `work`
// (CpuCoefficients::fc_first_call, fc_float_first_call, ...).
double CpuCoefficients::*firstCallCoefficient(tflite::BuiltinOperator op, const OpWork& work);

class CpuCostModel {
 public:
  // The default preset: cortex-m55 with the TFLM reference kernels.
  CpuCostModel();
  explicit CpuCostModel(const CpuCoefficients& c) : c_(c) {}

  // Cycles of one invocation of `op` doing `work` with the reference kernel, its code warm.
  uint64_t cycles(tflite::BuiltinOperator op, const OpWork& work) const;
  // What the first invocation of the kernel that runs `op` doing `work` adds to cycles().
  uint64_t firstCallCycles(tflite::BuiltinOperator op, const OpWork& work) const;
  // What a later int8 FULLY_CONNECTED doing `work` adds for its code paths outside
  // `earlier_paths` (the paths the int8 FULLY_CONNECTED layers before it ran).
  uint64_t newPathCycles(const OpWork& work, uint8_t earlier_paths) const;
  // Int8 FULLY_CONNECTED cycles for a GEMM shape, as used by break-even analysis.
  uint64_t fullyConnectedCycles(uint32_t rows, uint32_t k, uint32_t n) const;
  const CpuCoefficients& coefficients() const { return c_; }

 private:
  CpuCoefficients c_;
};

}  // namespace hilsim::timing
