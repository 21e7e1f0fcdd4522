// The firmware images the build makes (firmware/): each is an executable ELF for its core, with
// the flags of its preset, defines every entry, and keeps to the memory map. Read with this file's
// own ELF reader, not with the toolchain that made them.

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "files.h"
#include "hilsim/errors.h"
#include "hilsim/firmware/images.h"
#include "hilsim/kernels/abi/calls.h"
#include "hilsim/kernels/abi/words.h"
#include "hilsim/kernels/optimized/abi_calls.h"

namespace hilsim::test {
namespace {

constexpr uint16_t kMachineArm = 40;
constexpr uint16_t kMachineRiscV = 243;
constexpr uint32_t kFlashEnd = 0x01000000;  // the model's bytes start here
constexpr uint32_t kSramBase = 0x20000000;
constexpr uint32_t kSramEnd = 0x20100000;  // the persistent pool starts here

struct Symbol {
  uint32_t value = 0;
  uint32_t size = 0;
  uint8_t type = 0;  // STT_*
  uint16_t section = 0;
};

struct Segment {
  uint32_t type = 0, vaddr = 0, filesz = 0, memsz = 0;
};

// The parts of an ELF32 little-endian file these tests read.
struct Elf {
  bool elf32_lsb = false;
  uint16_t type = 0, machine = 0;
  uint32_t entry = 0, flags = 0;
  std::vector<Segment> segments;
  std::map<std::string, Symbol> symbols;
  std::map<std::string, std::vector<uint8_t>> sections;  // by name, non-NOBITS only
  std::map<uint32_t, std::vector<uint8_t>> loaded;       // allocated sections by address

  // `bytes` bytes of the loaded image at `address` (empty if not all there).
  std::vector<uint8_t> at(uint32_t address, uint32_t bytes) const {
    for (const auto& [start, data] : loaded)
      if (address >= start && uint64_t{address} - start + bytes <= data.size())
        return {data.begin() + (address - start), data.begin() + (address - start + bytes)};
    return {};
  }
};

template <typename T>
T read(const std::vector<uint8_t>& bytes, size_t offset) {
  T value{};
  if (offset + sizeof(T) <= bytes.size()) std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

std::string cString(const std::vector<uint8_t>& bytes, size_t offset) {
  std::string s;
  while (offset < bytes.size() && bytes[offset]) s += static_cast<char>(bytes[offset++]);
  return s;
}

Elf readElf(const std::string& path) {
  const std::vector<uint8_t> f = readFile(path);
  Elf elf;
  elf.elf32_lsb = f.size() > 52 &&
                  std::memcmp(f.data(),
                              "\x7f"
                              "ELF",
                              4) == 0 &&
                  f[4] == 1 && f[5] == 1;
  if (!elf.elf32_lsb) return elf;
  elf.type = read<uint16_t>(f, 16);
  elf.machine = read<uint16_t>(f, 18);
  elf.entry = read<uint32_t>(f, 24);
  const uint32_t phoff = read<uint32_t>(f, 28), shoff = read<uint32_t>(f, 32);
  elf.flags = read<uint32_t>(f, 36);
  const uint16_t phentsize = read<uint16_t>(f, 42), phnum = read<uint16_t>(f, 44);
  const uint16_t shentsize = read<uint16_t>(f, 46), shnum = read<uint16_t>(f, 48);
  const uint16_t shstrndx = read<uint16_t>(f, 50);
  for (uint16_t i = 0; i < phnum; ++i) {
    const size_t p = phoff + size_t{i} * phentsize;
    elf.segments.push_back({read<uint32_t>(f, p), read<uint32_t>(f, p + 8),
                            read<uint32_t>(f, p + 16), read<uint32_t>(f, p + 20)});
  }
  struct Section {
    uint32_t name, type, flags, addr, offset, size, link;
  };
  std::vector<Section> sections;
  for (uint16_t i = 0; i < shnum; ++i) {
    const size_t s = shoff + size_t{i} * shentsize;
    sections.push_back({read<uint32_t>(f, s), read<uint32_t>(f, s + 4), read<uint32_t>(f, s + 8),
                        read<uint32_t>(f, s + 12), read<uint32_t>(f, s + 16),
                        read<uint32_t>(f, s + 20), read<uint32_t>(f, s + 24)});
  }
  if (shstrndx >= sections.size()) return elf;
  const uint32_t names = sections[shstrndx].offset;
  for (const Section& s : sections) {
    if (s.type != 8 /* SHT_NOBITS */ && s.offset + uint64_t{s.size} <= f.size()) {
      const std::vector<uint8_t> data(f.begin() + s.offset, f.begin() + s.offset + s.size);
      elf.sections[cString(f, names + s.name)] = data;
      if (s.flags & 2 /* SHF_ALLOC */) elf.loaded[s.addr] = data;
    }
    if (s.type != 2 /* SHT_SYMTAB */ || s.link >= sections.size()) continue;
    const uint32_t strings = sections[s.link].offset;
    for (uint32_t at = s.offset; at + 16 <= s.offset + s.size; at += 16) {
      Symbol sym;
      sym.value = read<uint32_t>(f, at + 4);
      sym.size = read<uint32_t>(f, at + 8);
      sym.type = read<uint8_t>(f, at + 12) & 0xF;
      sym.section = read<uint16_t>(f, at + 14);
      const uint8_t binding = read<uint8_t>(f, at + 12) >> 4;
      if (binding == 1 /* STB_GLOBAL */)
        elf.symbols[cString(f, strings + read<uint32_t>(f, at))] = sym;
    }
  }
  return elf;
}

uint32_t uleb128(const std::vector<uint8_t>& bytes, size_t& at) {
  uint32_t value = 0;
  for (int shift = 0; at < bytes.size(); shift += 7) {
    const uint8_t b = bytes[at++];
    value |= static_cast<uint32_t>(b & 0x7F) << shift;
    if (!(b & 0x80)) break;
  }
  return value;
}

// Tag_CPU_arch of the "aeabi" attributes (.ARM.attributes), or -1.
int armCpuArch(const std::vector<uint8_t>& attributes) {
  if (attributes.empty() || attributes[0] != 'A') return -1;
  size_t at = 1;
  const uint32_t length = read<uint32_t>(attributes, at);
  const size_t end = std::min(attributes.size(), at + length);
  if (cString(attributes, at + 4) != "aeabi") return -1;
  at += 4 + 6;                         // length, "aeabi\0"
  if (attributes[at] != 1) return -1;  // Tag_File
  at += 1 + 4;
  while (at < end) {
    const uint32_t tag = uleb128(attributes, at);
    if (tag == 6) return static_cast<int>(uleb128(attributes, at));
    if (tag == 4 || tag == 5 || tag == 67 || (tag > 32 && tag % 2 == 1)) {
      at += cString(attributes, at).size() + 1;  // a string
    } else if (tag == 32) {
      uleb128(attributes, at);
      at += cString(attributes, at).size() + 1;
    } else {
      uleb128(attributes, at);
    }
  }
  return -1;
}

struct Expected {
  std::string preset;
  uint16_t machine;
  int arm_cpu_arch;        // Tag_CPU_arch (Arm only)
  bool arm_hard_float;     // EF_ARM_ABI_FLOAT_HARD, else EF_ARM_ABI_FLOAT_SOFT (Arm only)
  std::string riscv_arch;  // Tag_RISCV_arch prefix (RV32 only)
};

const Expected kImages[] = {
    {"cortex-m0plus", kMachineArm, 12 /* v6S-M */, false, ""},
    {"cortex-m4f", kMachineArm, 13 /* v7E-M */, true, ""},
    {"cortex-m33", kMachineArm, 17 /* v8-M.mainline */, true, ""},
    {"rv32im", kMachineRiscV, -1, false, "rv32i2p1_m2p0"},
};

void PrintTo(const Expected& image, std::ostream* os) {
  *os << image.preset;
}

class FirmwareImage : public ::testing::TestWithParam<Expected> {};

TEST_P(FirmwareImage, IsAnExecutableForItsCore) {
  const Expected& want = GetParam();
  const Elf elf = readElf(firmware::imagePath(want.preset));
  ASSERT_TRUE(elf.elf32_lsb) << "not a 32-bit little-endian ELF";
  EXPECT_EQ(elf.type, 2) << "not an executable (ET_EXEC)";
  EXPECT_EQ(elf.machine, want.machine);
  if (want.machine == kMachineArm) {
    EXPECT_EQ(elf.flags & 0xFF000000u, 0x05000000u) << "EABI version 5";
    EXPECT_EQ(elf.flags & 0x600u, want.arm_hard_float ? 0x400u : 0x200u) << "float ABI";
    ASSERT_TRUE(elf.sections.count(".ARM.attributes"));
    EXPECT_EQ(armCpuArch(elf.sections.at(".ARM.attributes")), want.arm_cpu_arch);
  } else {
    EXPECT_EQ(elf.flags & 0x7u, 0u) << "soft-float ABI without compressed instructions";
    ASSERT_TRUE(elf.sections.count(".riscv.attributes"));
    const std::vector<uint8_t>& a = elf.sections.at(".riscv.attributes");
    EXPECT_NE(std::string(a.begin(), a.end()).find(want.riscv_arch), std::string::npos);
  }
}

TEST_P(FirmwareImage, DefinesEveryEntry) {
  const Expected& want = GetParam();
  const Elf elf = readElf(firmware::imagePath(want.preset));
  for (const char* name : {"hs_cpu_init", "hs_kernel", "hs_memcpy", "hs_driver_init",
                           "hs_driver_submit", "hs_driver_wait", "hs_irq_handler", "hs_halt"}) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(elf.symbols.count(name)) << "missing";
    const Symbol& s = elf.symbols.at(name);
    EXPECT_EQ(s.type, 2) << "not a function (STT_FUNC)";
    EXPECT_NE(s.section, 0) << "undefined";
    EXPECT_GT(s.size, 0u);
    EXPECT_LT(s.value, kFlashEnd) << "not in flash";
    // Thumb code on Cortex-M: the symbol's lowest bit is set.
    EXPECT_EQ(s.value & 1u, want.machine == kMachineArm ? 1u : 0u);
  }
  ASSERT_TRUE(elf.symbols.count("hs_call_words"));
  const Symbol& words = elf.symbols.at("hs_call_words");
  EXPECT_EQ(words.type, 1) << "not an object (STT_OBJECT)";
  EXPECT_EQ(words.size, kernels::abi::kCallBufferWords * 4);
  EXPECT_GE(words.value, kSramBase);
  EXPECT_LE(words.value + words.size, kSramEnd);
  EXPECT_EQ(words.value % 4, 0u);
  ASSERT_TRUE(elf.symbols.count("hs_stack_top"));
  EXPECT_EQ(elf.symbols.at("hs_stack_top").value, kSramEnd);
  EXPECT_EQ(elf.entry, elf.symbols.at("hs_halt").value);
}

template <class... Calls>
std::vector<uint32_t> hostPayloadWords(kernels::abi::CallList<Calls...>) {
  std::vector<uint32_t> words(sizeof...(Calls) + 1, 0);
  ((words[static_cast<uint32_t>(Calls::kId)] = kernels::abi::callWords<Calls>()), ...);
  return words;
}

// Host and image lay every call out in the same number of words (the image's own table).
TEST_P(FirmwareImage, LaysOutEveryCallAsTheHostDoes) {
  const Elf elf = readElf(firmware::imagePath(GetParam().preset));
  ASSERT_TRUE(elf.symbols.count("hs_call_payload_words"));
  const Symbol& table = elf.symbols.at("hs_call_payload_words");
  const std::vector<uint32_t> host = hostPayloadWords(kernels::abi::AllCalls{});
  ASSERT_EQ(table.size, host.size() * 4);
  EXPECT_LT(table.value, kFlashEnd);
  const std::vector<uint8_t> bytes = elf.at(table.value, table.size);
  ASSERT_EQ(bytes.size(), table.size) << "the table is not in the image's loaded sections";
  for (size_t id = 1; id < host.size(); ++id)
    EXPECT_EQ(read<uint32_t>(bytes, 4 * id), host[id]) << "KernelId " << id;
}

// The optimized image lays the optimized library's calls (ids from kOptFullyConnectedInt8 on)
// out as the host does too, and the reference calls it falls back to.
TEST_P(FirmwareImage, OptimizedImageLaysOutEveryOptimizedCallAsTheHostDoes) {
  namespace abi = kernels::abi;
  const Elf elf =
      readElf(firmware::imagePath(GetParam().preset, firmware::ImageLibrary::kOptimized));
  ASSERT_TRUE(elf.symbols.count("hs_opt_call_payload_words"));
  const Symbol& table = elf.symbols.at("hs_opt_call_payload_words");
  const abi::OptimizedCallWordTable host = abi::optimizedCallWordTable(abi::OptimizedCalls{});
  ASSERT_EQ(table.size, sizeof host.words);
  EXPECT_LT(table.value, kFlashEnd);
  const std::vector<uint8_t> bytes = elf.at(table.value, table.size);
  ASSERT_EQ(bytes.size(), table.size) << "the table is not in the image's loaded sections";
  for (uint32_t i = 0; i < abi::kOptimizedCallCount; ++i) {
    EXPECT_NE(host.words[i], 0u);
    EXPECT_EQ(read<uint32_t>(bytes, 4 * i), host.words[i])
        << "KernelId " << abi::kFirstOptimizedId + i;
  }
  ASSERT_TRUE(elf.symbols.count("hs_call_payload_words"));
  const Symbol& reference = elf.symbols.at("hs_call_payload_words");
  const std::vector<uint32_t> host_reference = hostPayloadWords(abi::AllCalls{});
  ASSERT_EQ(reference.size, host_reference.size() * 4);
  const std::vector<uint8_t> reference_bytes = elf.at(reference.value, reference.size);
  ASSERT_EQ(reference_bytes.size(), reference.size);
  for (size_t id = 1; id < host_reference.size(); ++id)
    EXPECT_EQ(read<uint32_t>(reference_bytes, 4 * id), host_reference[id]) << "KernelId " << id;
}

TEST_P(FirmwareImage, KeepsToTheMemoryMap) {
  const Elf elf = readElf(firmware::imagePath(GetParam().preset));
  int loads = 0;
  for (const Segment& s : elf.segments) {
    if (s.type != 1 /* PT_LOAD */ || s.memsz == 0) continue;
    ++loads;
    const uint64_t end = uint64_t{s.vaddr} + s.memsz;
    const bool in_flash = end <= kFlashEnd;
    const bool in_sram = s.vaddr >= kSramBase && end <= kSramEnd;
    EXPECT_TRUE(in_flash || in_sram)
        << "segment at 0x" << std::hex << s.vaddr << " of 0x" << s.memsz << " bytes";
    EXPECT_LE(s.filesz, s.memsz);
  }
  EXPECT_GE(loads, 2) << "code in flash and data in SRAM";
}

INSTANTIATE_TEST_SUITE_P(Images, FirmwareImage, ::testing::ValuesIn(kImages), [](const auto& info) {
  std::string name = info.param.preset;
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
});

// The build makes an image for exactly the presets that have an instruction-set simulator.
TEST(FirmwareImages, OnePerPresetWithASimulator) {
  std::vector<std::string> expected;
  for (const Expected& image : kImages) expected.push_back(image.preset);
  EXPECT_EQ(firmware::presets(), expected);
}

TEST(FirmwareImages, TheEnvironmentOverridesTheBuildDirectory) {
  const char* outer = std::getenv("HILSIM_FIRMWARE_DIR");
  const std::string saved = outer ? outer : "";
  ASSERT_EQ(unsetenv("HILSIM_FIRMWARE_DIR"), 0);
  const std::string built = firmware::imageDir();
  EXPECT_EQ(firmware::imagePath("cortex-m4f"), built + "/cortex-m4f.elf");
  // A board preset runs its core's image.
  EXPECT_EQ(firmware::imagePath("stm32l4r5"), built + "/cortex-m4f.elf");
  EXPECT_EQ(firmware::imagePath("fe310"), built + "/rv32im.elf");
  EXPECT_THROW(firmware::imagePath("cortex-a53"), ConfigError);
  ASSERT_EQ(setenv("HILSIM_FIRMWARE_DIR", "/nonexistent/firmware", 1), 0);
  EXPECT_EQ(firmware::imageDir(), "/nonexistent/firmware");
  EXPECT_THROW(firmware::imagePath("cortex-m4f"), InputError);
  if (outer)
    setenv("HILSIM_FIRMWARE_DIR", saved.c_str(), 1);
  else
    unsetenv("HILSIM_FIRMWARE_DIR");
}

}  // namespace
}  // namespace hilsim::test
