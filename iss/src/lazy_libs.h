#pragma once
// Functions of the lazily opened Unicorn library (src/lazy_libs.cpp) beyond its public API.
// Private to the library.

#include <cstdint>

namespace hilsim::iss {

// The address of the function `name` in the Unicorn library (opened on first use). Throws
// ConfigError when the library cannot be opened or has no such function.
void* unicornFunction(const char* name);

template <typename Function>
Function unicornFunction(const char* name) {
  return reinterpret_cast<Function>(unicornFunction(name));
}

// Whether src/unicorn_store_path.cpp skips Unicorn's page collections: under Unicorn 2.0, whose
// code it matches.
bool pageCollectionsSkipped();

// Guest stores whose page collection src/unicorn_store_path.cpp skipped on this thread.
uint64_t skippedPageCollections();

}  // namespace hilsim::iss
