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
// the ones it binds to when the library is loaded. Under any Unicorn other than 2.0 they only
// forward to the library's own.

#include <unicorn/unicorn.h>

#include <algorithm>

#include "fast_paths.h"
#include "hilsim/iss/cpu.h"
#include "lazy_libs.h"

namespace hilsim::iss {
namespace {

thread_local FastPaths* running_paths = nullptr;
thread_local uint64_t direct_store_pages = 0;

using TlbFlush = void (*)(void* cpu);
using TlbSetDirty = void (*)(void* cpu, uint32_t vaddr);

uint32_t pageOf(uint32_t address) {
  return address / Cpu::kPageBytes;
}

}  // namespace

thread_local uint64_t FastPaths::served_loads_ = 0;

bool FastPaths::enabled() {
  static const bool on = [] {
    unsigned major = 0, minor = 0;
    uc_version(&major, &minor);
    return major == 2 && minor == 0;
  }();
  return on;
}

FastPaths* FastPaths::running() {
  return running_paths;
}

FastPaths::Running::Running(FastPaths& paths) : outer_(running_paths) {
  if (enabled()) running_paths = &paths;
}

FastPaths::Running::~Running() {
  running_paths = outer_;
}

void FastPaths::addCounted(uint32_t base, uint64_t bytes, const uint8_t* data) {
  counted_.push_back({base, uint32_t(bytes), data});
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
  static const auto set_dirty = unicornFunction<TlbSetDirty>("tlb_set_dirty_arm");
  static const auto set_dirty_riscv = unicornFunction<TlbSetDirty>("tlb_set_dirty_riscv32");
  (riscv_ ? set_dirty_riscv : set_dirty)(engine_cpu, address);
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
  static const auto tlb_flush = unicornFunction<TlbFlush>("tlb_flush_arm");
  static const auto tlb_flush_riscv = unicornFunction<TlbFlush>("tlb_flush_riscv32");
  (riscv_ ? tlb_flush_riscv : tlb_flush)(engine_cpu_);
}

uint64_t FastPaths::servedLoads() {
  return served_loads_;
}

uint64_t FastPaths::directStorePages() {
  return direct_store_pages;
}

}  // namespace hilsim::iss

namespace {

// QEMU 5.0's MemTxAttrs: 23 bits of bit-fields in one unsigned int, passed in a register.
struct MemTxAttrs {
  unsigned bits;
};
static_assert(sizeof(MemTxAttrs) == 4);

using LoadHelper = uint64_t (*)(void* env, uint32_t addr, uint32_t oi, uintptr_t retaddr);
using SetPage = void (*)(void* cpu, uint32_t vaddr, uint64_t paddr, MemTxAttrs attrs, int prot,
                         int mmu_idx, uint32_t size);

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
#define HILSIM_LOAD_HELPER(name, target, bytes)                                            \
  uint64_t helper_##name##_mmu_##target(void* env, uint32_t addr, uint32_t oi,             \
                                        uintptr_t retaddr) {                               \
    using namespace hilsim::iss;                                                           \
    uint64_t value;                                                                        \
    if (FastPaths* p = FastPaths::running();                                               \
        p != nullptr && aligned(addr, oi, bytes) && p->countedLoad(addr, bytes, value))    \
      return value;                                                                        \
    static const auto real = unicornFunction<LoadHelper>("helper_" #name "_mmu_" #target); \
    return real(env, addr, oi, retaddr);                                                   \
  }

#define HILSIM_FAST_PATHS(target)                                                                 \
  HILSIM_LOAD_HELPER(ret_ldub, target, 1)                                                         \
  HILSIM_LOAD_HELPER(le_lduw, target, 2)                                                          \
  HILSIM_LOAD_HELPER(le_ldul, target, 4)                                                          \
  void tlb_set_page_with_attrs_##target(void* cpu, uint32_t vaddr, uint64_t paddr,                \
                                        MemTxAttrs attrs, int prot, int mmu_idx, uint32_t size) { \
    using namespace hilsim::iss;                                                                  \
    static const auto real = unicornFunction<SetPage>("tlb_set_page_with_attrs_" #target);        \
    real(cpu, vaddr, paddr, attrs, prot, mmu_idx, size);                                          \
    if (FastPaths* p = FastPaths::running()) p->afterTlbFill(cpu, vaddr);                         \
  }

extern "C" {
HILSIM_FAST_PATHS(arm)
HILSIM_FAST_PATHS(riscv32)
}  // extern "C"
