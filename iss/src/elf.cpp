// ELF32 reader. Every field is read through bounds-checked helpers; sizes are compared in 64-bit
// arithmetic so that no sum can wrap.

#include "hilsim/iss/elf.h"

#include <algorithm>

#include "hilsim/base/io.h"
#include "hilsim/errors.h"

namespace hilsim::iss {
namespace {

constexpr uint16_t kTypeExec = 2;
constexpr uint16_t kMachineArm = 40;
constexpr uint16_t kMachineRiscV = 243;
constexpr uint32_t kProgramLoad = 1;
constexpr uint32_t kSectionProgbits = 1;
constexpr uint32_t kSectionSymtab = 2;
constexpr uint32_t kSectionStrtab = 3;
constexpr uint32_t kSectionAttributes = 0x70000003;  // SHT_ARM_ATTRIBUTES, SHT_RISCV_ATTRIBUTES
constexpr uint32_t kSectionWrite = 1;  // sh_flags: SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR
constexpr uint32_t kSectionAlloc = 2;
constexpr uint32_t kSectionExecute = 4;
constexpr uint32_t kFlagExecute = 1;
constexpr uint32_t kFlagWrite = 2;
constexpr size_t kHeaderBytes = 52;
constexpr size_t kProgramHeaderBytes = 32;
constexpr size_t kSectionHeaderBytes = 40;
constexpr size_t kSymbolBytes = 16;
constexpr uint8_t kSymbolFunction = 2;

std::string hex(uint64_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[v & 15]);
    v >>= 4;
  } while (v != 0);
  return "0x" + s;
}

class Reader {
 public:
  Reader(const std::vector<uint8_t>& bytes, const std::string& name) : b_(bytes), name_(name) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(name_ + ": not a valid ELF file: " + what);
  }
  // True when [offset, offset + count * unit) lies inside the file.
  bool fits(uint64_t offset, uint64_t count, uint64_t unit) const {
    const uint64_t size = b_.size();
    return offset <= size && count <= (size - offset) / std::max<uint64_t>(unit, 1);
  }
  void require(uint64_t offset, uint64_t count, uint64_t unit, const std::string& what) const {
    if (!fits(offset, count, unit))
      fail(what + " (offset " + hex(offset) + ", " + std::to_string(count * unit) +
           " bytes) extends past the end of the file (" + std::to_string(b_.size()) + " bytes)");
  }
  uint8_t u8(uint64_t at) const { return b_[at]; }
  uint16_t u16(uint64_t at) const { return uint16_t(b_[at] | b_[at + 1] << 8); }
  uint32_t u32(uint64_t at) const {
    return uint32_t(b_[at]) | uint32_t(b_[at + 1]) << 8 | uint32_t(b_[at + 2]) << 16 |
           uint32_t(b_[at + 3]) << 24;
  }
  const std::vector<uint8_t>& bytes() const { return b_; }

 private:
  const std::vector<uint8_t>& b_;
  const std::string& name_;
};

struct Section {
  uint32_t type, flags, address, offset, size, link, entsize;
};

// Reads the build attributes section [offset, offset + size) of a checked file: format 'A', then
// vendor subsections (length, vendor name) holding tagged sub-subsections; the file-wide one (tag
// 1) lists tag/value pairs. Only the "aeabi" and "riscv" vendors' file attributes are read.
void readAttributes(const Reader& r, uint64_t offset, uint64_t size, bool riscv,
                    ElfAttributes& out) {
  const uint64_t end = offset + size;
  auto uleb = [&](uint64_t& at, uint64_t limit) {
    uint64_t value = 0;
    for (unsigned shift = 0;; shift += 7) {
      if (at >= limit || shift > 28) r.fail("attributes: malformed ULEB128 number");
      const uint8_t byte = r.u8(at++);
      value |= uint64_t(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return value;
    }
  };
  auto text = [&](uint64_t& at, uint64_t limit) {
    std::string s;
    while (at < limit && r.u8(at) != 0) s += char(r.u8(at++));
    if (at >= limit) r.fail("attributes: unterminated string");
    ++at;
    return s;
  };
  if (size == 0) return;
  if (r.u8(offset) != 'A') r.fail("attributes: unknown format version");
  uint64_t at = offset + 1;
  while (at < end) {
    if (end - at < 4) r.fail("attributes: truncated vendor subsection");
    const uint32_t length = r.u32(at);
    if (length < 4 || length > end - at)
      r.fail("attributes: vendor subsection length out of range");
    const uint64_t vendor_end = at + length;
    uint64_t p = at + 4;
    const std::string vendor = text(p, vendor_end);
    if (vendor == (riscv ? "riscv" : "aeabi")) {
      while (p < vendor_end) {
        const uint8_t kind = r.u8(p);
        if (vendor_end - p < 5) r.fail("attributes: truncated subsection");
        const uint32_t sub_length = r.u32(p + 1);
        if (sub_length < 5 || sub_length > vendor_end - p)
          r.fail("attributes: subsection length out of range");
        const uint64_t sub_end = p + sub_length;
        if (kind == 1) {  // the whole file
          uint64_t q = p + 5;
          while (q < sub_end) {
            const uint64_t tag = uleb(q, sub_end);
            // Strings: Arm tags 4, 5, 65, 67 and odd tags above 32 (32 has a number first);
            // RISC-V odd tags.
            const bool string =
                riscv ? (tag & 1) != 0 : tag == 4 || tag == 5 || (tag > 32 && (tag & 1) != 0);
            if (!riscv && tag == 32) {
              uleb(q, sub_end);
              text(q, sub_end);
              continue;
            }
            if (string) {
              const std::string value = text(q, sub_end);
              if (riscv && tag == 5) out.riscv_arch = value;
              continue;
            }
            const uint32_t value = uint32_t(uleb(q, sub_end));
            if (riscv) continue;
            if (tag == 6) out.cpu_arch = value;
            if (tag == 7) out.cpu_arch_profile = value;
            if (tag == 10) out.fp_arch = value;
            if (tag == 12) out.simd_arch = value;
            if (tag == 48) out.mve_arch = value;
          }
        }
        p = sub_end;
      }
    }
    at = vendor_end;
  }
}

}  // namespace

ElfImage ElfImage::parse(const std::vector<uint8_t>& bytes, const std::string& name) {
  Reader r(bytes, name);
  ElfImage image;
  image.name_ = name;
  if (bytes.size() < kHeaderBytes)
    r.fail("file is " + std::to_string(bytes.size()) + " bytes, shorter than an ELF32 header");
  if (r.u8(0) != 0x7f || r.u8(1) != 'E' || r.u8(2) != 'L' || r.u8(3) != 'F')
    r.fail("missing the ELF magic number");
  if (r.u8(4) != 1) r.fail("not a 32-bit ELF file (EI_CLASS " + std::to_string(r.u8(4)) + ")");
  if (r.u8(5) != 1) r.fail("not little endian (EI_DATA " + std::to_string(r.u8(5)) + ")");
  if (r.u8(6) != 1) r.fail("unknown ELF version " + std::to_string(r.u8(6)));
  const uint16_t type = r.u16(16);
  if (type != kTypeExec)
    r.fail("not an executable (e_type " + std::to_string(type) + ", expected 2 = EXEC)");
  const uint16_t machine = r.u16(18);
  if (machine == kMachineArm)
    image.machine_ = ElfMachine::kArm;
  else if (machine == kMachineRiscV)
    image.machine_ = ElfMachine::kRiscV;
  else
    r.fail("machine " + std::to_string(machine) + " is neither Arm (40) nor RISC-V (243)");
  image.entry_ = r.u32(24);
  const uint32_t flags = r.u32(36);
  constexpr uint32_t kArmAbiFloatHard = 0x400, kRiscVFloatAbi = 0x6;
  image.hard_float_abi_ = image.machine_ == ElfMachine::kArm ? (flags & kArmAbiFloatHard) != 0
                                                             : (flags & kRiscVFloatAbi) != 0;
  const uint32_t phoff = r.u32(28), shoff = r.u32(32);
  const uint16_t phentsize = r.u16(42), phnum = r.u16(44);
  const uint16_t shentsize = r.u16(46), shnum = r.u16(48);

  if (phnum > 0) {
    if (phentsize != kProgramHeaderBytes)
      r.fail("program header entry size " + std::to_string(phentsize) + ", expected 32");
    r.require(phoff, phnum, kProgramHeaderBytes, "program header table");
  }
  for (uint32_t i = 0; i < phnum; ++i) {
    const uint64_t at = uint64_t(phoff) + uint64_t(i) * kProgramHeaderBytes;
    if (r.u32(at) != kProgramLoad) continue;
    const uint32_t offset = r.u32(at + 4), vaddr = r.u32(at + 8), filesz = r.u32(at + 16),
                   memsz = r.u32(at + 20), flags = r.u32(at + 24);
    const std::string what = "segment " + std::to_string(i);
    if (filesz > memsz)
      r.fail(what + ": file size " + std::to_string(filesz) + " exceeds memory size " +
             std::to_string(memsz));
    if (uint64_t(vaddr) + memsz > (uint64_t(1) << 32))
      r.fail(what + " at " + hex(vaddr) + " with " + std::to_string(memsz) +
             " bytes wraps past the 32-bit address space");
    r.require(offset, filesz, 1, what);
    if (memsz == 0) continue;
    ElfSegment seg;
    seg.vaddr = vaddr;
    seg.mem_bytes = memsz;
    seg.bytes.assign(bytes.begin() + offset, bytes.begin() + offset + filesz);
    seg.executable = (flags & kFlagExecute) != 0;
    seg.writable = (flags & kFlagWrite) != 0;
    for (const ElfSegment& other : image.segments_)
      if (uint64_t(vaddr) < uint64_t(other.vaddr) + other.mem_bytes &&
          uint64_t(other.vaddr) < uint64_t(vaddr) + memsz)
        r.fail(what + " at " + hex(vaddr) + " overlaps the segment at " + hex(other.vaddr));
    image.segments_.push_back(std::move(seg));
  }

  if (shnum == 0) return image;
  if (shentsize != kSectionHeaderBytes)
    r.fail("section header entry size " + std::to_string(shentsize) + ", expected 40");
  r.require(shoff, shnum, kSectionHeaderBytes, "section header table");
  auto section = [&](uint32_t index) {
    const uint64_t at = uint64_t(shoff) + uint64_t(index) * kSectionHeaderBytes;
    return Section{r.u32(at + 4),  r.u32(at + 8),  r.u32(at + 12), r.u32(at + 16),
                   r.u32(at + 20), r.u32(at + 24), r.u32(at + 36)};
  };
  for (uint32_t i = 0; i < shnum; ++i) {
    const Section s = section(i);
    if ((s.flags & kSectionAlloc) == 0 || s.size == 0) continue;
    if (uint64_t(s.address) + s.size > (uint64_t(1) << 32))
      r.fail("section " + std::to_string(i) + " at " + hex(s.address) + " with " +
             std::to_string(s.size) + " bytes wraps past the 32-bit address space");
    if ((s.flags & kSectionExecute) != 0)
      image.code_sections_.push_back({s.address, s.size});
    else if ((s.flags & kSectionWrite) == 0 && s.type == kSectionProgbits)
      image.constant_sections_.push_back({s.address, s.size});
  }
  for (uint32_t i = 0; i < shnum; ++i) {
    const Section attributes = section(i);
    if (attributes.type != kSectionAttributes) continue;
    r.require(attributes.offset, attributes.size, 1,
              "attributes (section " + std::to_string(i) + ")");
    readAttributes(r, attributes.offset, attributes.size, image.machine_ == ElfMachine::kRiscV,
                   image.attributes_);
  }
  for (uint32_t i = 0; i < shnum; ++i) {
    const Section symtab = section(i);
    if (symtab.type != kSectionSymtab) continue;
    const std::string what = "symbol table (section " + std::to_string(i) + ")";
    if (symtab.entsize != kSymbolBytes)
      r.fail(what + ": entry size " + std::to_string(symtab.entsize) + ", expected 16");
    if (symtab.size % kSymbolBytes != 0)
      r.fail(what + ": size " + std::to_string(symtab.size) + " is not a multiple of 16");
    r.require(symtab.offset, symtab.size / kSymbolBytes, kSymbolBytes, what);
    if (symtab.link >= shnum)
      r.fail(what + ": string table index " + std::to_string(symtab.link) + " out of range");
    const Section strtab = section(symtab.link);
    if (strtab.type != kSectionStrtab)
      r.fail(what + ": linked section " + std::to_string(symtab.link) + " is not a string table");
    r.require(strtab.offset, strtab.size, 1,
              "string table (section " + std::to_string(symtab.link) + ")");
    for (uint32_t k = 1; k < symtab.size / kSymbolBytes; ++k) {
      const uint64_t at = uint64_t(symtab.offset) + uint64_t(k) * kSymbolBytes;
      const uint32_t name_offset = r.u32(at);
      const uint16_t shndx = r.u16(at + 14);
      if (shndx == 0 || name_offset == 0) continue;  // undefined or unnamed
      if (name_offset >= strtab.size)
        r.fail(what + ": symbol " + std::to_string(k) + " has name offset " +
               std::to_string(name_offset) + " past the string table");
      const auto first = bytes.begin() + strtab.offset + name_offset;
      const auto last = bytes.begin() + strtab.offset + strtab.size;
      const auto end = std::find(first, last, uint8_t(0));
      if (end == last) r.fail(what + ": symbol " + std::to_string(k) + " has an unterminated name");
      ElfSymbol sym;
      sym.name.assign(first, end);
      sym.value = r.u32(at + 4);
      sym.size = r.u32(at + 8);
      sym.function = (r.u8(at + 12) & 0xf) == kSymbolFunction;
      if (image.machine_ == ElfMachine::kArm && sym.function && (sym.value & 1) != 0) {
        sym.thumb = true;
        sym.value &= ~1u;
      }
      image.symbols_.push_back(std::move(sym));
    }
  }
  return image;
}

ElfImage ElfImage::fromFile(const std::string& path) {
  return parse(readFile(path, "ELF"), path);
}

std::optional<ElfSymbol> ElfImage::findSymbol(const std::string& name) const {
  std::optional<ElfSymbol> found;
  for (const ElfSymbol& s : symbols_) {
    if (s.name != name) continue;
    if (s.function) return s;
    if (!found) found = s;
  }
  return found;
}

ElfSymbol ElfImage::symbol(const std::string& name) const {
  std::optional<ElfSymbol> s = findSymbol(name);
  if (!s) throw InputError(name_ + ": no symbol '" + name + "'");
  return *s;
}

}  // namespace hilsim::iss
