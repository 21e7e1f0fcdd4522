#pragma once
// Reading flatbuffer vectors of 8-byte scalars. The flatbuffers 2.0.8 verifier checks only that a
// vector's length field is 4-byte aligned, so a corrupt (but verified) buffer can hold a [long]
// vector at an address that is not 8-byte aligned: copy the bytes instead of dereferencing.

#include <flatbuffers/flatbuffers.h>

#include <cstring>
#include <vector>

namespace hilsim::schema {

template <typename T>
std::vector<T> copyScalars(const flatbuffers::Vector<T>* v) {
  static_assert(std::is_arithmetic_v<T>, "scalars only");
  static_assert(FLATBUFFERS_LITTLEENDIAN, "flatbuffers store scalars little-endian");
  std::vector<T> out;
  if (!v) return out;
  out.resize(v->size());
  if (!out.empty()) std::memcpy(out.data(), v->Data(), out.size() * sizeof(T));
  return out;
}

}  // namespace hilsim::schema
