// The kernel ABI (hilsim/kernels/abi): every Call survives packing and unpacking on the host
// byte for byte, the wire format is the documented one, and dispatch reports calls it cannot run.

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "hilsim/kernels/abi/dispatch.h"
#include "hilsim/kernels/optimized/abi_calls.h"

namespace hilsim::kernels::abi {
namespace {

// Pointers travel as indices into a table: any pointer value round-trips, and the test never
// dereferences one.
class PointerTable {
 public:
  uint32_t address(const void* p) {
    pointers_.push_back(p);
    return static_cast<uint32_t>(pointers_.size());  // never 0
  }
  void* pointer(uint32_t address) const { return const_cast<void*>(pointers_.at(address - 1)); }

 private:
  std::vector<const void*> pointers_;
};

// Makes every bool field a valid bool (0 or 1), keeping its low bit; other fields are left as
// they are. Only used to make the pseudo-random source a valid object.
struct BoolFixer {
  template <class T>
  void operator()(T& field) {
    if constexpr (std::is_same_v<T, bool>) {
      unsigned char byte = 0;
      std::memcpy(&byte, &field, 1);
      byte &= 1;
      std::memcpy(&field, &byte, 1);
    }
  }
  template <class T, size_t N>
  void operator()(T (&array)[N]) {
    for (T& element : array) (*this)(element);
  }
};

// Bytes of a Call that belong to no field, found by the compiler without visit().
template <class Call>
std::vector<bool> paddingBytes() {
  Call probe;
  std::memset(static_cast<void*>(&probe), 0xFF, sizeof probe);
  __builtin_clear_padding(&probe);
  const auto* bytes = reinterpret_cast<const unsigned char*>(&probe);
  std::vector<bool> padding(sizeof probe);
  for (size_t i = 0; i < sizeof probe; ++i) padding[i] = bytes[i] == 0;
  return padding;
}

// Packs a pseudo-random Call and unpacks it into a Call holding the complement of every byte:
// each field byte must come back, so a field missing from a visit() fails.
template <class Call>
void checkRoundTrip(std::mt19937& random) {
  SCOPED_TRACE("KernelId " + std::to_string(static_cast<uint32_t>(Call::kId)));
  static_assert(std::is_trivially_copyable_v<Call>);
  Call source;
  auto* source_bytes = reinterpret_cast<unsigned char*>(&source);
  for (size_t i = 0; i < sizeof source; ++i) source_bytes[i] = static_cast<unsigned char>(random());
  BoolFixer fixer;
  visit(fixer, source);

  Call copy;
  auto* copy_bytes = reinterpret_cast<unsigned char*>(&copy);
  for (size_t i = 0; i < sizeof copy; ++i)
    copy_bytes[i] = static_cast<unsigned char>(~source_bytes[i]);

  PointerTable table;
  uint32_t words[kCallBufferWords] = {};
  const uint32_t count = pack(source, words, [&](const void* p) { return table.address(p); });
  EXPECT_EQ(count, kCallHeaderWords + callWords<Call>());
  EXPECT_EQ(words[0], callWords<Call>());
  ASSERT_TRUE(unpack(
      words, [&](uint32_t a) { return table.pointer(a); }, &copy));

  const std::vector<bool> padding = paddingBytes<Call>();
  size_t field_bytes = 0;
  std::string lost;
  for (size_t i = 0; i < sizeof source; ++i) {
    if (padding[i]) continue;
    ++field_bytes;
    if (copy_bytes[i] != source_bytes[i]) lost += " " + std::to_string(i);
  }
  EXPECT_GT(field_bytes, 0u);
  EXPECT_EQ(lost, "") << "bytes of " << sizeof source
                      << " that did not come back: a field is not visited";
}

template <class... Calls>
void checkEveryRoundTrip(CallList<Calls...>) {
  std::mt19937 random(20260821);
  (checkRoundTrip<Calls>(random), ...);
}

TEST(KernelAbi, EveryCallRoundTripsByteForByte) {
  checkEveryRoundTrip(AllCalls{});
}

TEST(KernelAbi, EveryOptimizedCallRoundTripsByteForByte) {
  checkEveryRoundTrip(OptimizedCalls{});
}

// The optimized library's ids follow the reference kernels' and are dispatched to it; the
// reference ids keep their kernels.
TEST(KernelAbi, OptimizedIdsFollowTheReferenceIds) {
  EXPECT_EQ(kFirstOptimizedId, kCallCount + 1);
  EXPECT_EQ(static_cast<uint32_t>(KernelId::kOptLstmInt8),
            kFirstOptimizedId + kOptimizedCallCount - 1);
  const uint8_t from[2] = {7, 9};
  uint8_t to[2] = {};
  CopyCall c;
  c.input = from;
  c.output = to;
  c.bytes = 2;
  PointerTable table;
  uint32_t words[kCallBufferWords] = {};
  pack(c, words, [&](const void* p) { return table.address(p); });
  const auto pointer = [&](uint32_t a) { return table.pointer(a); };
  EXPECT_EQ(dispatchOptimized(static_cast<uint32_t>(KernelId::kCopy), words, pointer),
            CallStatus::kOk);
  EXPECT_EQ(to[1], 9);
  EXPECT_EQ(dispatchOptimized(kFirstOptimizedId + kOptimizedCallCount, words, pointer),
            CallStatus::kUnknownKernel);
  // A copy's payload under an optimized id: the lengths differ.
  EXPECT_EQ(dispatchOptimized(static_cast<uint32_t>(KernelId::kOptAddInt8), words, pointer),
            CallStatus::kBadLength);
}

// The test above must be able to fail: a visit that forgets a field is caught.
struct Forgetful {
  static constexpr KernelId kId = KernelId::kCopy;
  const uint8_t* input = nullptr;
  uint8_t* output = nullptr;
  uint32_t bytes = 0;
};
template <class V>
void visit(V& v, Forgetful& c) {
  v(c.input);
  v(c.output);  // bytes left out
}

TEST(KernelAbi, ARoundTripCatchesAFieldLeftOutOfVisit) {
  std::mt19937 random(1);
  EXPECT_NONFATAL_FAILURE(checkRoundTrip<Forgetful>(random), "a field is not visited");
}

// The documented layout, word by word: FULLY_CONNECTED int8 with a null bias.
TEST(KernelAbi, WordsFollowTheDocumentedLayout) {
  int8_t input[1], filter[1], output[1];
  int32_t multipliers[1], shifts[1];
  FullyConnectedInt8Call c;
  c.params = {2, 3, 4, -5, 6, -7, 0, -128, 127, multipliers, shifts};
  c.input = input;
  c.filter = filter;
  c.bias = nullptr;
  c.output = output;
  const auto address = [&](const void* p) -> uint32_t {
    if (p == multipliers) return 0x20100000;
    if (p == shifts) return 0x20100004;
    if (p == input) return 0x21000000;
    if (p == filter) return 0x01000040;
    if (p == output) return 0x21000010;
    ADD_FAILURE() << "unexpected pointer";
    return 0;
  };
  uint32_t words[kCallBufferWords] = {};
  ASSERT_EQ(pack(c, words, address), 16u);
  const uint32_t expected[16] = {
      15,         2,   3,          4,          0xFFFFFFFB, 6,          0xFFFFFFF9, 0,
      0xFFFFFF80, 127, 0x20100000, 0x20100004, 0x21000000, 0x01000040, 0,          0x21000010};
  for (size_t i = 0; i < 16; ++i) EXPECT_EQ(words[i], expected[i]) << "word " << i;
}

TEST(KernelAbi, SixtyFourBitFieldsAreTwoWordsLowFirstAndFloatsTheirBits) {
  MaximumInt64Call c;
  c.loops.rank = 1;
  c.loops.extent[0] = int64_t{0x123456789} * -1;
  uint32_t words[kCallBufferWords] = {};
  pack(c, words, [](const void*) { return 0u; });
  const uint64_t extent = static_cast<uint64_t>(int64_t{-0x123456789});
  EXPECT_EQ(words[1], 1u);
  EXPECT_EQ(words[2], static_cast<uint32_t>(extent));
  EXPECT_EQ(words[3], static_cast<uint32_t>(extent >> 32));

  DequantizeInt8Call d;
  d.params.scale = -0.5f;
  pack(d, words, [](const void*) { return 0u; });
  EXPECT_EQ(words[2], 0xBF000000u);  // -0.5f
}

TEST(KernelAbi, DispatchRunsTheNamedKernelAndRejectsWhatItCannotRun) {
  const uint8_t from[4] = {1, 2, 3, 4};
  uint8_t to[4] = {};
  CopyCall c;
  c.input = from;
  c.output = to;
  c.bytes = 3;
  PointerTable table;
  uint32_t words[kCallBufferWords] = {};
  pack(c, words, [&](const void* p) { return table.address(p); });
  const auto pointer = [&](uint32_t a) { return table.pointer(a); };
  EXPECT_EQ(dispatch(static_cast<uint32_t>(KernelId::kCopy), words, pointer), CallStatus::kOk);
  EXPECT_EQ(to[0], 1);
  EXPECT_EQ(to[2], 3);
  EXPECT_EQ(to[3], 0);
  EXPECT_EQ(dispatch(0, words, pointer), CallStatus::kUnknownKernel);
  EXPECT_EQ(dispatch(kCallCount + 1, words, pointer), CallStatus::kUnknownKernel);
  words[0] += 1;  // one payload word more than a copy has
  EXPECT_EQ(dispatch(static_cast<uint32_t>(KernelId::kCopy), words, pointer),
            CallStatus::kBadLength);
}

}  // namespace
}  // namespace hilsim::kernels::abi
