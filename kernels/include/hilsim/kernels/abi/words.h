#pragma once
// The wire format of a kernel call, the same on the host and on the firmware: the fields of a
// Call in the order its visit() lists them, each as 32-bit words:
//   integers of up to 32 bits, enums, bools: one word (signed values sign-extended, bools 0/1);
//   64-bit integers: two words, low word first;
//   float: one word, its IEEE-754 bit pattern;
//   pointers: one word, the target's address of the memory (0 for nullptr);
//   arrays: their elements in order.
// Parameter structs therefore use fixed-width integer types (never size_t or long), so that both
// sides lay out the same words. A packed call is one header word (the number of payload words)
// followed by the payload; the reader checks the count against its own visit.
//
// Visitors are called as v(field) for every scalar, pointer or array field; nested structs are
// visited by their own visit(v, nested). Freestanding: no allocation, no exceptions.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace hilsim::kernels::abi {

// Payload words of the largest call; every call is checked against it at compile time.
constexpr uint32_t kMaxCallWords = 128;
// Header words before the payload (the payload word count).
constexpr uint32_t kCallHeaderWords = 1;
// Words a buffer needs to hold any packed call.
constexpr uint32_t kCallBufferWords = kCallHeaderWords + kMaxCallWords;

// Words taken by one field of type T.
template <class T>
constexpr uint32_t fieldWords() {
  if constexpr (std::is_pointer_v<T> || std::is_same_v<T, bool> || std::is_same_v<T, float>) {
    return 1;
  } else if constexpr (std::is_enum_v<T>) {
    static_assert(sizeof(T) <= 4, "enums of the ABI fit one word");
    return 1;
  } else {
    static_assert(std::is_integral_v<T> && sizeof(T) <= 8,
                  "ABI fields are integers, enums, bools, floats or pointers");
    return sizeof(T) <= 4 ? 1 : 2;
  }
}

// Counts the payload words of a call (usable at compile time).
class WordCounter {
 public:
  template <class T>
  constexpr void operator()(T&) {
    words_ += fieldWords<T>();
  }
  template <class T, size_t N>
  constexpr void operator()(T (&)[N]) {
    words_ += static_cast<uint32_t>(N) * fieldWords<T>();
  }
  constexpr uint32_t words() const { return words_; }

 private:
  uint32_t words_ = 0;
};

// Writes fields as words. AddressOf: uint32_t(const void* host), the target address of non-null
// host memory.
template <class AddressOf>
class WordWriter {
 public:
  WordWriter(uint32_t* words, AddressOf address_of) : words_(words), address_of_(address_of) {}

  template <class T>
  void operator()(T& field) {
    if constexpr (std::is_pointer_v<T>) {
      put(field ? address_of_(static_cast<const void*>(field)) : 0u);
    } else if constexpr (std::is_enum_v<T>) {
      put(static_cast<uint32_t>(static_cast<std::underlying_type_t<T>>(field)));
    } else if constexpr (std::is_same_v<T, bool>) {
      put(field ? 1u : 0u);
    } else if constexpr (std::is_same_v<T, float>) {
      uint32_t bits = 0;
      std::memcpy(&bits, &field, sizeof bits);
      put(bits);
    } else if constexpr (fieldWords<T>() == 1) {
      put(static_cast<uint32_t>(field));
    } else {
      const auto value = static_cast<uint64_t>(field);
      put(static_cast<uint32_t>(value));
      put(static_cast<uint32_t>(value >> 32));
    }
  }
  template <class T, size_t N>
  void operator()(T (&array)[N]) {
    for (T& element : array) (*this)(element);
  }
  uint32_t count() const { return count_; }

 private:
  void put(uint32_t word) { words_[count_++] = word; }

  uint32_t* words_;
  AddressOf address_of_;
  uint32_t count_ = 0;
};

// Reads fields from `count` words. PointerOf: void*(uint32_t address), the memory at a non-zero
// target address. Reading past `count` gives zeros and leaves complete() false.
template <class PointerOf>
class WordReader {
 public:
  WordReader(const uint32_t* words, uint32_t count, PointerOf pointer_of)
      : words_(words), count_(count), pointer_of_(pointer_of) {}

  template <class T>
  void operator()(T& field) {
    if constexpr (std::is_pointer_v<T>) {
      const uint32_t address = next();
      field = static_cast<T>(address ? pointer_of_(address) : nullptr);
    } else if constexpr (std::is_enum_v<T>) {
      field = static_cast<T>(static_cast<std::underlying_type_t<T>>(next()));
    } else if constexpr (std::is_same_v<T, bool>) {
      field = next() != 0;
    } else if constexpr (std::is_same_v<T, float>) {
      const uint32_t bits = next();
      std::memcpy(&field, &bits, sizeof bits);
    } else if constexpr (fieldWords<T>() == 1) {
      field = static_cast<T>(next());
    } else {
      const uint64_t low = next();
      const uint64_t high = next();
      field = static_cast<T>(high << 32 | low);
    }
  }
  template <class T, size_t N>
  void operator()(T (&array)[N]) {
    for (T& element : array) (*this)(element);
  }
  // Whether the fields took exactly the `count` words.
  bool complete() const { return read_ == count_; }

 private:
  uint32_t next() { return read_ < count_ ? words_[read_++] : (++read_, 0u); }

  const uint32_t* words_;
  uint32_t count_;
  PointerOf pointer_of_;
  uint32_t read_ = 0;
};

// Payload words of Call (a compile-time constant).
template <class Call>
constexpr uint32_t callWords() {
  Call call{};
  WordCounter counter;
  visit(counter, call);
  return counter.words();
}

// Packs `call` into words[0 .. kCallHeaderWords + callWords<Call>()); returns that word count.
// `words` must hold kCallBufferWords.
template <class Call, class AddressOf>
uint32_t pack(Call& call, uint32_t* words, AddressOf address_of) {
  WordWriter<AddressOf> writer(words + kCallHeaderWords, address_of);
  visit(writer, call);
  words[0] = writer.count();
  return kCallHeaderWords + writer.count();
}

// Unpacks a packed call into *call; false if its payload length is not the call's.
template <class Call, class PointerOf>
bool unpack(const uint32_t* words, PointerOf pointer_of, Call* call) {
  WordReader<PointerOf> reader(words + kCallHeaderWords, words[0], pointer_of);
  visit(reader, *call);
  return reader.complete();
}

}  // namespace hilsim::kernels::abi
