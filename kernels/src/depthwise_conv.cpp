#include "hilsim/kernels/depthwise_conv.h"

#include <algorithm>

namespace hilsim::kernels {

// TFLite Micro's DepthwiseConvPerChannel loop nest and per-element work: one output value at a
// time; every filter tap is checked against all four edges of the input, and a tap inside it
// reads its input and filter values at offsets computed from the tensors' shapes; the sum is
// requantized by an out-of-line call and stored at the output's computed offset. The sum wraps
// modulo 2^32 like TFLite Micro's int32 accumulator.
void depthwiseConvInt8(const DepthwiseConvParams& p, const int8_t* input, const int8_t* filter,
                       int8_t* output) {
  const WindowGeometry& g = p.geo;
  const int32_t stride_width = g.stride_w;
  const int32_t stride_height = g.stride_h;
  const int32_t dilation_width = g.dilation_w;
  const int32_t dilation_height = g.dilation_h;
  const int32_t pad_width = g.pad_w;
  const int32_t pad_height = g.pad_h;
  const int32_t depth_multiplier = p.depth_multiplier;
  const int32_t input_offset = p.quant.input_offset;
  const int32_t output_offset = p.quant.output_zero_point;
  const int32_t act_min = p.quant.act_min;
  const int32_t act_max = p.quant.act_max;
  const int32_t* bias = p.quant.bias;
  const int32_t* multipliers = p.quant.multipliers;
  const int32_t* shifts = p.quant.shifts;

  const Shape4 input_shape{{g.batches, g.in_h, g.in_w, g.in_c}};
  const Shape4 filter_shape{{1, g.filter_h, g.filter_w, g.out_c}};
  const Shape4 output_shape{{g.batches, g.out_h, g.out_w, g.out_c}};
  const int32_t batches = g.batches;
  const int32_t input_height = g.in_h, input_width = g.in_w, input_depth = g.in_c;
  const int32_t filter_height = g.filter_h, filter_width = g.filter_w;
  const int32_t output_height = g.out_h, output_width = g.out_w;

  for (int32_t batch = 0; batch < batches; ++batch) {
    for (int32_t out_y = 0; out_y < output_height; ++out_y) {
      for (int32_t out_x = 0; out_x < output_width; ++out_x) {
        for (int32_t in_channel = 0; in_channel < input_depth; ++in_channel) {
          for (int32_t m = 0; m < depth_multiplier; ++m) {
            const int32_t output_channel = m + in_channel * depth_multiplier;
            const int32_t in_x_origin = out_x * stride_width - pad_width;
            const int32_t in_y_origin = out_y * stride_height - pad_height;
            uint32_t acc = 0;
            for (int32_t filter_y = 0; filter_y < filter_height; ++filter_y) {
              for (int32_t filter_x = 0; filter_x < filter_width; ++filter_x) {
                const int32_t in_x = in_x_origin + dilation_width * filter_x;
                const int32_t in_y = in_y_origin + dilation_height * filter_y;
                const bool inside =
                    in_x >= 0 && in_x < input_width && in_y >= 0 && in_y < input_height;
                if (inside) {
                  const int32_t input_val =
                      input[offset4(input_shape, batch, in_y, in_x, in_channel)];
                  const int32_t filter_val =
                      filter[offset4(filter_shape, 0, filter_y, filter_x, output_channel)];
                  acc += static_cast<uint32_t>(filter_val * (input_val + input_offset));
                }
              }
            }
            if (bias) acc += static_cast<uint32_t>(bias[output_channel]);
            int32_t value = multiplyByQuantizedMultiplierCall(
                static_cast<int32_t>(acc), multipliers[output_channel], shifts[output_channel]);
            value = wrapAdd(value, output_offset);
            value = std::max(value, act_min);
            value = std::min(value, act_max);
            output[offset4(output_shape, batch, out_y, out_x, output_channel)] =
                static_cast<int8_t>(value);
          }
        }
      }
    }
  }
}

}  // namespace hilsim::kernels
