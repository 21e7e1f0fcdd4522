// Guest loads from the counted model flash and guest stores to RAM, through Unicorn 2.0's memory
// paths at the cost of a plain memory access.
//
// Loads. The model flash is an MMIO region so that every guest load of it reaches hilsim, which
// charges its wait states. Unicorn's generated code sends such a load to its load helper
// (helper_ret_ldub_mmu and the like), which looks the page up again, asks Unicorn's map for the
// region, dispatches through QEMU's memory API and only then calls the region's read callback:
// about 35 ns a load, 7 million loads in person_detect. These definitions serve a naturally
// aligned load of counted flash themselves, from the same bytes with the same charge, and hand
// every other load to the library's helper. The helpers are bound through the table of load
// helpers the code generator calls.
//
// Stores. Unicorn 2.0 keeps no dirty-memory bitmap, so every page's TLB entry says "not dirty"
// and every guest store to RAM takes the slow path (notdirty_write), which searches the page for
// translated code to invalidate. After the library fills a TLB entry, these definitions mark it
// dirty (the library's tlb_set_dirty) when the page is guest-writable RAM that has never held
// code that ran: its stores then go straight to memory, as in QEMU with its bitmap. A writable
// page whose code is about to run for the first time has every TLB entry flushed and is never
// marked again, so stores to it keep invalidating its translated code. Write protection is
// unaffected: read-only regions are never marked.
//
// Unicorn calls these functions through its procedure linkage table and its helper table, so
// these definitions, which iss/CMakeLists.txt exports from every executable linking the ISS, are
// the ones it binds to when the library is loaded. Their signatures are Unicorn 2.0.1's: they are
// compiled only when the build found that release (HILSIM_UNICORN_OVERRIDES), and should another
// library be loaded at run time they only forward to its own functions. They run inside the
// engine's frames and never throw: the library functions they forward to are looked up before
// the Cpu creates its engine (FastPaths's constructor).

#include <unicorn/unicorn.h>

#include <algorithm>

#include "fast_paths.h"
#include "hilsim/base/log.h"
#include "hilsim/iss/cpu.h"
#include "lazy_libs.h"

namespace hilsim::iss {
namespace {

thread_local FastPaths* running_paths = nullptr;
thread_local uint64_t direct_store_pages = 0;

// QEMU 5.0's MemTxAttrs: 23 bits of bit-fields in one unsigned int, passed in a register.
struct MemTxAttrs {
  unsigned bits;
};
static_assert(sizeof(MemTxAttrs) == 4);

using TlbFlush = void (*)(void* cpu);
using TlbSetDirty = void (*)(void* cpu, uint32_t vaddr);
using LoadHelper = uint64_t (*)(void* env, uint32_t addr, uint32_t oi, uintptr_t retaddr);
using SetPage = void (*)(void* cpu, uint32_t vaddr, uint64_t paddr, MemTxAttrs attrs, int prot,
                         int mmu_idx, uint32_t size);
using StoreHalfword = void (*)(void* env, uint32_t addr, uint16_t val, uint32_t oi,
                               uintptr_t retaddr);
using StoreWord = void (*)(void* env, uint32_t addr, uint32_t val, uint32_t oi, uintptr_t retaddr);
// The code generator's guest load and store of up to 32 bits (tcg_gen_qemu_ld_i32 and
// tcg_gen_qemu_st_i32: context, value, address, MMU index, MemOp).
using GenerateAccess = void (*)(void* tcg_ctx, void* val, void* addr, uintptr_t idx,
                                uint32_t memop);

// QEMU 5.0's MemOp: the access size in bits 0-1 (1 = halfword, 2 = word), the alignment it
// demands in bits 4-6 (0 none, n: 2^n bytes, 7 its own size). TCGMemOpIdx holds it above the 4
// bits of the MMU index.
constexpr uint32_t kMemOpSize = 3;
constexpr uint32_t kMemOpAlignShift = 4;
constexpr uint32_t kMemOpAlignMask = 7u << kMemOpAlignShift;
constexpr uint32_t kMemOpIdxShift = 4;

// A halfword or word access whose alignment demand is its own size written out (2^1 or 2^2, as
// markAlignment writes it; the targets' own demands use 7).
bool markedAlignment(uint32_t memop) {
  const uint32_t size = memop & kMemOpSize;
  return (size == 1 || size == 2) && (memop & kMemOpAlignMask) >> kMemOpAlignShift == size;
}

// The library's own functions the definitions below call, per target library (Arm, RISC-V),
// looked up before the engine first runs: inside the engine nothing may throw.
struct EngineFunctions {
  TlbFlush tlb_flush;
  TlbSetDirty tlb_set_dirty;
#if HILSIM_UNICORN_OVERRIDES
  LoadHelper ldub, lduw, ldul;
  StoreHalfword stw;
  StoreWord stl;
  SetPage set_page;
  GenerateAccess generate_load, generate_store;
#endif
};
EngineFunctions engine_arm{}, engine_riscv32{};

#if HILSIM_UNICORN_OVERRIDES
EngineFunctions lookUp(const std::string& target) {
  EngineFunctions f{};
  f.tlb_flush = unicornFunction<TlbFlush>(("tlb_flush_" + target).c_str());
  f.tlb_set_dirty = unicornFunction<TlbSetDirty>(("tlb_set_dirty_" + target).c_str());
  f.ldub = unicornFunction<LoadHelper>(("helper_ret_ldub_mmu_" + target).c_str());
  f.lduw = unicornFunction<LoadHelper>(("helper_le_lduw_mmu_" + target).c_str());
  f.ldul = unicornFunction<LoadHelper>(("helper_le_ldul_mmu_" + target).c_str());
  f.stw = unicornFunction<StoreHalfword>(("helper_le_stw_mmu_" + target).c_str());
  f.stl = unicornFunction<StoreWord>(("helper_le_stl_mmu_" + target).c_str());
  f.set_page = unicornFunction<SetPage>(("tlb_set_page_with_attrs_" + target).c_str());
  f.generate_load = unicornFunction<GenerateAccess>(("tcg_gen_qemu_ld_i32_" + target).c_str());
  f.generate_store = unicornFunction<GenerateAccess>(("tcg_gen_qemu_st_i32_" + target).c_str());
  return f;
}

// Looks the library's functions up once; throws ConfigError when one is missing.
void resolveEngineFunctions() {
  static const bool resolved = [] {
    engine_arm = lookUp("arm");
    engine_riscv32 = lookUp("riscv32");
    return true;
  }();
  (void)resolved;
}
#endif

uint32_t pageOf(uint32_t address) {
  return address / Cpu::kPageBytes;
}

// The engine release the loaded library reports, as major.minor.patch.
std::string engineVersion() {
  const unsigned packed = uc_version(nullptr, nullptr);
  return std::to_string(packed >> 24) + "." + std::to_string(packed >> 16 & 0xff) + "." +
         std::to_string(packed >> 8 & 0xff);
}

}  // namespace

thread_local uint64_t FastPaths::served_loads_ = 0;

bool FastPaths::enabled() {
  static const bool on = [] {
    const std::string loaded = engineVersion();
#if HILSIM_UNICORN_OVERRIDES
    const std::string built = std::to_string(UC_API_MAJOR) + "." + std::to_string(UC_API_MINOR) +
                              "." + std::to_string(UC_API_PATCH);
    const bool same = loaded == built;
    if (same)
      log::get("iss")->debug("Unicorn {}: the engine overrides are active (fast paths)", loaded);
    else
      log::get("iss")->debug(
          "Unicorn {} loaded, the engine overrides are built for {}: they are off, the engine's "
          "own paths run",
          loaded, built);
    return same;
#else
    log::get("iss")->debug(
        "Unicorn {}: the engine overrides are not built, the engine's own paths run", loaded);
    return false;
#endif
  }();
  return on;
}

FastPaths* FastPaths::running() {
  return running_paths;
}

FastPaths::FastPaths(bool riscv, uint64_t& cycles) : riscv_(riscv), cycles_(cycles) {
#if HILSIM_UNICORN_OVERRIDES
  // The definitions below forward to these whether or not the fast paths are on, from the first
  // call into the engine on.
  resolveEngineFunctions();
#endif
}

FastPaths::Running::Running(FastPaths& paths) : outer_(running_paths) {
  if (enabled()) running_paths = &paths;
}

FastPaths::Running::~Running() {
  running_paths = outer_;
}

void FastPaths::addCounted(uint32_t base, uint64_t bytes, const uint8_t* data,
                           int64_t extra_cycles) {
  counted_.push_back({base, uint32_t(bytes), data, extra_cycles});
}

void FastPaths::addWritable(uint32_t base, uint64_t bytes) {
  writable_.emplace_back(base, bytes);
}

void FastPaths::removeRegion(uint32_t base) {
  counted_.erase(std::remove_if(counted_.begin(), counted_.end(),
                                [&](const Counted& r) { return r.base == base; }),
                 counted_.end());
  writable_.erase(std::remove_if(writable_.begin(), writable_.end(),
                                 [&](const auto& r) { return r.first == base; }),
                  writable_.end());
}

bool FastPaths::storesSkipCodeSearch(uint32_t address) const {
  for (const auto& [base, bytes] : writable_)
    if (address - base < bytes) return code_pages_.count(pageOf(address)) == 0;
  return false;
}

void FastPaths::afterTlbFill(void* engine_cpu, uint32_t address) {
  engine_cpu_ = engine_cpu;
  if (!storesSkipCodeSearch(address)) return;
  (riscv_ ? engine_riscv32 : engine_arm).tlb_set_dirty(engine_cpu, address);
  ++direct_store_pages;
}

void FastPaths::noteCode(uint32_t address, uint32_t bytes) {
  bool flush = false;
  for (uint32_t page = pageOf(address); page <= pageOf(address + std::max(bytes, 1u) - 1); ++page)
    if (storesSkipCodeSearch(page * Cpu::kPageBytes)) {
      code_pages_.insert(page);
      flush = true;
    }
  if (!flush || engine_cpu_ == nullptr) return;
  (riscv_ ? engine_riscv32 : engine_arm).tlb_flush(engine_cpu_);
}

uint64_t FastPaths::servedLoads() {
  return served_loads_;
}

uint64_t FastPaths::directStorePages() {
  return direct_store_pages;
}

uint32_t FastPaths::markAlignment(uint32_t memop) const {
  const uint32_t size = memop & kMemOpSize;
  const bool costs = unaligned_.faults || unaligned_.word_extra_cycles[1] != 0 ||
                     unaligned_.halfword_extra_cycles[1] != 0;
  if (!costs || (size != 1 && size != 2) || (memop & kMemOpAlignMask) != 0) return memop;
  return memop | size << kMemOpAlignShift;
}

uint32_t FastPaths::unalignedAccess(uint32_t address, uint32_t oi, unsigned bytes,
                                    bool store) noexcept {
  if (address % bytes == 0 || !markedAlignment(oi >> kMemOpIdxShift)) return oi;
  if (unaligned_.faults) {
    if (!fault_.raised) fault_ = {true, address, bytes, store};
    return oi;
  }
  cycles_ += bytes == 4 ? unaligned_.word_extra_cycles[address % 4]
                        : unaligned_.halfword_extra_cycles[address % 2];
  return oi & ~(kMemOpAlignMask << kMemOpIdxShift);
}

}  // namespace hilsim::iss

#if HILSIM_UNICORN_OVERRIDES
namespace {

using hilsim::iss::engine_arm;
using hilsim::iss::engine_riscv32;
using hilsim::iss::MemTxAttrs;

// The alignment a load's memory operation demands, in address bits (QEMU 5.0's MemOp, held in
// TCGMemOpIdx above the 4 bits of MMU index: size in bits 0-1, alignment in bits 4-6, where 7
// means the access's own size).
bool aligned(uint32_t addr, uint32_t oi, unsigned bytes) {
  const uint32_t memop = oi >> 4;
  const uint32_t a = (memop >> 4) & 7;
  const uint32_t align_bits = a == 7 ? (memop & 3) : a;
  return (addr & (bytes - 1)) == 0 && (addr & ((1u << align_bits) - 1)) == 0;
}

}  // namespace

// One load helper of one of Unicorn's target libraries.
#define HILSIM_LOAD_HELPER(prefix, name, target, bytes)                                   \
  uint64_t helper_##prefix##_##name##_mmu_##target(void* env, uint32_t addr, uint32_t oi, \
                                                   uintptr_t retaddr) noexcept {          \
    using namespace hilsim::iss;                                                          \
    uint64_t value;                                                                       \
    if (FastPaths* p = FastPaths::running()) {                                            \
      if (bytes > 1) oi = p->unalignedAccess(addr, oi, bytes, false);                     \
      if (aligned(addr, oi, bytes) && p->countedLoad(addr, bytes, value)) return value;   \
    }                                                                                     \
    return engine_##target.name(env, addr, oi, retaddr);                                  \
  }

// One store helper: unaligned halfword and word stores.
#define HILSIM_STORE_HELPER(name, target, type, bytes)                                       \
  void helper_le_##name##_mmu_##target(void* env, uint32_t addr, type val, uint32_t oi,      \
                                       uintptr_t retaddr) noexcept {                         \
    using namespace hilsim::iss;                                                             \
    if (FastPaths* p = FastPaths::running()) oi = p->unalignedAccess(addr, oi, bytes, true); \
    engine_##target.name(env, addr, val, oi, retaddr);                                       \
  }

// The code generator's guest accesses of up to 32 bits, with the alignment the running core
// needs to see (FastPaths::markAlignment).
#define HILSIM_GENERATE_ACCESS(kind, name, target)                                             \
  void tcg_gen_qemu_##kind##_i32_##target(void* tcg_ctx, void* val, void* addr, uintptr_t idx, \
                                          uint32_t memop) noexcept {                           \
    using namespace hilsim::iss;                                                               \
    if (FastPaths* p = FastPaths::running()) memop = p->markAlignment(memop);                  \
    engine_##target.name(tcg_ctx, val, addr, idx, memop);                                      \
  }

#define HILSIM_FAST_PATHS(target)                                                  \
  HILSIM_LOAD_HELPER(ret, ldub, target, 1)                                         \
  HILSIM_LOAD_HELPER(le, lduw, target, 2)                                          \
  HILSIM_LOAD_HELPER(le, ldul, target, 4)                                          \
  HILSIM_STORE_HELPER(stw, target, uint16_t, 2)                                    \
  HILSIM_STORE_HELPER(stl, target, uint32_t, 4)                                    \
  HILSIM_GENERATE_ACCESS(ld, generate_load, target)                                \
  HILSIM_GENERATE_ACCESS(st, generate_store, target)                               \
  void tlb_set_page_with_attrs_##target(void* cpu, uint32_t vaddr, uint64_t paddr, \
                                        MemTxAttrs attrs, int prot, int mmu_idx,   \
                                        uint32_t size) noexcept {                  \
    using namespace hilsim::iss;                                                   \
    engine_##target.set_page(cpu, vaddr, paddr, attrs, prot, mmu_idx, size);       \
    if (FastPaths* p = FastPaths::running()) p->afterTlbFill(cpu, vaddr);          \
  }

extern "C" {
HILSIM_FAST_PATHS(arm)
HILSIM_FAST_PATHS(riscv32)
}  // extern "C"
#endif  // HILSIM_UNICORN_OVERRIDES
