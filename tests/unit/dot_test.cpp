// Every dot-product path the CPU can run gives the exact int32 sums, on random data, extremes and
// every tail length.

#include <gtest/gtest.h>

#include <random>

#include "hilsim/core/dot.h"

namespace hilsim::core {
namespace {

std::vector<int32_t> exact(const std::vector<int8_t>& w, const std::vector<int8_t>& x, int32_t zp,
                           uint32_t k, uint32_t features) {
  std::vector<int32_t> out(features);
  for (uint32_t f = 0; f < features; ++f) {
    int64_t acc = 0;
    for (uint32_t d = 0; d < k; ++d) acc += int64_t{w[f * k + d]} * (int64_t{x[d]} - zp);
    out[f] = static_cast<int32_t>(acc);
  }
  return out;
}

TEST(Dot, EveryAvailablePathIsExact) {
  const DotPath saved = activeDotPath();
  std::mt19937 rng(5);
  for (DotPath path : availableDotPaths()) {
    selectDotPath(path);
    for (uint32_t k : {1u, 7u, 15u, 16u, 17u, 31u, 32u, 33u, 64u, 100u, 1024u, 4000u}) {
      for (uint32_t features : {1u, 3u, 4u, 5u, 9u}) {
        std::vector<int8_t> w(size_t{k} * features), x(k);
        for (int8_t& v : w) v = static_cast<int8_t>(rng() % 256 - 128);
        for (int8_t& v : x) v = static_cast<int8_t>(rng() % 256 - 128);
        std::vector<int32_t> got(features);
        for (int32_t zp : {0, -128, 127, 17}) {
          dotRows(w.data(), x.data(), zp, k, features, got.data());
          EXPECT_EQ(got, exact(w, x, zp, k, features))
              << dotPathName(path) << " k=" << k << " zp=" << zp;
        }
        // The extremes: w = -128, x - zp = -255 everywhere.
        std::fill(w.begin(), w.end(), -128);
        std::fill(x.begin(), x.end(), -128);
        dotRows(w.data(), x.data(), 127, k, features, got.data());
        EXPECT_EQ(got, exact(w, x, 127, k, features)) << dotPathName(path) << " extremes k=" << k;
      }
    }
  }
  selectDotPath(saved);
  EXPECT_EQ(availableDotPaths().front(), DotPath::kPortable);
}

}  // namespace
}  // namespace hilsim::core
