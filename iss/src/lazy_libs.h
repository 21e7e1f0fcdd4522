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

}  // namespace hilsim::iss
