// Guest stores under Unicorn 2.0 at the cost later Unicorn releases give them.
//
// Unicorn 2.0 keeps no dirty-memory bitmap, so every guest store to RAM takes the engine's slow
// path (notdirty_write), which looks for translated code on the page to invalidate. On the way it
// calls page_collection_lock(), which allocates a tree of the pages to lock, and
// page_collection_unlock(), which frees it: a malloc and a free per guest store, about a third of
// an ISS run's host time. The page locks the collection would hold are compiled out of Unicorn (it
// runs one vCPU), and on targets without precise self-modifying-code handling (Arm and RISC-V;
// only x86 has it) the collection is handed along unused, so later Unicorn releases return NULL
// from page_collection_lock() and do nothing in page_collection_unlock(). The search for
// translated code and its invalidation (tb_invalidate_phys_page_fast) are untouched.
//
// Unicorn calls both functions through its procedure linkage table, so these definitions, which
// iss/CMakeLists.txt exports from every executable linking the ISS, are the ones it binds to when
// the library is loaded. They skip the collection only under Unicorn 2.0, whose code they match;
// under any other version they forward to the library's own functions.

#include <unicorn/unicorn.h>

#include <cstdint>

#include "lazy_libs.h"

namespace hilsim::iss {
namespace {

thread_local uint64_t skipped_collections = 0;

bool skipCollection() {
  if (!pageCollectionsSkipped()) return false;
  ++skipped_collections;
  return true;
}

using LockFunction = void* (*)(void* uc, uint64_t start, uint64_t end);
using UnlockFunction = void (*)(void* collection);

}  // namespace

bool pageCollectionsSkipped() {
  static const bool skip = [] {
    unsigned major = 0, minor = 0;
    uc_version(&major, &minor);
    return major == 2 && minor == 0;
  }();
  return skip;
}

uint64_t skippedPageCollections() {
  return skipped_collections;
}

}  // namespace hilsim::iss

// The pair of definitions for one of Unicorn's target libraries (tb_page_addr_t is a 64-bit
// ram_addr_t in every Unicorn 2 build).
#define HILSIM_PAGE_COLLECTION(target)                                                           \
  void* page_collection_lock_##target(void* uc, uint64_t start, uint64_t end) {                  \
    using namespace hilsim::iss;                                                                 \
    if (skipCollection()) return nullptr;                                                        \
    static const auto real = unicornFunction<LockFunction>("page_collection_lock_" #target);     \
    return real(uc, start, end);                                                                 \
  }                                                                                              \
  void page_collection_unlock_##target(void* collection) {                                       \
    using namespace hilsim::iss;                                                                 \
    if (collection == nullptr) return;                                                           \
    static const auto real = unicornFunction<UnlockFunction>("page_collection_unlock_" #target); \
    real(collection);                                                                            \
  }

extern "C" {
HILSIM_PAGE_COLLECTION(arm)
HILSIM_PAGE_COLLECTION(riscv32)
}  // extern "C"
