#include "hilsim/core/dot.h"

#include <immintrin.h>

#include <stdexcept>
#include <vector>

namespace hilsim::core {
namespace {

void dotPortable(const int8_t* w, const int8_t* x, int32_t zp, uint32_t k, uint32_t features,
                 int32_t* out) {
  for (uint32_t f = 0; f < features; ++f) {
    const int8_t* row = w + static_cast<uint64_t>(f) * k;
    uint32_t acc = 0;
    for (uint32_t d = 0; d < k; ++d)
      acc +=
          static_cast<uint32_t>(static_cast<int32_t>(row[d]) * (static_cast<int32_t>(x[d]) - zp));
    out[f] = static_cast<int32_t>(acc);
  }
}

// 16 products per step: weights sign-extended to int16 times the activations minus their zero
// point (int16), adjacent pairs added into 8 int32 lanes (exact: |w * (x - zp)| <= 128 * 255).
// Four rows share each activation load, and their four sums are reduced together.
__attribute__((target("avx2"))) inline __m256i madd16(const int8_t* w, __m256i xv, __m256i acc) {
  const __m256i wv = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w)));
  return _mm256_add_epi32(acc, _mm256_madd_epi16(wv, xv));
}

// The 8 lanes of v summed.
__attribute__((target("avx2"))) inline uint32_t sumLanes8(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
  return static_cast<uint32_t>(_mm_cvtsi128_si32(s));
}

__attribute__((target("avx2"))) void dotAvx2(const int8_t* w, const int8_t* x, int32_t zp,
                                             uint32_t k, uint32_t features, int32_t* out) {
  thread_local std::vector<int16_t> xs;
  xs.resize(k);
  for (uint32_t d = 0; d < k; ++d) xs[d] = static_cast<int16_t>(x[d] - zp);
  const int16_t* xp = xs.data();
  const uint32_t k16 = k & ~15u;
  uint32_t f = 0;
  for (; f + 4 <= features; f += 4) {
    const int8_t* r0 = w + static_cast<uint64_t>(f) * k;
    const int8_t* r1 = r0 + k;
    const int8_t* r2 = r1 + k;
    const int8_t* r3 = r2 + k;
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
    for (uint32_t d = 0; d < k16; d += 16) {
      const __m256i xv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xp + d));
      a0 = madd16(r0 + d, xv, a0);
      a1 = madd16(r1 + d, xv, a1);
      a2 = madd16(r2 + d, xv, a2);
      a3 = madd16(r3 + d, xv, a3);
    }
    // Lane sums of the four accumulators at once: out[f + i] = sum of a_i's lanes.
    const __m256i h01 = _mm256_hadd_epi32(a0, a1), h23 = _mm256_hadd_epi32(a2, a3);
    const __m256i h = _mm256_hadd_epi32(h01, h23);
    const __m128i s = _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    alignas(16) uint32_t sums[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(sums), s);
    const int8_t* rows[4] = {r0, r1, r2, r3};
    for (uint32_t i = 0; i < 4; ++i) {
      uint32_t total = sums[i];
      for (uint32_t d = k16; d < k; ++d)
        total += static_cast<uint32_t>(static_cast<int32_t>(rows[i][d]) * xp[d]);
      out[f + i] = static_cast<int32_t>(total);
    }
  }
  for (; f < features; ++f) {
    const int8_t* row = w + static_cast<uint64_t>(f) * k;
    __m256i acc = _mm256_setzero_si256();
    for (uint32_t d = 0; d < k16; d += 16)
      acc = madd16(row + d, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xp + d)), acc);
    uint32_t total = sumLanes8(acc);
    for (uint32_t d = k16; d < k; ++d)
      total += static_cast<uint32_t>(static_cast<int32_t>(row[d]) * xp[d]);
    out[f] = static_cast<int32_t>(total);
  }
}

#define HILSIM_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))

// Sum of the 16 int32 lanes.
HILSIM_AVX512 inline int32_t sumLanes(__m512i v) {
  const __m256i half = _mm256_add_epi32(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(half), _mm256_extracti128_si256(half, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
  return _mm_cvtsi128_si32(s);
}

// 64 products per instruction with VNNI's u8 x s8 multiply-add. The activations are made
// unsigned by adding 128, so sum w * (x - zp) = sum w * (x + 128) - (zp + 128) * sum w, with
// sum w from the same instruction against ones. Four rows share each activation load; the tail
// uses masked (zeroed) loads.
HILSIM_AVX512 void dotAvx512(const int8_t* w, const int8_t* x, int32_t zp, uint32_t k,
                             uint32_t features, int32_t* out) {
  const uint32_t k64 = k & ~63u;
  const __mmask64 tail = k64 < k ? (~uint64_t{0} >> (64 - (k - k64))) : 0;
  const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
  const __m512i ones = _mm512_set1_epi8(1);
  const uint32_t offset = static_cast<uint32_t>(zp + 128);
  uint32_t f = 0;
  for (; f < features; ++f) {
    const int8_t* r0 = w + static_cast<uint64_t>(f) * k;
    __m512i acc = _mm512_setzero_si512(), sum = _mm512_setzero_si512();
    for (uint32_t d = 0; d < k64; d += 64) {
      const __m512i xv = _mm512_xor_si512(_mm512_loadu_si512(x + d), flip);
      const __m512i wv = _mm512_loadu_si512(r0 + d);
      acc = _mm512_dpbusd_epi32(acc, xv, wv);
      sum = _mm512_dpbusd_epi32(sum, ones, wv);
    }
    if (tail) {
      // Masked-off lanes load as zero weights, which add nothing to either sum.
      const __m512i xv = _mm512_xor_si512(_mm512_maskz_loadu_epi8(tail, x + k64), flip);
      const __m512i wv = _mm512_maskz_loadu_epi8(tail, r0 + k64);
      acc = _mm512_dpbusd_epi32(acc, xv, wv);
      sum = _mm512_dpbusd_epi32(sum, ones, wv);
    }
    out[f] = static_cast<int32_t>(static_cast<uint32_t>(sumLanes(acc)) -
                                  offset * static_cast<uint32_t>(sumLanes(sum)));
  }
}

bool supported(DotPath path) {
  switch (path) {
    case DotPath::kPortable:
      return true;
    case DotPath::kAvx2:
      return __builtin_cpu_supports("avx2");
    case DotPath::kAvx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
  }
  return false;
}

DotPath initialPath() {
  return availableDotPaths().back();
}

DotPath& active() {
  static DotPath path = initialPath();
  return path;
}

}  // namespace

const char* dotPathName(DotPath path) {
  switch (path) {
    case DotPath::kPortable:
      return "portable";
    case DotPath::kAvx2:
      return "avx2";
    case DotPath::kAvx512:
      return "avx512";
  }
  return "?";
}

std::optional<DotPath> dotPathByName(std::string_view name) {
  for (DotPath p : {DotPath::kPortable, DotPath::kAvx2, DotPath::kAvx512})
    if (name == dotPathName(p)) return p;
  return std::nullopt;
}

std::vector<DotPath> availableDotPaths() {
  std::vector<DotPath> paths;
  for (DotPath p : {DotPath::kPortable, DotPath::kAvx2, DotPath::kAvx512})
    if (supported(p)) paths.push_back(p);
  return paths;
}

DotPath activeDotPath() {
  return active();
}

void selectDotPath(DotPath path) {
  if (!supported(path))
    throw std::invalid_argument(std::string("this CPU cannot run the ") + dotPathName(path) +
                                " datapath");
  active() = path;
}

void dotRows(const int8_t* w, const int8_t* x, int32_t x_zero_point, uint32_t k, uint32_t features,
             int32_t* out) {
  switch (active()) {
    case DotPath::kAvx512:
      return dotAvx512(w, x, x_zero_point, k, features, out);
    case DotPath::kAvx2:
      return dotAvx2(w, x, x_zero_point, k, features, out);
    case DotPath::kPortable:
      return dotPortable(w, x, x_zero_point, k, features, out);
  }
}

}  // namespace hilsim::core
