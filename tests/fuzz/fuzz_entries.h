#pragma once
// What each fuzz target does with one input. Shared by the libFuzzer targets and the regression
// test that replays every input in regressions/: anything but a hilsim::Error escaping, a crash
// or a sanitizer report is a bug.

#include <cstddef>
#include <cstdint>

namespace hilsim::fuzz {

// Loads bytes as a model, prepares it, and runs it once when it is small.
void fuzzModel(const uint8_t* data, size_t size);
// Decodes bytes as a chunk plan (and as a plan set) and validates it.
void fuzzPlan(const uint8_t* data, size_t size);
// Loads bytes as a hardware config.
void fuzzConfig(const uint8_t* data, size_t size);

}  // namespace hilsim::fuzz
