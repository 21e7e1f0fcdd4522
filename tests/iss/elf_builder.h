#pragma once
// Builds small ELF32 little-endian executables in memory for the ISS tests: program headers for
// the given segments and a symbol table. Offsets of every table are exposed so that tests can
// corrupt one field at a time.

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace hilsim::test {

struct TestSegment {
  uint32_t vaddr = 0;
  std::vector<uint8_t> bytes;
  uint32_t mem_bytes = 0;  // 0: bytes.size()
  uint32_t flags = 5;      // PF_R | PF_X
};

struct TestSymbol {
  std::string name;
  uint32_t value = 0;
  bool function = true;
};

struct BuiltElf {
  std::vector<uint8_t> bytes;
  size_t phoff = 0, shoff = 0, symtab_offset = 0, strtab_offset = 0;
  size_t symtab_header = 0, strtab_header = 0;  // offsets of the two section headers
};

inline void put16(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  b[at] = uint8_t(v);
  b[at + 1] = uint8_t(v >> 8);
}
inline void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (8 * i));
}

// machine: 40 (Arm) or 243 (RISC-V).
inline BuiltElf buildElf(uint16_t machine, const std::vector<TestSegment>& segments,
                         const std::vector<TestSymbol>& symbols) {
  BuiltElf e;
  std::vector<uint8_t>& b = e.bytes;
  b.assign(52, 0);
  const uint8_t ident[] = {0x7f, 'E', 'L', 'F', 1, 1, 1};
  std::memcpy(b.data(), ident, sizeof ident);
  put16(b, 16, 2);
  put16(b, 18, machine);
  put32(b, 20, 1);
  put16(b, 40, 52);
  // Program headers.
  e.phoff = b.size();
  b.resize(b.size() + 32 * segments.size());
  std::vector<size_t> data_at;
  for (const TestSegment& s : segments) {
    data_at.push_back(b.size());
    b.insert(b.end(), s.bytes.begin(), s.bytes.end());
  }
  for (size_t i = 0; i < segments.size(); ++i) {
    const size_t at = e.phoff + 32 * i;
    const TestSegment& s = segments[i];
    put32(b, at, 1);
    put32(b, at + 4, uint32_t(data_at[i]));
    put32(b, at + 8, s.vaddr);
    put32(b, at + 12, s.vaddr);
    put32(b, at + 16, uint32_t(s.bytes.size()));
    put32(b, at + 20, s.mem_bytes ? s.mem_bytes : uint32_t(s.bytes.size()));
    put32(b, at + 24, s.flags);
    put32(b, at + 28, 4);
  }
  // String table and symbol table.
  std::vector<uint8_t> strtab{0};
  std::vector<uint8_t> symtab(16, 0);
  for (const TestSymbol& s : symbols) {
    std::vector<uint8_t> sym(16, 0);
    put32(sym, 0, uint32_t(strtab.size()));
    put32(sym, 4, s.value);
    sym[12] = s.function ? 0x12 : 0x11;  // global function / object
    put16(sym, 14, 1);
    symtab.insert(symtab.end(), sym.begin(), sym.end());
    strtab.insert(strtab.end(), s.name.begin(), s.name.end());
    strtab.push_back(0);
  }
  e.strtab_offset = b.size();
  b.insert(b.end(), strtab.begin(), strtab.end());
  e.symtab_offset = b.size();
  b.insert(b.end(), symtab.begin(), symtab.end());
  // Section headers: null, .symtab (1), .strtab (2).
  e.shoff = b.size();
  b.resize(b.size() + 40 * 3, 0);
  e.symtab_header = e.shoff + 40;
  e.strtab_header = e.shoff + 80;
  put32(b, e.symtab_header + 4, 2);
  put32(b, e.symtab_header + 16, uint32_t(e.symtab_offset));
  put32(b, e.symtab_header + 20, uint32_t(symtab.size()));
  put32(b, e.symtab_header + 24, 2);
  put32(b, e.symtab_header + 36, 16);
  put32(b, e.strtab_header + 4, 3);
  put32(b, e.strtab_header + 16, uint32_t(e.strtab_offset));
  put32(b, e.strtab_header + 20, uint32_t(strtab.size()));
  put32(b, 28, uint32_t(e.phoff));
  put32(b, 32, uint32_t(e.shoff));
  put16(b, 42, 32);
  put16(b, 44, uint16_t(segments.size()));
  put16(b, 46, 40);
  put16(b, 48, 3);
  return e;
}

// Little-endian bytes of Thumb halfwords or RISC-V words.
inline std::vector<uint8_t> halfwords(std::initializer_list<uint16_t> hw) {
  std::vector<uint8_t> out;
  for (uint16_t h : hw) {
    out.push_back(uint8_t(h));
    out.push_back(uint8_t(h >> 8));
  }
  return out;
}
inline std::vector<uint8_t> words(std::initializer_list<uint32_t> ws) {
  std::vector<uint8_t> out;
  for (uint32_t w : ws)
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(w >> (8 * i)));
  return out;
}

}  // namespace hilsim::test
