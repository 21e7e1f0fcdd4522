#pragma once
// Dot products of the core's datapath, with runtime CPU dispatch: a portable path and AVX2 and
// AVX-512 (VNNI) paths chosen by cpuid. All paths compute the same exact int32 sums, and the
// bit-exactness tests run on each of them. selectDotPath forces one (the CLI does so for
// HILSIM_DATAPATH=portable|avx2|avx512).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hilsim::core {

enum class DotPath : uint8_t { kPortable, kAvx2, kAvx512 };

const char* dotPathName(DotPath path);
// The path called `name` ("portable", "avx2", "avx512"), or nothing for any other name.
std::optional<DotPath> dotPathByName(std::string_view name);
// Paths this CPU can run, portable first.
std::vector<DotPath> availableDotPaths();
// The path in use: the one last selected, else the fastest available.
DotPath activeDotPath();
// Forces a path. Throws std::invalid_argument if the CPU cannot run it.
void selectDotPath(DotPath path);

// out[f] = sum_d w[f * k + d] * (x[d] - x_zero_point) for f in [0, features): int8 weights and
// activations, exact int32 sums (wrapping like int32 arithmetic if they overflow).
void dotRows(const int8_t* w, const int8_t* x, int32_t x_zero_point, uint32_t k, uint32_t features,
             int32_t* out);

}  // namespace hilsim::core
