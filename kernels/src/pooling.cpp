#include "hilsim/kernels/pooling.h"

#include <algorithm>
#include <cstddef>
#include <limits>

namespace hilsim::kernels {
namespace {

// The taps of a window along one dimension: [begin, end) of the filter.
struct TapRange {
  int32_t begin;
  int32_t end;
};

inline TapRange tapRange(int32_t origin, int32_t filter, int32_t in_size) {
  return {std::max<int32_t>(0, -origin), std::min<int32_t>(filter, in_size - origin)};
}

// TFLite Micro's reference MaxPool (int8, int16 and float alike): per output element, channel
// innermost, the window clamped to the input, every tap read through Offset() and the output
// written through Offset().
template <typename T, typename Clamp>
void maxPool(const PoolParams& p, const T* input, T* output, Clamp clamp) {
  const WindowGeometry& g = p.geo;
  const Shape4 input_shape{{g.batches, g.in_h, g.in_w, g.in_c}};
  const Shape4 output_shape{{g.batches, g.out_h, g.out_w, g.in_c}};
  const int32_t batches = g.batches, depth = g.in_c;
  const int32_t input_height = g.in_h, input_width = g.in_w;
  const int32_t output_height = g.out_h, output_width = g.out_w;
  for (int32_t batch = 0; batch < batches; ++batch) {
    for (int32_t out_y = 0; out_y < output_height; ++out_y) {
      for (int32_t out_x = 0; out_x < output_width; ++out_x) {
        for (int32_t channel = 0; channel < depth; ++channel) {
          const int32_t in_x_origin = out_x * g.stride_w - g.pad_w;
          const int32_t in_y_origin = out_y * g.stride_h - g.pad_h;
          const TapRange cols = tapRange(in_x_origin, g.filter_w, input_width);
          const TapRange rows = tapRange(in_y_origin, g.filter_h, input_height);
          T max = std::numeric_limits<T>::lowest();
          for (int32_t filter_y = rows.begin; filter_y < rows.end; ++filter_y) {
            for (int32_t filter_x = cols.begin; filter_x < cols.end; ++filter_x) {
              const int32_t in_x = in_x_origin + filter_x;
              const int32_t in_y = in_y_origin + filter_y;
              max = std::max(max, input[offset4(input_shape, batch, in_y, in_x, channel)]);
            }
          }
          output[offset4(output_shape, batch, out_y, out_x, channel)] = clamp(max);
        }
      }
    }
  }
}

// TFLite Micro's reference int8 and int16 AveragePool, in its loop order: the raw taps summed in
// int32 (inputs and outputs share their quantization, so no zero point is removed), divided by
// the number of taps inside the input, rounded half away from zero.
template <typename T>
void averagePool(const PoolParams& p, const T* input, T* output) {
  const WindowGeometry& g = p.geo;
  const Shape4 input_shape{{g.batches, g.in_h, g.in_w, g.in_c}};
  const Shape4 output_shape{{g.batches, g.out_h, g.out_w, g.in_c}};
  const int32_t batches = g.batches, depth = g.in_c;
  const int32_t input_height = g.in_h, input_width = g.in_w;
  const int32_t output_height = g.out_h, output_width = g.out_w;
  for (int32_t batch = 0; batch < batches; ++batch) {
    for (int32_t out_y = 0; out_y < output_height; ++out_y) {
      for (int32_t out_x = 0; out_x < output_width; ++out_x) {
        for (int32_t channel = 0; channel < depth; ++channel) {
          const int32_t in_x_origin = out_x * g.stride_w - g.pad_w;
          const int32_t in_y_origin = out_y * g.stride_h - g.pad_h;
          const TapRange cols = tapRange(in_x_origin, g.filter_w, input_width);
          const TapRange rows = tapRange(in_y_origin, g.filter_h, input_height);
          int32_t acc = 0;
          int32_t filter_count = 0;
          for (int32_t filter_y = rows.begin; filter_y < rows.end; ++filter_y) {
            for (int32_t filter_x = cols.begin; filter_x < cols.end; ++filter_x) {
              const int32_t in_x = in_x_origin + filter_x;
              const int32_t in_y = in_y_origin + filter_y;
              acc += input[offset4(input_shape, batch, in_y, in_x, channel)];
              ++filter_count;
            }
          }
          // poolWindowsCoverInput holds, so filter_count > 0.
          acc = roundedAverage(acc, filter_count);
          acc = std::max(acc, p.act_min);
          acc = std::min(acc, p.act_max);
          output[offset4(output_shape, batch, out_y, out_x, channel)] = static_cast<T>(acc);
        }
      }
    }
  }
}

}  // namespace

bool poolWindowsCoverInput(const WindowGeometry& g) {
  for (int32_t out_y = 0; out_y < g.out_h; ++out_y) {
    const TapRange rows = tapRange(out_y * g.stride_h - g.pad_h, g.filter_h, g.in_h);
    if (rows.end <= rows.begin) return false;
  }
  for (int32_t out_x = 0; out_x < g.out_w; ++out_x) {
    const TapRange cols = tapRange(out_x * g.stride_w - g.pad_w, g.filter_w, g.in_w);
    if (cols.end <= cols.begin) return false;
  }
  return true;
}

void averagePoolInt8(const PoolParams& p, const int8_t* input, int32_t* /*acc*/, int8_t* output) {
  averagePool(p, input, output);
}

void averagePoolInt16(const PoolParams& p, const int16_t* input, int32_t* /*acc*/,
                      int16_t* output) {
  averagePool(p, input, output);
}

void maxPoolInt8(const PoolParams& p, const int8_t* input, int8_t* output) {
  const int8_t lo = static_cast<int8_t>(p.act_min);
  const int8_t hi = static_cast<int8_t>(p.act_max);
  maxPool(p, input, output, [lo, hi](int8_t v) { return std::min(std::max(v, lo), hi); });
}

void maxPoolInt16(const PoolParams& p, const int16_t* input, int16_t* output) {
  const int16_t lo = static_cast<int16_t>(p.act_min);
  const int16_t hi = static_cast<int16_t>(p.act_max);
  maxPool(p, input, output, [lo, hi](int16_t v) { return std::min(std::max(v, lo), hi); });
}

void maxPoolFloat32(const PoolParams& p, const float* input, float* output) {
  const float lo = p.act_min_f;
  const float hi = p.act_max_f;
  maxPool(p, input, output, [lo, hi](float v) { return std::min(std::max(v, lo), hi); });
}

}  // namespace hilsim::kernels
