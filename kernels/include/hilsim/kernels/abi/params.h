#pragma once
// visit() of every parameter struct of the freestanding kernels: each lists all the struct's
// fields in declaration order (nested structs through their own visit), which fixes their wire
// layout (words.h). A struct is visited before any struct that contains it. Freestanding.

#include "hilsim/kernels/activation_params.h"
#include "hilsim/kernels/broadcast.h"
#include "hilsim/kernels/concatenation.h"
#include "hilsim/kernels/conv.h"
#include "hilsim/kernels/conv_quant.h"
#include "hilsim/kernels/conv_window.h"
#include "hilsim/kernels/depthwise_conv.h"
#include "hilsim/kernels/dequantize.h"
#include "hilsim/kernels/elementwise.h"
#include "hilsim/kernels/fully_connected.h"
#include "hilsim/kernels/hard_swish.h"
#include "hilsim/kernels/lstm.h"
#include "hilsim/kernels/pad.h"
#include "hilsim/kernels/pooling.h"
#include "hilsim/kernels/quantize.h"
#include "hilsim/kernels/reduce.h"
#include "hilsim/kernels/softmax.h"
#include "hilsim/kernels/strided_slice.h"
#include "hilsim/kernels/svdf.h"
#include "hilsim/kernels/transpose.h"

namespace hilsim::kernels::abi {

// Windows, convolutions, pooling.

template <class V>
constexpr void visit(V& v, WindowGeometry& g) {
  v(g.batches);
  v(g.in_h);
  v(g.in_w);
  v(g.in_c);
  v(g.filter_h);
  v(g.filter_w);
  v(g.out_h);
  v(g.out_w);
  v(g.out_c);
  v(g.stride_h);
  v(g.stride_w);
  v(g.dilation_h);
  v(g.dilation_w);
  v(g.pad_h);
  v(g.pad_w);
}

template <class V>
constexpr void visit(V& v, ChannelRequant& q) {
  v(q.input_offset);
  v(q.output_zero_point);
  v(q.act_min);
  v(q.act_max);
  v(q.bias);
  v(q.multipliers);
  v(q.shifts);
}

template <class V>
constexpr void visit(V& v, ConvParams& p) {
  visit(v, p.geo);
  visit(v, p.quant);
  v(p.filter_in_c);
  v(p.filters_per_group);
}

template <class V>
constexpr void visit(V& v, DepthwiseConvParams& p) {
  visit(v, p.geo);
  visit(v, p.quant);
  v(p.depth_multiplier);
}

template <class V>
constexpr void visit(V& v, PoolParams& p) {
  visit(v, p.geo);
  v(p.act_min);
  v(p.act_max);
  v(p.act_min_f);
  v(p.act_max_f);
}

// FULLY_CONNECTED.

template <class V>
constexpr void visit(V& v, FullyConnectedInt8Params& p) {
  v(p.rows);
  v(p.k);
  v(p.n);
  v(p.input_offset);
  v(p.output_offset);
  v(p.filter_offset);
  v(p.per_channel);
  v(p.act_min);
  v(p.act_max);
  v(p.multipliers);
  v(p.shifts);
}

template <class V>
constexpr void visit(V& v, FullyConnectedFloatParams& p) {
  v(p.rows);
  v(p.k);
  v(p.n);
  v(p.act_min);
  v(p.act_max);
}

// SOFTMAX, QUANTIZE, DEQUANTIZE, SVDF.

template <class V>
constexpr void visit(V& v, SoftmaxFloatParams& p) {
  v(p.rows);
  v(p.depth);
  v(p.beta);
}

template <class V>
constexpr void visit(V& v, SoftmaxInt16Params& p) {
  v(p.rows);
  v(p.depth);
  v(p.input_multiplier);
  v(p.input_left_shift);
}

template <class V>
constexpr void visit(V& v, SoftmaxInt8Params& p) {
  v(p.rows);
  v(p.depth);
  v(p.input_multiplier);
  v(p.input_left_shift);
  v(p.diff_min);
}

template <class V>
constexpr void visit(V& v, AffineQuantizeParams& p) {
  v(p.count);
  v(p.scale);
  v(p.zero_point);
}

template <class V>
constexpr void visit(V& v, RequantizeParams& p) {
  v(p.count);
  v(p.multiplier);
  v(p.shift);
  v(p.input_zero_point);
  v(p.output_zero_point);
}

template <class V>
constexpr void visit(V& v, DequantizeParams& p) {
  v(p.count);
  v(p.scale);
  v(p.zero_point);
}

template <class V>
constexpr void visit(V& v, SvdfParams& p) {
  v(p.batches);
  v(p.input_size);
  v(p.filters);
  v(p.units);
  v(p.rank);
  v(p.memory);
  v(p.input_zero_point);
  v(p.state_zero_point);
  v(p.output_zero_point);
  v(p.feature_multiplier);
  v(p.feature_shift);
  v(p.time_multiplier);
  v(p.time_shift);
}

// Element-wise kernels.

template <class V>
constexpr void visit(V& v, BroadcastLoops& loops) {
  v(loops.rank);
  v(loops.extent);
  v(loops.stride1);
  v(loops.stride2);
  v(loops.nest_shape1);
  v(loops.nest_shape2);
}

template <class V>
constexpr void visit(V& v, QuantizedAddParams& p) {
  v(p.input1_offset);
  v(p.input2_offset);
  v(p.left_shift);
  v(p.input1_multiplier);
  v(p.input1_shift);
  v(p.input2_multiplier);
  v(p.input2_shift);
  v(p.output_multiplier);
  v(p.output_shift);
  v(p.output_offset);
  v(p.act_min);
  v(p.act_max);
}

template <class V>
constexpr void visit(V& v, QuantizedMulParams& p) {
  v(p.input1_offset);
  v(p.input2_offset);
  v(p.output_multiplier);
  v(p.output_shift);
  v(p.output_offset);
  v(p.act_min);
  v(p.act_max);
}

template <class V>
constexpr void visit(V& v, FloatActivation& p) {
  v(p.act_min);
  v(p.act_max);
}

template <class V>
constexpr void visit(V& v, Int32Activation& p) {
  v(p.act_min);
  v(p.act_max);
}

template <class V>
constexpr void visit(V& v, HardSwishParams& p) {
  v(p.count);
  v(p.input_zero_point);
  v(p.output_zero_point);
  v(p.output_multiplier_fixedpoint_int16);
  v(p.output_multiplier_exponent);
  v(p.reluish_multiplier_fixedpoint_int16);
  v(p.reluish_multiplier_exponent);
}

template <class V>
constexpr void visit(V& v, Int8ActivationParams& p) {
  v(p.count);
  v(p.input_zero_point);
  v(p.input_range_radius);
  v(p.input_multiplier);
  v(p.input_left_shift);
}

template <class V>
constexpr void visit(V& v, Int16ActivationParams& p) {
  v(p.count);
  v(p.input_multiplier);
  v(p.input_right_shift);
}

// UNIDIRECTIONAL_SEQUENCE_LSTM.

template <class V>
constexpr void visit(V& v, LstmShape& s) {
  v(s.batches);
  v(s.time_steps);
  v(s.input_size);
  v(s.cells);
  v(s.time_major);
}

template <class V, class Bias>
constexpr void visit(V& v, LstmIntegerGate<Bias>& g) {
  v(g.input_weights);
  v(g.recurrent_weights);
  v(g.input_bias);
  v(g.recurrent_bias);
  v(g.input_multiplier);
  v(g.input_shift);
  v(g.recurrent_multiplier);
  v(g.recurrent_shift);
}

template <class V>
constexpr void visit(V& v, LstmIntegerCell& c) {
  v(c.cell_gate_activation);
  v(c.forget_times_cell_multiplier);
  v(c.forget_times_cell_shift);
  v(c.input_times_cell_gate_multiplier);
  v(c.input_times_cell_gate_shift);
  v(c.clip_cell);
  v(c.cell_clip);
  visit(v, c.cell_tanh);
  v(c.hidden_multiplier);
  v(c.hidden_shift);
  v(c.hidden_zero_point);
}

template <class V, class Bias>
constexpr void visit(V& v, LstmIntegerParams<Bias>& p) {
  visit(v, p.shape);
  visit(v, p.input_gate);
  visit(v, p.forget_gate);
  visit(v, p.cell_gate);
  visit(v, p.output_gate);
  visit(v, p.cell);
}

template <class V, class Activation>
constexpr void visit(V& v, LstmIntegerBuffers<Activation>& b) {
  v(b.input);
  v(b.output);
  v(b.hidden_state);
  v(b.cell_state);
  v(b.scratch);
}

template <class V>
constexpr void visit(V& v, LstmGateFloat& g) {
  v(g.input_weights);
  v(g.recurrent_weights);
  v(g.bias);
}

template <class V>
constexpr void visit(V& v, LstmFloatParams& p) {
  visit(v, p.shape);
  visit(v, p.input_gate);
  visit(v, p.forget_gate);
  visit(v, p.cell_gate);
  visit(v, p.output_gate);
  v(p.cell_gate_activation);
  v(p.cell_clip);
}

template <class V>
constexpr void visit(V& v, LstmFloatBuffers& b) {
  v(b.input);
  v(b.output);
  v(b.hidden_state);
  v(b.cell_state);
  v(b.scratch);
}

// Data movement and reductions.

template <class V>
constexpr void visit(V& v, ConcatenationParams& p) {
  v(p.inputs);
  v(p.outer_count);
  v(p.slab_bytes);
}

template <class V>
constexpr void visit(V& v, PadParams& p) {
  v(p.output_dims);
  v(p.left);
  v(p.right);
}

template <class V>
constexpr void visit(V& v, TransposeParams& p) {
  v(p.rank);
  v(p.output_dims);
  v(p.input_strides);
}

template <class V>
constexpr void visit(V& v, MeanParams& p) {
  v(p.rank);
  v(p.input_dims);
  v(p.output_strides);
  v(p.output_count);
  v(p.reduced_count);
  v(p.input_zero_point);
  v(p.output_zero_point);
  v(p.multiplier);
  v(p.shift);
}

template <class V>
constexpr void visit(V& v, StridedSliceParams& p) {
  v(p.input_dims);
  v(p.start);
  v(p.stop);
  v(p.stride);
}

}  // namespace hilsim::kernels::abi
