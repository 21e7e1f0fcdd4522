#pragma once
// SHA-256 of a byte buffer as lowercase hex (FIPS 180-4), for identifying models in reports.

#include <cstddef>
#include <cstdint>
#include <string>

namespace hilsim {

std::string sha256Hex(const uint8_t* data, size_t size);

}  // namespace hilsim
