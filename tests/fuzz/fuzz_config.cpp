// libFuzzer target: see fuzz_entries.h.
#include "fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  hilsim::fuzz::fuzzConfig(data, size);
  return 0;
}
