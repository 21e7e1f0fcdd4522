#pragma once
// File helpers for the CLI. Every output is written to a temporary file beside the target and
// renamed into place, so a failed run never leaves a partial file.

#include <cstdint>
#include <string>
#include <vector>

namespace hilsim {

// Reads a whole file; throws InputError naming it.
std::vector<uint8_t> readFile(const std::string& path);
std::string readTextFile(const std::string& path);

// Writes `bytes` to `path` atomically; throws InputError naming it.
void writeFileAtomic(const std::string& path, const void* data, size_t size);
inline void writeFileAtomic(const std::string& path, const std::string& text) {
  writeFileAtomic(path, text.data(), text.size());
}
inline void writeFileAtomic(const std::string& path, const std::vector<uint8_t>& bytes) {
  writeFileAtomic(path, bytes.data(), bytes.size());
}

// Checks early that `path` can be created (its directory exists), so a long run does not fail at
// the end. Throws InputError.
void checkWritable(const std::string& path, const std::string& what);

}  // namespace hilsim
