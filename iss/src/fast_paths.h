#pragma once
// What src/unicorn_fast_paths.cpp needs to know of the Cpu whose engine runs on this thread: the
// counted model flash it serves loads from, and the RAM whose stores may skip the engine's search
// for translated code. Private to the library.

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

namespace hilsim::iss {

class FastPaths {
 public:
  // Whether src/unicorn_fast_paths.cpp takes its shortcuts: when its overrides were built (the
  // build found the Unicorn release they match) and that release is the one loaded. Says which
  // once, at debug level, on the "iss" logger.
  static bool enabled();

  // The fast paths of the Cpu whose engine runs on this thread, or null (also when not enabled).
  static FastPaths* running();

  // Makes `paths` the running ones on this thread for its lifetime.
  class Running {
   public:
    explicit Running(FastPaths& paths);
    ~Running();
    Running(const Running&) = delete;
    Running& operator=(const Running&) = delete;

   private:
    FastPaths* outer_;
  };

  // Looks up the library functions the engine overrides forward to (throws ConfigError when the
  // library lacks one), before the engine exists.
  FastPaths(bool riscv, uint64_t& cycles);

  // Model flash whose every guest load costs `extra_cycles` beyond the block's SRAM access.
  void addCounted(uint32_t base, uint64_t bytes, const uint8_t* data, int64_t extra_cycles);
  // Guest-writable RAM.
  void addWritable(uint32_t base, uint64_t bytes);
  // Forgets the counted or writable region at `base`.
  void removeRegion(uint32_t base);

  // Serves a naturally aligned load of 1, 2 or 4 bytes from counted flash: charges its cycles and
  // returns true, or returns false when `address` is not in counted flash.
  bool countedLoad(uint32_t address, unsigned bytes, uint64_t& value) {
    for (const Counted& r : counted_) {
      const uint32_t offset = address - r.base;
      if (offset >= r.bytes) continue;
      const uint8_t* p = r.data + offset;  // aligned in a region of whole pages: all there
      if (bytes == 1) {
        value = *p;
      } else if (bytes == 2) {
        uint16_t v;
        __builtin_memcpy(&v, p, 2);
        value = v;
      } else {
        uint32_t v;
        __builtin_memcpy(&v, p, 4);
        value = v;
      }
      cycles_ += uint64_t(r.extra_cycles);
      ++served_loads_;
      return true;
    }
    return false;
  }

  // Unaligned halfword and word accesses. On a core without them (Armv6-M, and RV32I without
  // misaligned support in hardware: the E31 traps) the engine raises the core's exception and
  // unalignedFault() describes the access. On a core with them, each costs `extra_cycles` for
  // its alignment: [address % 4] for a word, [address % 2] for a halfword (Cortex-M4 TRM).
  struct UnalignedRule {
    bool faults = false;
    uint8_t word_extra_cycles[4] = {};
    uint8_t halfword_extra_cycles[2] = {};
  };
  void setUnalignedRule(const UnalignedRule& rule) { unaligned_ = rule; }
  // The memory operation the engine should generate for a guest access (QEMU 5.0's MemOp): a
  // halfword or word access the guest may make at any address demands its natural alignment, so
  // that only unaligned ones leave the generated code, for unalignedAccess() to see. Accesses
  // that already demand an alignment, and byte accesses, are kept.
  uint32_t markAlignment(uint32_t memop) const;
  // An access that left the generated code; `oi` is its operation and MMU index (TCGMemOpIdx).
  // Returns the `oi` to carry on with: on a core that allows it, a marked unaligned access is
  // charged and goes on without the alignment demand; on one that does not, it is recorded and
  // keeps the demand, so that the engine raises the core's exception.
  uint32_t unalignedAccess(uint32_t address, uint32_t oi, unsigned bytes, bool store) noexcept;
  // The access that faulted in the current run, if any; forgotten by clearUnalignedFault().
  struct UnalignedFault {
    bool raised = false;
    uint32_t address = 0;
    unsigned bytes = 0;
    bool store = false;
  };
  const UnalignedFault& unalignedFault() const { return fault_; }
  void clearUnalignedFault() { fault_ = {}; }

  // The engine filled its TLB for the page at `address`: stores to writable RAM holding no
  // translated code go straight to memory from now on.
  void afterTlbFill(void* engine_cpu, uint32_t address);

  // Code at [address, address + bytes) is about to run for the first time. A writable page it
  // lies on gets its stores checked for translated code again.
  void noteCode(uint32_t address, uint32_t bytes);

  // Counters for tests: loads served from counted flash, and TLB entries whose stores skip the
  // search for translated code.
  static uint64_t servedLoads();
  static uint64_t directStorePages();

 private:
  struct Counted {
    uint32_t base;
    uint32_t bytes;
    const uint8_t* data;
    int64_t extra_cycles;
  };
  bool storesSkipCodeSearch(uint32_t address) const;

  bool riscv_;
  uint64_t& cycles_;
  std::vector<Counted> counted_;
  std::vector<std::pair<uint32_t, uint64_t>> writable_;  // base, bytes
  std::unordered_set<uint32_t> code_pages_;              // writable pages that held code
  void* engine_cpu_ = nullptr;                           // the engine's CPUState
  UnalignedRule unaligned_;
  UnalignedFault fault_;
  static thread_local uint64_t served_loads_;
};

}  // namespace hilsim::iss
