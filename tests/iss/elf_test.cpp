// The ELF reader on valid and malformed images: every malformation is an InputError naming what
// is wrong; truncations and byte flips of a valid image never crash.

#include <gtest/gtest.h>

#include <random>

#include "elf_builder.h"
#include "hilsim/errors.h"
#include "hilsim/iss/elf.h"

namespace hilsim::iss {
namespace {

using test::buildElf;
using test::BuiltElf;
using test::put16;
using test::put32;

BuiltElf validArm() {
  return buildElf(
      40, {{0x0, test::halfwords({0x1840, 0x4770}), 0, 5}, {0x20000000, {1, 2, 3, 4}, 64, 6}},
      {{"add", 0x1, true}, {"table", 0x20000000, false}});
}

std::string parseError(const std::vector<uint8_t>& bytes) {
  try {
    ElfImage::parse(bytes, "t.elf");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(parsed)";
}

TEST(ElfReader, ReadsSegmentsAndSymbols) {
  const ElfImage image = ElfImage::parse(validArm().bytes, "t.elf");
  EXPECT_EQ(image.machine(), ElfMachine::kArm);
  ASSERT_EQ(image.segments().size(), 2u);
  EXPECT_EQ(image.segments()[0].vaddr, 0u);
  EXPECT_TRUE(image.segments()[0].executable);
  EXPECT_EQ(image.segments()[0].bytes, test::halfwords({0x1840, 0x4770}));
  EXPECT_EQ(image.segments()[1].mem_bytes, 64u);  // zero fill past the 4 file bytes
  EXPECT_EQ(image.segments()[1].bytes.size(), 4u);
  EXPECT_TRUE(image.segments()[1].writable);
  // The Thumb bit of a function is removed and remembered; objects keep their value.
  const ElfSymbol add = image.symbol("add");
  EXPECT_EQ(add.value, 0u);
  EXPECT_TRUE(add.thumb);
  EXPECT_EQ(image.symbol("table").value, 0x20000000u);
  EXPECT_FALSE(image.findSymbol("missing"));
  EXPECT_THROW(image.symbol("missing"), InputError);
}

TEST(ElfReader, RiscVFunctionsKeepBitZero) {
  const BuiltElf e = buildElf(243, {{0x0, test::words({0x00008067})}}, {{"f", 0x1, true}});
  const ElfImage image = ElfImage::parse(e.bytes, "r.elf");
  EXPECT_EQ(image.machine(), ElfMachine::kRiscV);
  EXPECT_EQ(image.symbol("f").value, 1u);
}

struct Malformation {
  const char* name;
  void (*corrupt)(BuiltElf&);
  const char* expected;  // part of the message
};

const Malformation kMalformations[] = {
    {"short", [](BuiltElf& e) { e.bytes.resize(40); }, "shorter than an ELF32 header"},
    {"magic", [](BuiltElf& e) { e.bytes[1] = 'X'; }, "magic"},
    {"class64", [](BuiltElf& e) { e.bytes[4] = 2; }, "not a 32-bit"},
    {"big_endian", [](BuiltElf& e) { e.bytes[5] = 2; }, "not little endian"},
    {"version", [](BuiltElf& e) { e.bytes[6] = 9; }, "unknown ELF version"},
    {"relocatable", [](BuiltElf& e) { put16(e.bytes, 16, 1); }, "not an executable"},
    {"x86", [](BuiltElf& e) { put16(e.bytes, 18, 3); }, "neither Arm"},
    {"phentsize", [](BuiltElf& e) { put16(e.bytes, 42, 56); }, "program header entry size"},
    {"phoff_past_end", [](BuiltElf& e) { put32(e.bytes, 28, 0xfffffff0); }, "program header table"},
    {"phnum_past_end", [](BuiltElf& e) { put16(e.bytes, 44, 60000); }, "program header table"},
    {"filesz_over_memsz", [](BuiltElf& e) { put32(e.bytes, e.phoff + 20, 2); },
     "exceeds memory size"},
    {"segment_past_end",
     [](BuiltElf& e) { put32(e.bytes, e.phoff + 4, uint32_t(e.bytes.size() - 1)); }, "segment 0"},
    {"segment_huge",
     [](BuiltElf& e) {
       put32(e.bytes, e.phoff + 16, 0xffffffff);
       put32(e.bytes, e.phoff + 20, 0xffffffff);
     },
     "segment 0"},
    {"segment_wraps", [](BuiltElf& e) { put32(e.bytes, e.phoff + 32 + 8, 0xfffffff0); }, "wraps"},
    {"overlap", [](BuiltElf& e) { put32(e.bytes, e.phoff + 32 + 8, 0x2); }, "overlaps"},
    {"shentsize", [](BuiltElf& e) { put16(e.bytes, 46, 20); }, "section header entry size"},
    {"shoff_past_end", [](BuiltElf& e) { put32(e.bytes, 32, uint32_t(e.bytes.size())); },
     "section header table"},
    {"symtab_entsize", [](BuiltElf& e) { put32(e.bytes, e.symtab_header + 36, 12); },
     "entry size 12"},
    {"symtab_size", [](BuiltElf& e) { put32(e.bytes, e.symtab_header + 20, 17); },
     "not a multiple of 16"},
    {"symtab_past_end",
     [](BuiltElf& e) { put32(e.bytes, e.symtab_header + 16, uint32_t(e.bytes.size() - 8)); },
     "symbol table"},
    {"strtab_index", [](BuiltElf& e) { put32(e.bytes, e.symtab_header + 24, 7); },
     "string table index 7 out of range"},
    {"strtab_type", [](BuiltElf& e) { put32(e.bytes, e.symtab_header + 24, 1); },
     "not a string table"},
    {"strtab_past_end", [](BuiltElf& e) { put32(e.bytes, e.strtab_header + 20, 0x7fffffff); },
     "string table"},
    {"name_past_strtab", [](BuiltElf& e) { put32(e.bytes, e.symtab_offset + 16, 0x1000); },
     "past the string table"},
    {"unterminated_name",
     [](BuiltElf& e) {
       // Shrink the string table to end inside the first name.
       put32(e.bytes, e.strtab_header + 20, 3);
     },
     "unterminated name"},
};

TEST(ElfReader, MalformedImagesNameTheProblem) {
  for (const Malformation& m : kMalformations) {
    BuiltElf e = validArm();
    m.corrupt(e);
    const std::string error = parseError(e.bytes);
    EXPECT_NE(error.find("t.elf: not a valid ELF file"), std::string::npos)
        << m.name << ": " << error;
    EXPECT_NE(error.find(m.expected), std::string::npos) << m.name << ": " << error;
  }
}

TEST(ElfReader, MissingFileIsAnInputError) {
  EXPECT_THROW(ElfImage::fromFile("/nonexistent/x.elf"), InputError);
}

// Every truncation and many random corruptions either parse or throw InputError (run under the
// sanitizer build, this also shows no read out of bounds).
TEST(ElfReader, TruncationsAndByteFlipsNeverCrash) {
  const std::vector<uint8_t> valid = validArm().bytes;
  for (size_t n = 0; n < valid.size(); ++n) {
    const std::vector<uint8_t> cut(valid.begin(), valid.begin() + n);
    try {
      ElfImage::parse(cut, "cut.elf");
    } catch (const InputError&) {
    }
  }
  std::mt19937 rng(12345);
  for (int round = 0; round < 20000; ++round) {
    std::vector<uint8_t> bytes = valid;
    const int flips = 1 + int(rng() % 4);
    for (int i = 0; i < flips; ++i) bytes[rng() % bytes.size()] = uint8_t(rng());
    try {
      ElfImage::parse(bytes, "flip.elf");
    } catch (const InputError&) {
    }
  }
}

}  // namespace
}  // namespace hilsim::iss
