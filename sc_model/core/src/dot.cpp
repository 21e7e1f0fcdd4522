#include "hilsim/core/dot.h"

#include <immintrin.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace hilsim::core {
namespace {

void dotPortable(const int8_t* w, const int16_t* x, uint32_t k, uint32_t features, int32_t* out) {
  for (uint32_t f = 0; f < features; ++f) {
    const int8_t* row = w + static_cast<uint64_t>(f) * k;
    int32_t acc = 0;
    for (uint32_t d = 0; d < k; ++d) acc += static_cast<int32_t>(row[d]) * x[d];
    out[f] = acc;
  }
}

// 16 products per step: sign-extend 16 weights to int16, multiply pairwise with the int16
// activations and add adjacent pairs into 8 int32 lanes (exact: |w * x| <= 128 * 255).
__attribute__((target("avx2"))) void dotAvx2(const int8_t* w, const int16_t* x, uint32_t k,
                                              uint32_t features, int32_t* out) {
  const uint32_t k16 = k & ~15u;
  for (uint32_t f = 0; f < features; ++f) {
    const int8_t* row = w + static_cast<uint64_t>(f) * k;
    __m256i acc = _mm256_setzero_si256();
    for (uint32_t d = 0; d < k16; d += 16) {
      const __m256i wv = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row + d)));
      const __m256i xv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + d));
      acc = _mm256_add_epi32(acc, _mm256_madd_epi16(wv, xv));
    }
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    int32_t total = _mm_cvtsi128_si32(s);
    for (uint32_t d = k16; d < k; ++d) total += static_cast<int32_t>(row[d]) * x[d];
    out[f] = total;
  }
}

#define HILSIM_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))

// 32 weights sign-extended to int16 (all of them, or the lanes of `mask`).
HILSIM_AVX512 inline __m512i loadWeights(const int8_t* p) {
  return _mm512_cvtepi8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}
HILSIM_AVX512 inline __m512i loadWeights(const int8_t* p, __mmask32 mask) {
  return _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(mask, p));
}

// Sum of the 16 int32 lanes.
HILSIM_AVX512 inline int32_t sumLanes(__m512i v) {
  const __m256i half = _mm256_add_epi32(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(half), _mm256_extracti128_si256(half, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
  return _mm_cvtsi128_si32(s);
}

// 32 products per step with VNNI's fused multiply-add of int16 pairs; four rows share each load
// of the activations; the tail uses masked loads.
HILSIM_AVX512 void dotAvx512(const int8_t* w, const int16_t* x, uint32_t k, uint32_t features,
                             int32_t* out) {
  const uint32_t k32 = k & ~31u;
  const __mmask32 tail = static_cast<__mmask32>((uint64_t{1} << (k - k32)) - 1);
  uint32_t f = 0;
  for (; f + 4 <= features; f += 4) {
    const int8_t* r0 = w + static_cast<uint64_t>(f) * k;
    const int8_t* r1 = r0 + k;
    const int8_t* r2 = r1 + k;
    const int8_t* r3 = r2 + k;
    __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
    for (uint32_t d = 0; d < k32; d += 32) {
      const __m512i xv = _mm512_loadu_si512(x + d);
      a0 = _mm512_dpwssd_epi32(a0, loadWeights(r0 + d), xv);
      a1 = _mm512_dpwssd_epi32(a1, loadWeights(r1 + d), xv);
      a2 = _mm512_dpwssd_epi32(a2, loadWeights(r2 + d), xv);
      a3 = _mm512_dpwssd_epi32(a3, loadWeights(r3 + d), xv);
    }
    if (k32 < k) {
      const __m512i xv = _mm512_maskz_loadu_epi16(tail, x + k32);
      a0 = _mm512_dpwssd_epi32(a0, loadWeights(r0 + k32, tail), xv);
      a1 = _mm512_dpwssd_epi32(a1, loadWeights(r1 + k32, tail), xv);
      a2 = _mm512_dpwssd_epi32(a2, loadWeights(r2 + k32, tail), xv);
      a3 = _mm512_dpwssd_epi32(a3, loadWeights(r3 + k32, tail), xv);
    }
    out[f] = sumLanes(a0);
    out[f + 1] = sumLanes(a1);
    out[f + 2] = sumLanes(a2);
    out[f + 3] = sumLanes(a3);
  }
  for (; f < features; ++f) {
    const int8_t* r0 = w + static_cast<uint64_t>(f) * k;
    __m512i a0 = _mm512_setzero_si512();
    for (uint32_t d = 0; d < k32; d += 32)
      a0 = _mm512_dpwssd_epi32(a0, loadWeights(r0 + d), _mm512_loadu_si512(x + d));
    if (k32 < k)
      a0 = _mm512_dpwssd_epi32(a0, loadWeights(r0 + k32, tail), _mm512_maskz_loadu_epi16(tail, x + k32));
    out[f] = sumLanes(a0);
  }
}

bool supported(DotPath path) {
  switch (path) {
    case DotPath::kPortable: return true;
    case DotPath::kAvx2: return __builtin_cpu_supports("avx2");
    case DotPath::kAvx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
  }
  return false;
}

DotPath initialPath() {
  if (const char* forced = std::getenv("HILSIM_DATAPATH")) {
    for (DotPath p : {DotPath::kPortable, DotPath::kAvx2, DotPath::kAvx512})
      if (std::strcmp(forced, dotPathName(p)) == 0 && supported(p)) return p;
  }
  const std::vector<DotPath> paths = availableDotPaths();
  return paths.back();
}

DotPath& active() {
  static DotPath path = initialPath();
  return path;
}

}  // namespace

const char* dotPathName(DotPath path) {
  switch (path) {
    case DotPath::kPortable: return "portable";
    case DotPath::kAvx2: return "avx2";
    case DotPath::kAvx512: return "avx512";
  }
  return "?";
}

std::vector<DotPath> availableDotPaths() {
  std::vector<DotPath> paths;
  for (DotPath p : {DotPath::kPortable, DotPath::kAvx2, DotPath::kAvx512})
    if (supported(p)) paths.push_back(p);
  return paths;
}

DotPath activeDotPath() { return active(); }

void selectDotPath(DotPath path) {
  if (!supported(path))
    throw std::invalid_argument(std::string("this CPU cannot run the ") + dotPathName(path) +
                                " datapath");
  active() = path;
}

void dotRows(const int8_t* w, const int16_t* x, uint32_t k, uint32_t features, int32_t* out) {
  switch (active()) {
    case DotPath::kAvx512: return dotAvx512(w, x, k, features, out);
    case DotPath::kAvx2: return dotAvx2(w, x, k, features, out);
    case DotPath::kPortable: return dotPortable(w, x, k, features, out);
  }
}

}  // namespace hilsim::core
