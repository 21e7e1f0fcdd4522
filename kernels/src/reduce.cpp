#include "hilsim/kernels/reduce.h"

#include <algorithm>
#include <limits>

#include "hilsim/kernels/quant_math.h"

namespace hilsim::kernels {
namespace {

// Adds every input element to its output's accumulator with `add(accumulator, value)`: an
// odometer over the input's outer dimensions keeps the output offset, the innermost dimension
// is a run with a fixed output stride.
template <typename In, typename Acc, typename Add>
void accumulate(const MeanParams& p, const In* input, Acc* acc, Add add) {
  const int32_t last = p.rank - 1;
  const int32_t inner = p.input_dims[last];
  const int32_t inner_stride = p.output_strides[last];
  int32_t index[kMeanMaxDims] = {};
  int32_t offset = 0;
  for (;;) {
    Acc* target = acc + offset;
    for (int32_t i = 0; i < inner; ++i) {
      *target = add(*target, *input++);
      target += inner_stride;
    }
    int32_t d = last - 1;
    for (; d >= 0; --d) {
      offset += p.output_strides[d];
      if (++index[d] < p.input_dims[d]) break;
      offset -= p.input_dims[d] * p.output_strides[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

template <typename T>
void meanInteger(const MeanParams& p, const T* input, int32_t* sums, T* output) {
  std::fill(sums, sums + p.output_count, 0);
  accumulate(p, input, sums, [](int32_t sum, T value) { return wrapAdd(sum, value); });
  constexpr int32_t kMin = std::numeric_limits<T>::min();
  constexpr int32_t kMax = std::numeric_limits<T>::max();
  const int64_t zero_point_total = int64_t{p.input_zero_point} * p.reduced_count;
  for (int32_t o = 0; o < p.output_count; ++o) {
    const int32_t shifted_sum = static_cast<int32_t>(
        static_cast<uint32_t>(static_cast<uint64_t>(int64_t{sums[o]} - zero_point_total)));
    const int32_t value = wrapAdd(multiplyByQuantizedMultiplier(shifted_sum, p.multiplier, p.shift),
                                  p.output_zero_point);
    output[o] = static_cast<T>(std::clamp(value, kMin, kMax));
  }
}

int32_t floorLog2(uint32_t x) {
  int32_t log = -1;
  while (x != 0) {
    x >>= 1;
    ++log;
  }
  return log;
}

}  // namespace

void foldReductionCount(int32_t count, int32_t* multiplier, int32_t* shift) {
  int32_t s = floorLog2(static_cast<uint32_t>(count));
  s = std::min<int32_t>(s, 32);
  s = std::min<int32_t>(s, 31 + *shift);
  *multiplier = static_cast<int32_t>((int64_t{*multiplier} << s) / count);
  *shift -= s;
}

void meanInt8(const MeanParams& p, const int8_t* input, int32_t* sums, int8_t* output) {
  meanInteger(p, input, sums, output);
}

void meanInt16(const MeanParams& p, const int16_t* input, int32_t* sums, int16_t* output) {
  meanInteger(p, input, sums, output);
}

void meanFloat32(const MeanParams& p, const float* input, float* output) {
  std::fill(output, output + p.output_count, 0.0f);
  accumulate(p, input, output, [](float sum, float value) { return sum + value; });
  const float count = static_cast<float>(p.reduced_count);
  for (int32_t o = 0; o < p.output_count; ++o) output[o] = output[o] / count;
}

}  // namespace hilsim::kernels
