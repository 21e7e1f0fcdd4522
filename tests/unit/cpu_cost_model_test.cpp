// The CPU cost model's formulas and preset figures, against values worked out by hand from
// configs/README.md.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "hilsim/timing/cpu_cost_model.h"

namespace hilsim::timing {
namespace {

using Op = tflite::BuiltinOperator;

OpWork elementsWork(uint64_t elements) {
  OpWork w;
  w.elements = elements;
  return w;
}

// The published RV32 figures of configs/README.md. The rv32im preset itself now ships the
// coefficients `hilsim calibrate` fits on the ISS for the calibrated operators; the formulas
// are checked against the published ones, worked out by hand.
CpuCoefficients publishedRv32() {
  CpuCoefficients c = cpuPreset("rv32im", KernelLibrary::kReference);
  c.fc_per_mac = 13.2;
  c.fc_per_output = 100;
  c.fc_per_call = 4000;
  c.pool_per_element = 22.7;
  c.pool_per_output = 0;
  c.add_per_element = 115;
  c.mul_per_element = 57.5;
  c.quantize_per_element = 5.3;
  c.quantize_float_per_element = 252;
  c.dequantize_per_element = 252;
  c.activation_per_element = 230;
  c.op_per_call = 1000;
  c.pool_per_call = c.softmax_per_call = c.add_per_call = c.mul_per_call = 1000;
  c.maxpool_per_element = 22.7;
  c.maxpool_per_output = 0;
  c.maxpool_per_call = 1000;
  return c;
}

// The optimized FULLY_CONNECTED's terms: weights loaded once per pair of rows, and the outputs
// its one-output loop takes (N mod 2 per row pair, N mod 4 of a last single row).
TEST(CpuCostModel, FullyConnectedWeightReadsAndTailMacs) {
  EXPECT_EQ(fullyConnectedWeightReads(1, 640, 128), 640u * 128u);
  EXPECT_EQ(fullyConnectedWeightReads(4, 64, 64), 2u * 64u * 64u);
  EXPECT_EQ(fullyConnectedWeightReads(5, 64, 64), 3u * 64u * 64u);
  EXPECT_EQ(fullyConnectedTailMacs(1, 3920, 3), 3u * 3920u);
  EXPECT_EQ(fullyConnectedTailMacs(1, 16, 16), 0u);
  EXPECT_EQ(fullyConnectedTailMacs(2, 128, 5), 2u * 128u);
  EXPECT_EQ(fullyConnectedTailMacs(3, 100, 7), 2u * 100u + 3u * 100u);
  CpuCoefficients c;
  c.fc_per_weight_read = 2.0;
  c.fc_per_tail_mac = 10.0;
  c.weight_memory_factor = 1.5;
  // (2 x 2 x 100 x 7 + 10 x 500) x 1.5
  EXPECT_EQ(CpuCostModel(c).fullyConnectedCycles(3, 100, 7), 11700u);
}

// The first invocation of an operator in an inference adds its kernel's first-call cost; every
// operator without a term of its own shares op_first_call.
TEST(CpuCostModel, FirstCallCoefficientPerOperator) {
  CpuCoefficients c;
  c.fc_first_call = 370.4;
  c.fc_float_first_call = 2900;
  c.conv_first_call = 12;
  c.op_first_call = 290;
  const CpuCostModel model(c);
  OpWork int8, float32;
  float32.float_input = true;
  EXPECT_EQ(model.firstCallCycles(Op::FULLY_CONNECTED, int8), 370u);
  EXPECT_EQ(model.firstCallCycles(Op::FULLY_CONNECTED, float32), 2900u);
  EXPECT_EQ(model.firstCallCycles(Op::CONV_2D, int8), 12u);
  EXPECT_EQ(model.firstCallCycles(Op::DEPTHWISE_CONV_2D, int8), 0u);
  EXPECT_EQ(model.firstCallCycles(Op::SOFTMAX, int8), 290u);
  EXPECT_EQ(model.firstCallCycles(Op::MAX_POOL_2D, int8), 290u);
  // QUANTIZE from float32 runs the same kernel as from int8.
  EXPECT_EQ(model.firstCallCycles(Op::QUANTIZE, float32), 290u);
}

// The optimized FULLY_CONNECTED's code paths: row pairs two outputs at a time and their odd
// output; a single row four outputs at a time and the N mod 4 rest.
TEST(CpuCostModel, FullyConnectedCodePaths) {
  EXPECT_EQ(fullyConnectedPaths(1, 16), kFcQuadPath);
  EXPECT_EQ(fullyConnectedPaths(1, 1), kFcSingleTailPath);
  EXPECT_EQ(fullyConnectedPaths(1, 3), kFcSingleTailPath);
  EXPECT_EQ(fullyConnectedPaths(1, 10), kFcQuadPath | kFcSingleTailPath);
  EXPECT_EQ(fullyConnectedPaths(2, 16), kFcPairPath);
  EXPECT_EQ(fullyConnectedPaths(2, 1), kFcPairTailPath);
  EXPECT_EQ(fullyConnectedPaths(4, 5), kFcPairPath | kFcPairTailPath);
  // An odd row count leaves the last row to the single-row paths.
  EXPECT_EQ(fullyConnectedPaths(3, 6), kFcPairPath | kFcQuadPath | kFcSingleTailPath);
}

// A later int8 FULLY_CONNECTED pays fc_path_first_call per path no earlier one ran.
TEST(CpuCostModel, NewPathCyclesPerPathNotRunBefore) {
  CpuCoefficients c;
  c.fc_path_first_call = 150.4;
  const CpuCostModel model(c);
  OpWork w;
  w.fc_paths = kFcQuadPath | kFcSingleTailPath;
  EXPECT_EQ(model.newPathCycles(w, kFcQuadPath), 150u);
  EXPECT_EQ(model.newPathCycles(w, kFcQuadPath | kFcSingleTailPath | kFcPairPath), 0u);
  EXPECT_EQ(model.newPathCycles(w, kFcPairPath), 301u);
  EXPECT_EQ(model.newPathCycles(OpWork{}, 0), 0u);  // float32 and other operators: no paths
}

TEST(CpuCostModel, PublishedAddFiguresPerPreset) {
  // cpu_cycles.md: ~60 cycles/element estimated on Cortex-M4, carried to the presets without an
  // instruction-set simulator by k; the calibrated presets have the ISS's figure.
  EXPECT_EQ(cpuPreset("cortex-m7", KernelLibrary::kReference).add_per_element, 96.0);
  EXPECT_EQ(cpuPreset("cortex-m55", KernelLibrary::kReference).add_per_element, 54.0);
  EXPECT_NE(cpuPreset("cortex-m4f", KernelLibrary::kReference).add_per_element, 60.0);
}

TEST(CpuCostModel, ElementWiseOperatorsOnRv32) {
  const CpuCostModel m(publishedRv32());
  // op_per_call = 1000 on RV32 (k = 1).
  EXPECT_EQ(m.cycles(Op::ADD, elementsWork(1000)), 115'000u + 1000u);
  EXPECT_EQ(m.cycles(Op::SUB, elementsWork(10)), 1150u + 1000u);
  EXPECT_EQ(m.cycles(Op::MUL, elementsWork(1000)), 57'500u + 1000u);      // 0.5 x 115
  EXPECT_EQ(m.cycles(Op::MAXIMUM, elementsWork(1000)), 28'750u + 1000u);  // 0.25 x 115
  EXPECT_EQ(m.cycles(Op::MINIMUM, elementsWork(4)), 115u + 1000u);
  EXPECT_EQ(m.cycles(Op::LOGISTIC, elementsWork(100)), 23'000u + 1000u);  // 2 x 115
  EXPECT_EQ(m.cycles(Op::TANH, elementsWork(100)), 23'000u + 1000u);
  EXPECT_EQ(m.cycles(Op::HARD_SWISH, elementsWork(100)), 11'500u + 1000u);
  for (Op op :
       {Op::CONCATENATION, Op::PAD, Op::PADV2, Op::TRANSPOSE, Op::STRIDED_SLICE, Op::SQUEEZE})
    EXPECT_EQ(m.cycles(op, elementsWork(250)), 1000u + 1000u) << EnumNameBuiltinOperator(op);
}

// Each pooling, SOFTMAX, ADD/SUB and MUL have per-call coefficients of their own; the other
// element-wise operators share op_per_call. A preset without a calibration starts them all at
// its op_per_call.
TEST(CpuCostModel, PerCallCoefficientsOfTheirOwn) {
  CpuCoefficients c = publishedRv32();
  c.pool_per_call = 300;
  c.maxpool_per_call = 250;
  c.softmax_per_call = 400;
  c.add_per_call = 1400;
  c.mul_per_call = 1200;
  const CpuCostModel m(c);
  EXPECT_EQ(m.cycles(Op::ADD, elementsWork(1000)), 115'000u + 1400u);
  EXPECT_EQ(m.cycles(Op::SUB, elementsWork(10)), 1150u + 1400u);
  EXPECT_EQ(m.cycles(Op::MUL, elementsWork(1000)), 57'500u + 1200u);
  EXPECT_EQ(m.cycles(Op::LOGISTIC, elementsWork(100)), 23'000u + 1000u);
  OpWork pool;
  pool.window_elements = 16 * 4;
  EXPECT_EQ(m.cycles(Op::AVERAGE_POOL_2D, pool), 1753u);  // 22.7 x 64 + 300 = 1752.8
  EXPECT_EQ(m.cycles(Op::MAX_POOL_2D, pool), 1703u);      // 22.7 x 64 + 250
  // The optimized kernels' walk over window rows: 16 rows at 9 and 7 cycles.
  pool.window_rows = 16;
  c.pool_per_row = 9;
  c.maxpool_per_row = 7;
  EXPECT_EQ(CpuCostModel(c).cycles(Op::AVERAGE_POOL_2D, pool), 1753u + 144u);
  EXPECT_EQ(CpuCostModel(c).cycles(Op::MAX_POOL_2D, pool), 1703u + 112u);
  for (const char* preset : {"cortex-m7", "cortex-m55"}) {
    const CpuCoefficients p = cpuPreset(preset, KernelLibrary::kReference);
    EXPECT_EQ(p.pool_per_call, p.op_per_call) << preset;
    EXPECT_EQ(p.maxpool_per_call, p.op_per_call) << preset;
    EXPECT_EQ(p.maxpool_per_element, p.pool_per_element) << preset;
    EXPECT_EQ(p.maxpool_per_output, p.pool_per_output) << preset;
    EXPECT_EQ(p.softmax_per_call, p.op_per_call) << preset;
    EXPECT_EQ(p.add_per_call, p.op_per_call) << preset;
    EXPECT_EQ(p.mul_per_call, p.op_per_call) << preset;
  }
}

TEST(CpuCostModel, MeanAndMaxPoolOnRv32) {
  const CpuCostModel m(publishedRv32());
  OpWork mean;
  mean.elements = 7 * 7 * 1280;  // a 7x7 spatial mean of 1280 channels
  mean.outputs = 1280;
  // 6 x 62720 + 5.3 x 1280 + 1000 = 376320 + 6784 + 1000
  EXPECT_EQ(m.cycles(Op::MEAN, mean), 384'104u);
  OpWork pool;
  pool.window_elements = 16 * 4;
  EXPECT_EQ(m.cycles(Op::MAX_POOL_2D, pool), 2453u);  // 22.7 x 64 + 1000 = 2452.8
}

TEST(CpuCostModel, QuantizeFromFloatHasItsOwnCoefficient) {
  CpuCoefficients c = publishedRv32();
  c.quantize_float_per_element = 260;
  const CpuCostModel m(c);
  OpWork w = elementsWork(640);
  EXPECT_EQ(m.cycles(Op::QUANTIZE, w), 4392u);  // 5.3 x 640 + 1000 = 4392
  w.float_input = true;
  EXPECT_EQ(m.cycles(Op::QUANTIZE, w), 167'400u);  // 260 x 640 + 1000
}

TEST(CpuCostModel, FloatFullyConnectedHasItsOwnCoefficients) {
  CpuCoefficients c = publishedRv32();
  c.fc_float_per_mac = 120;
  c.fc_float_per_output = 300;
  c.fc_float_per_call = 500;
  c.reduction_multiple = 16;  // pads int8 K only
  OpWork w;
  w.gemm_rows = 2;
  w.gemm_k = 10;
  w.gemm_n = 3;
  // int8: 13.2 x 2 x 16 x 3 + 100 x 6 + 4000 = 1267.2 + 600 + 4000
  EXPECT_EQ(CpuCostModel(c).cycles(Op::FULLY_CONNECTED, w), 5867u);
  w.float_input = true;
  // float32: 120 x 2 x 10 x 3 + 300 x 6 + 500 = 7200 + 1800 + 500
  EXPECT_EQ(CpuCostModel(c).cycles(Op::FULLY_CONNECTED, w), 9500u);
  c.weight_memory_factor = 2.5;  // the weights read per MAC
  EXPECT_EQ(CpuCostModel(c).cycles(Op::FULLY_CONNECTED, w), 20'300u);
}

TEST(CpuCostModel, FloatFullyConnectedPricesZeroOperandMacsApart) {
  CpuCoefficients c = publishedRv32();
  c.fc_float_per_mac = 120;
  c.fc_float_per_zero_mac = 40;
  c.fc_float_per_output = 300;
  c.fc_float_per_call = 500;
  OpWork w;
  w.gemm_rows = 2;
  w.gemm_k = 10;
  w.gemm_n = 3;
  w.float_input = true;
  w.zero_operand_macs = 15;
  // 120 x 45 + 40 x 15 + 300 x 6 + 500 = 5400 + 600 + 1800 + 500
  EXPECT_EQ(CpuCostModel(c).cycles(Op::FULLY_CONNECTED, w), 8300u);
  w.zero_operand_macs = 1000;  // never more than the MACs
  EXPECT_EQ(CpuCostModel(c).cycles(Op::FULLY_CONNECTED, w), 40u * 60 + 1800 + 500);
  w.float_input = false;  // int8 takes no shortcut
  w.zero_operand_macs = 15;
  EXPECT_EQ(CpuCostModel(c).cycles(Op::FULLY_CONNECTED, w),
            CpuCostModel(publishedRv32()).cycles(Op::FULLY_CONNECTED, w));
}

TEST(CpuCostModel, SvdfIsItsTwoProductsStateShiftFiltersAndUnits) {
  CpuCoefficients c = publishedRv32();
  c.svdf_per_feature_mac = 10;
  c.svdf_per_time_mac = 7;
  c.svdf_state_per_byte = 1.5;
  c.svdf_per_filter = 40;
  c.svdf_per_unit = 90;
  c.svdf_per_call = 600;
  // keyword_scrambled's first SVDF: batch 1, input 96, 64 units of rank 1, memory 8, int16 state.
  OpWork w;
  w.time_macs = 64 * 8;
  w.macs = 64 * 96 + w.time_macs;
  w.state_bytes = 64 * 8 * 2;
  w.filters = 64;
  w.outputs = 64;
  // 10 x 6144 + 7 x 512 + 1.5 x 1024 + 40 x 64 + 90 x 64 + 600
  //   = 61440 + 3584 + 1536 + 2560 + 5760 + 600
  EXPECT_EQ(CpuCostModel(c).cycles(Op::SVDF, w), 75'480u);
  c.weight_memory_factor = 0.5;  // scales both products: 61440 + 3584 -> 32512
  EXPECT_EQ(CpuCostModel(c).cycles(Op::SVDF, w), 42'968u);
}

TEST(CpuCostModel, UncalibratedPresetsPriceSvdfAndFloatLikeFullyConnected) {
  for (const KernelLibrary library : {KernelLibrary::kReference, KernelLibrary::kOptimized}) {
    const CpuCoefficients c = cpuPreset("cortex-m7", library);
    EXPECT_EQ(c.svdf_per_feature_mac, c.fc_per_mac);
    EXPECT_EQ(c.svdf_per_time_mac, c.fc_per_mac);
    EXPECT_EQ(c.svdf_per_filter, c.fc_per_output);
    EXPECT_EQ(c.svdf_per_unit, c.fc_per_output);
    EXPECT_EQ(c.svdf_per_call, c.fc_per_call);
  }
  // CMSIS-NN has no float32 FULLY_CONNECTED: both libraries price the reference kernel.
  EXPECT_EQ(cpuPreset("cortex-m7", KernelLibrary::kOptimized).fc_float_per_mac, 21.0);
  EXPECT_EQ(cpuPreset("cortex-m0plus", KernelLibrary::kOptimized).fc_float_per_mac,
            cpuPreset("cortex-m0plus", KernelLibrary::kReference).fc_float_per_mac);
}

// CONV_2D's terms, worked out by hand for a 3x3 SAME convolution (4x4x2 input, 3 filters,
// stride 1, padding 1): changing the formula or a term's count fails.
TEST(CpuCostModel, ConvolutionFormulaWithTheIm2colTerms) {
  ConvGeometry g;
  g.in_h = g.in_w = 4;
  g.in_c = 2;
  g.filter_h = g.filter_w = 3;
  g.pad_h = g.pad_w = 1;
  g.out_h = g.out_w = 4;
  g.out_c = 3;
  const OpWork w = convolutionWork(g, 2);
  // Per row (and column) of outputs the 3 taps inside a 4-wide input are 2, 3, 3, 2: 10, so
  // 10 x 10 = 100 taps inside per output channel, 300 over 3 filters, 600 MACs over 2 channels.
  EXPECT_EQ(w.outputs, 48u);
  EXPECT_EQ(w.window_elements, 300u);
  EXPECT_EQ(w.inside_macs, 600u);
  EXPECT_EQ(w.macs, 864u);            // 48 outputs x 9 taps x 2 channels: 264 in the padding
  EXPECT_EQ(w.pixel_taps, 144u);      // 16 output pixels x 9 taps
  EXPECT_EQ(w.patch_elements, 288u);  // x 2 channels
  EXPECT_FALSE(w.pointwise);

  CpuCoefficients c;
  c.conv1x1_per_mac = 1;
  c.conv_per_mac = 2;
  c.conv_per_tap = 3;
  c.conv_per_output = 10;
  c.conv_per_call = 500;
  c.conv_per_padded_mac = 1.5;
  c.conv_per_patch_element = 0.5;
  c.conv_per_pixel_tap = 4;
  const CpuCostModel m(c);
  // 2 x 600 + 3 x 300 + 10 x 48 + 500 + 1.5 x 264 + 0.5 x 288 + 4 x 144
  //   = 1200 + 900 + 480 + 500 + 396 + 144 + 576
  EXPECT_EQ(m.cycles(Op::CONV_2D, w), 4196u);

  // K = 18: a rest of 2 MACs per output (16 pixels x 3 filters x 2 = 96). Filter 1 starts at
  // byte 18, unaligned, and is read once per pair of pixels (8 pairs x 4 words); filter 2, left
  // over from the pair, starts at 36: aligned.
  EXPECT_EQ(w.tail_macs, 96u);
  EXPECT_EQ(w.unaligned_loads, 32u);
  CpuCoefficients t = c;
  t.conv_per_tail_mac = 3;
  t.conv_per_unaligned_load = 2;
  EXPECT_EQ(CpuCostModel(t).cycles(Op::CONV_2D, w), 4196u + 288u + 64u);
  // Five filters over 3 channels (K = 27, 6 words a row) and 3 x 5 = 15 pixels: filters 1, 2
  // and 3 (bytes 27, 54, 81) start unaligned, all in the pairs 0-1 and 2-3; filter 4, left over,
  // starts at 108. 7 pairs of pixels and the odd last one read each such row once:
  // 6 x (7 x 3 + 3) = 144.
  ConvGeometry o;
  o.in_h = 3;
  o.in_w = 5;
  o.in_c = 3;
  o.filter_h = o.filter_w = 3;
  o.pad_h = o.pad_w = 1;
  o.out_h = 3;
  o.out_w = 5;
  o.out_c = 5;
  const OpWork ow = convolutionWork(o, 3);
  EXPECT_EQ(ow.unaligned_loads, 144u);
  EXPECT_EQ(ow.tail_macs, 15u * 5u * 3u);

  // A 1x1 convolution has no patch to copy and no padding: the im2col terms take no part.
  ConvGeometry p = g;
  p.filter_h = p.filter_w = 1;
  p.pad_h = p.pad_w = 0;
  const OpWork pw = convolutionWork(p, 2);
  EXPECT_TRUE(pw.pointwise);
  // 1 x 96 inside MACs + 3 x 48 taps + 10 x 48 outputs + 500
  EXPECT_EQ(m.cycles(Op::CONV_2D, pw), 96u + 144u + 480u + 500u);
}

// DEPTHWISE_CONV_2D's terms, worked out by hand for a 3x3 SAME depthwise convolution (5x5x6
// input, stride 1, padding 1): changing the formula or a term's count fails.
TEST(CpuCostModel, DepthwiseFormulaWithTheOptimizedKernelsTerms) {
  ConvGeometry g;
  g.depthwise = true;
  g.in_h = g.in_w = 5;
  g.in_c = 6;
  g.filter_h = g.filter_w = 3;
  g.pad_h = g.pad_w = 1;
  g.out_h = g.out_w = 5;
  g.out_c = 6;
  const OpWork w = convolutionWork(g, 1);
  // Per row (and column) of outputs the taps inside a 5-wide input are 2, 3, 3, 3, 2: 13, so
  // 13 x 13 = 169 taps inside per channel.
  EXPECT_EQ(w.outputs, 150u);
  EXPECT_EQ(w.inside_macs, 1014u);      // 169 x 6 channels
  EXPECT_EQ(w.window_elements, 1350u);  // 150 outputs x 9 taps checked
  EXPECT_EQ(w.window_rows, 450u);       // 150 outputs x 3 rows
  EXPECT_EQ(w.scalar_macs, 338u);       // 6 mod 4 = 2 channels past the four-channel loop
  EXPECT_EQ(w.pixels, 25u);
  EXPECT_EQ(w.general_pixels, 16u);  // the 3 x 3 interior windows take the unrolled path
  // One four-channel group and two scalar channels per general pixel; the filter rows inside
  // the input over all 25 pixels are 5 x 13 = 65, less 3 for each of the 9 unrolled ones: 38.
  EXPECT_EQ(w.general_quads, 16u);
  EXPECT_EQ(w.general_quad_rows, 38u);
  EXPECT_EQ(w.general_scalar_channels, 32u);
  EXPECT_EQ(w.general_scalar_rows, 76u);
  EXPECT_EQ(w.quad_pixels, 25u);  // 6 channels: a four-channel group runs at every pixel

  CpuCoefficients c;
  c.dwconv_per_mac = 2;
  c.dwconv_per_tap = 1;
  c.dwconv_per_row = 3;
  c.dwconv_per_output = 10;
  c.dwconv_per_call = 400;
  c.dwconv_per_scalar_mac = 5;
  c.dwconv_per_pixel = 7;
  c.dwconv_per_general_pixel = 20;
  const CpuCostModel m(c);
  // 2 x 1014 + 1 x 1350 + 3 x 450 + 10 x 150 + 400 + 5 x 338 + 7 x 25 + 20 x 16
  //   = 2028 + 1350 + 1350 + 1500 + 400 + 1690 + 175 + 320
  EXPECT_EQ(m.cycles(Op::DEPTHWISE_CONV_2D, w), 8813u);

  // Depth multiplier 2 over 3 input channels: the same 6 outputs per pixel, every channel in
  // scalar code and no pixel on the unrolled path.
  ConvGeometry d = g;
  d.in_c = 3;
  d.depth_multiplier = 2;
  const OpWork dw = convolutionWork(d, 1);
  EXPECT_EQ(dw.inside_macs, 1014u);
  EXPECT_EQ(dw.scalar_macs, 1014u);
  EXPECT_EQ(dw.general_pixels, 25u);
  EXPECT_EQ(dw.general_quads, 0u);
  EXPECT_EQ(dw.general_quad_rows, 0u);
  EXPECT_EQ(dw.general_scalar_channels, 150u);  // 6 channels x 25 pixels
  EXPECT_EQ(dw.general_scalar_rows, 390u);      // 6 channels x 65 rows
  EXPECT_EQ(dw.quad_pixels, 0u);
  // 8813 + 5 x (1014 - 338) + 20 x (25 - 16)
  EXPECT_EQ(m.cycles(Op::DEPTHWISE_CONV_2D, dw), 8813u + 3380u + 180u);

  // The loops outside the unrolled path: 11 x 16 + 2 x 38 + 13 x 32 + 3 x 76 = 896.
  c.dwconv_per_quad = 11;
  c.dwconv_per_quad_row = 2;
  c.dwconv_per_scalar_channel = 13;
  c.dwconv_per_scalar_row = 3;
  EXPECT_EQ(CpuCostModel(c).cycles(Op::DEPTHWISE_CONV_2D, w), 8813u + 896u);

  // The four-channel path's code per pixel: 25 pixels x 40; none at depth multiplier 2.
  c.dwconv_per_quad_pixel = 40;
  EXPECT_EQ(CpuCostModel(c).cycles(Op::DEPTHWISE_CONV_2D, w), 8813u + 896u + 1000u);
  c.dwconv_per_quad = c.dwconv_per_quad_row = c.dwconv_per_scalar_channel = 0;
  c.dwconv_per_scalar_row = 0;
  EXPECT_EQ(CpuCostModel(c).cycles(Op::DEPTHWISE_CONV_2D, dw), 8813u + 3380u + 180u);
  // Three channels: all scalar.
  ConvGeometry three = g;
  three.in_c = three.out_c = 3;
  EXPECT_EQ(convolutionWork(three, 1).quad_pixels, 0u);
}

// The reference depthwise kernel's filter loads that miss the weights' data cache, worked out per
// cache set (8-byte lines, 32 lines in 8 sets of 4 ways, as cortex-m4f's ART data cache).
TEST(CpuCostModel, DepthwiseFilterMissesPerCacheSet) {
  const WeightCache art{8, 32, 4};
  // Misses over 10 pixels, `inside` of each one's taps inside the input.
  const auto misses = [&](uint32_t taps, uint32_t channels, double inside = 1.0) {
    OpWork w;
    w.filter_taps = taps;
    w.filter_channels = channels;
    w.inside_macs = uint64_t(10 * inside * taps * channels);
    return depthwiseFilterMisses(w, art);
  };
  // 64 channels: the taps are 8 lines apart, a channel's nine lines all in one set (channels 0-7
  // in set 0, 8-15 in set 1, ...); each walk overflows its set's 4 ways, so every load misses:
  // 9 x 64 per pixel. With half the taps inside, half the loads.
  EXPECT_EQ(misses(9, 64), 10u * 9 * 64);
  EXPECT_EQ(misses(9, 64, 0.5), 5u * 9 * 64);
  // 8 channels: the 9 taps' lines are consecutive, two in set 0 and one in each other set; the
  // whole filter (72 bytes, 9 lines) fits, so nothing misses.
  EXPECT_EQ(misses(9, 8), 0u);
  // 10 x 8 taps over 8 channels (micro_speech's layer): 80 lines, 10 per set, one channel's walk
  // overflows every set: all 80 x 8 loads of a pixel miss.
  EXPECT_EQ(misses(80, 8), 10u * 80 * 8);
  // 4 taps over 32 channels: one channel's 4 lines fall in sets 0 and 4, two each, within the
  // ways; the filter's 16 lines are 2 per set: it fits.
  EXPECT_EQ(misses(4, 32), 0u);
  // 5 x 5 taps over 32 channels: channel c's walk puts 13 lines in set c / 8 and 12 in set
  // c / 8 + 4, overflowing both: every load misses (25 x 32 per pixel).
  EXPECT_EQ(misses(25, 32), 10u * 25 * 32);
  // 6 taps over 24 channels: a walk's lines are 3 apart (0, 3, ..., 15 for channel 0), one or
  // two per set, within the ways; the filter's 18 lines put 3 in sets 0 and 1 and 2 in the
  // others, all within the ways: it fits.
  EXPECT_EQ(misses(6, 24), 0u);
  // 12 taps over 24 channels: the filter's 36 lines put 5 in sets 0-3 and 4 in sets 4-7; a
  // walk's 12 lines (3 apart) put 1-2 in each set, within the ways. So each line of sets 0-3
  // misses once per pixel (20) and nothing else.
  EXPECT_EQ(misses(12, 24), 10u * 20);

  // The optimized kernel at depth multiplier 1 (quad pixels) walks four channels at a time: 64
  // channels are 16 walks of the nine lines, a quarter of the reference kernel's misses; 66
  // channels leave two walked one at a time. Above depth multiplier 1 it walks each channel, as
  // the reference kernel does.
  const auto optimizedMisses = [&](uint32_t taps, uint32_t channels, bool quad) {
    OpWork w;
    w.filter_taps = taps;
    w.filter_channels = channels;
    w.inside_macs = uint64_t(10) * taps * channels;
    w.quad_pixels = quad ? 10 : 0;
    return depthwiseFilterMisses(w, art, KernelLibrary::kOptimized);
  };
  EXPECT_EQ(optimizedMisses(9, 64, true), 10u * 9 * 16);
  EXPECT_EQ(optimizedMisses(80, 8, false), misses(80, 8));
  // 65 channels: 16 four-channel walks and channel 64's own. Tap t of channel c is byte
  // 65t + c, line 8t + (t + c) / 8, in set (t + c) / 8 mod 8: a walk's nine lines fall in two
  // neighbouring sets, five or more in one, overflowing its 4 ways, so every load misses.
  EXPECT_EQ(optimizedMisses(9, 65, true), 10u * 9 * 17);

  // The formula's term; without a cache nothing is counted (the per-MAC terms price every load).
  OpWork w;
  w.filter_taps = 9;
  w.filter_channels = 64;
  w.inside_macs = 10 * 9 * 64;
  CpuCoefficients c;
  c.dwconv_per_filter_miss = 4;
  c.weight_cache = art;
  EXPECT_EQ(CpuCostModel(c).cycles(Op::DEPTHWISE_CONV_2D, w), 4u * 5760);
  c.weight_cache = WeightCache{};
  EXPECT_EQ(CpuCostModel(c).cycles(Op::DEPTHWISE_CONV_2D, w), 0u);
}

// The im2col and four-channel terms price the optimized library's kernels; the reference kernels
// skip the padding, copy no patch and treat every channel and pixel alike, so every preset's
// reference coefficients leave them at 0.
TEST(CpuCostModel, KernelStructureTermsBelongToTheOptimizedLibrary) {
  for (const char* preset :
       {"cortex-m0plus", "cortex-m4f", "cortex-m33", "rv32im", "cortex-m7", "stm32g0b1", "fe310"}) {
    const CpuCoefficients c = cpuPreset(preset, KernelLibrary::kReference);
    EXPECT_EQ(c.conv_per_padded_mac, 0.0) << preset;
    EXPECT_EQ(c.conv_per_patch_element, 0.0) << preset;
    EXPECT_EQ(c.conv_per_pixel_tap, 0.0) << preset;
    EXPECT_EQ(c.conv_per_tail_mac + c.conv_per_unaligned_load, 0.0) << preset;
    EXPECT_EQ(c.pool_per_row + c.maxpool_per_row, 0.0) << preset;
    EXPECT_EQ(c.dwconv_per_scalar_mac, 0.0) << preset;
    EXPECT_EQ(c.dwconv_per_pixel, 0.0) << preset;
    EXPECT_EQ(c.dwconv_per_general_pixel, 0.0) << preset;
    EXPECT_EQ(c.dwconv_per_quad + c.dwconv_per_quad_row, 0.0) << preset;
    EXPECT_EQ(c.dwconv_per_scalar_channel + c.dwconv_per_scalar_row, 0.0) << preset;
    EXPECT_EQ(c.dwconv_per_quad_pixel, 0.0) << preset;
    EXPECT_EQ(c.lstm_per_unaligned_load + c.lstm_per_tail_mac, 0.0) << preset;
  }
  for (const char* preset : {"cortex-m0plus", "cortex-m4f", "cortex-m33", "rv32im"}) {
    const CpuCoefficients c = cpuPreset(preset, KernelLibrary::kOptimized);
    EXPECT_GT(c.conv_per_patch_element + c.conv_per_pixel_tap, 0.0) << preset;
    // A channel left to scalar code costs more than its share of the four-channel loop.
    EXPECT_GT(c.dwconv_per_scalar_mac + c.dwconv_per_scalar_channel + c.dwconv_per_scalar_row, 0.0)
        << preset;
    EXPECT_EQ(c.kernels, KernelLibrary::kOptimized) << preset;
  }
  // Behind cortex-m4f's ART data cache the optimized kernel's filter loads miss too.
  EXPECT_GT(cpuPreset("cortex-m4f", KernelLibrary::kOptimized).dwconv_per_filter_miss, 0.0);
}

// The LSTM's own terms, worked out by hand: changing the formula or a term's regressor fails.
TEST(CpuCostModel, LstmFormula) {
  CpuCoefficients c;
  c.lstm_per_mac = 17.5;
  c.lstm_cell_per_element = 1000;
  c.lstm_per_step = 950;
  c.lstm_per_call = 1100;
  c.weight_memory_factor = 0.6;
  // The FULLY_CONNECTED and element-wise coefficients take no part.
  c.fc_per_mac = c.fc_per_output = c.fc_per_call = c.op_per_call = c.add_per_element = 1e6;
  const CpuCostModel m(c);
  // 49 steps, batch 1, 16 cells, input 257: gate MACs 49 x 4 x 16 x (257 + 16) = 856128.
  OpWork w;
  w.macs = 856'128;
  w.elements = 49 * 16;  // cell steps
  w.steps = 49;
  // 17.5 x 0.6 x 856128 + 1000 x 784 + 950 x 49 + 1100
  //   = 8989344 + 784000 + 46550 + 1100 = 9820994
  EXPECT_EQ(m.cycles(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, w), 9'820'994u);
  w.steps = 98;  // the same work batch-major over two batches of half the sequence
  EXPECT_EQ(m.cycles(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, w), 9'820'994u + 950u * 49u);

  // The recurrent product's MACs (49 x 4 x 16 x 16 = 50176 of the 856128) at a price of their
  // own, unaligned word loads and scalar tail MACs.
  c.lstm_per_recurrent_mac = 30;
  c.lstm_per_unaligned_load = 2.5;
  c.lstm_per_tail_mac = 12;
  w.steps = 49;
  w.recurrent_macs = 50'176;
  w.unaligned_loads = 1000;
  w.tail_macs = 300;
  // 17.5 x 0.6 x 805952 + 30 x 0.6 x 50176 + 2.5 x 1000 + 12 x 300 + 784000 + 46550 + 1100
  //   = 8462496 + 903168 + 2500 + 3600 + 784000 + 46550 + 1100 = 10203414
  EXPECT_EQ(CpuCostModel(c).cycles(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, w), 10'203'414u);
}

// lstmGateLoads against a walk over every word load of the optimized gate products: per gate and
// row-step, four cells per pass reading the input (hidden) row and four weight rows, then the
// tail cells one at a time; a row starts unaligned when its offset is not a multiple of 4.
TEST(CpuCostModel, LstmGateLoadsCountsUnalignedWordsAndTails) {
  const auto walk = [](uint32_t steps, uint32_t batches, uint32_t input, uint32_t cells) {
    uint64_t unaligned = 0;
    const auto product = [&](uint64_t row_offset, uint32_t k) {
      for (uint32_t c = 0; c < cells;) {
        const uint32_t width = c + 4 <= cells ? 4 : 1;
        uint64_t misaligned_rows = row_offset % 4 != 0;
        for (uint32_t j = 0; j < width; ++j) misaligned_rows += (uint64_t{c + j} * k) % 4 != 0;
        unaligned += misaligned_rows * (k / 4);
        c += width;
      }
    };
    for (uint32_t row = 0; row < steps * batches; ++row) {
      product(uint64_t{row} * input, input);            // the sequence's input rows
      product(uint64_t{row % batches} * cells, cells);  // the batch's hidden-state rows
    }
    return 4 * unaligned;
  };
  for (const auto& [t, b, in, cells] : std::vector<std::array<uint32_t, 4>>{{1, 1, 8, 8},
                                                                            {2, 1, 257, 80},
                                                                            {10, 3, 6, 6},
                                                                            {5, 2, 10, 10},
                                                                            {20, 1, 13, 7},
                                                                            {3, 4, 24, 12},
                                                                            {7, 5, 3, 9},
                                                                            {4, 3, 2, 5}}) {
    const LstmGateLoads g = lstmGateLoads(t, b, in, cells);
    EXPECT_EQ(g.unaligned_loads, walk(t, b, in, cells))
        << t << " " << b << " " << in << " " << cells;
    EXPECT_EQ(g.tail_macs, 4ull * t * b * cells * (in % 4 + cells % 4));
  }
  // micro_speech_lstm: 49 steps of 257 inputs, 80 cells. 60 of the 80 input weight rows start
  // unaligned (64 words each, every row-step), 36 of the 49 input rows (64 words, 20 passes of
  // four cells): 4 x (49 x 60 x 64 + 20 x 36 x 64) = 936960; tails 4 x 49 x 80 x 1 = 15680.
  const LstmGateLoads g = lstmGateLoads(49, 1, 257, 80);
  EXPECT_EQ(g.unaligned_loads, 936'960u);
  EXPECT_EQ(g.tail_macs, 15'680u);
}

// A preset without an LSTM of its own prices the gate products as its FULLY_CONNECTED and the
// cell's element-wise work relative to ADD (configs/README.md).
TEST(CpuCostModel, LstmWithoutCalibrationFollowsFullyConnected) {
  for (const char* preset : {"cortex-m7", "cortex-m55"}) {
    for (const KernelLibrary library : {KernelLibrary::kReference, KernelLibrary::kOptimized}) {
      const CpuCoefficients c = cpuPreset(preset, library);
      EXPECT_EQ(c.lstm_per_mac, c.fc_per_mac) << preset;
      EXPECT_EQ(c.lstm_per_recurrent_mac, c.fc_per_mac) << preset;
      EXPECT_EQ(c.lstm_per_unaligned_load + c.lstm_per_tail_mac, 0.0) << preset;
      EXPECT_DOUBLE_EQ(c.lstm_cell_per_element, 8 * c.fc_per_output + 12 * c.add_per_element)
          << preset;
      EXPECT_EQ(c.lstm_per_step, 0.0) << preset;
      EXPECT_EQ(c.lstm_per_call, c.fc_per_call) << preset;
    }
  }
  // cortex-m7 reference: 21 x 856128 + (8 x 130 + 12 x 96) x 784 + 3000
  //   = 17978688 + 1718528 + 3000 = 19700216
  OpWork w;
  w.macs = 856'128;
  w.elements = 49 * 16;
  w.steps = 49;
  EXPECT_EQ(CpuCostModel(cpuPreset("cortex-m7", KernelLibrary::kReference))
                .cycles(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, w),
            19'700'216u);
}

}  // namespace
}  // namespace hilsim::timing
