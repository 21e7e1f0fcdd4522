#pragma once
// Cpu's state and its engine callbacks, shared by cpu.cpp (the engine and the run loop) and
// cpu_memory.cpp (its memories and ELF loading). Private to the library.

#include "hilsim/iss/cpu.h"

#include <unicorn/unicorn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "block_timing.h"
#include "fast_paths.h"
#include "flash_system.h"
#include "hilsim/errors.h"
#include "hilsim/iss/memory_map.h"

namespace hilsim::iss {

constexpr uint32_t kArmStackFrameBytes = 32;  // r0-r3, r12, lr, pc, xpsr stacked on exception entry
constexpr uint32_t kRiscVTrapFrameBytes = 64;  // 16 caller-saved registers saved by a trap wrapper
constexpr size_t kFastSlots = 1 << 16;

inline std::string hex(uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%08llx", static_cast<unsigned long long>(v));
  return text;
}

inline uint64_t roundUpToPage(uint64_t bytes) {
  return (bytes + Cpu::kPageBytes - 1) / Cpu::kPageBytes * Cpu::kPageBytes;
}

struct AlignedFree {
  void operator()(uint8_t* p) const { std::free(p); }
};
using PageBuffer = std::unique_ptr<uint8_t, AlignedFree>;

inline PageBuffer allocatePages(uint64_t bytes) {
  void* p = std::aligned_alloc(Cpu::kPageBytes, bytes);
  if (p == nullptr) throw std::bad_alloc();
  std::memset(p, 0, bytes);
  return PageBuffer(static_cast<uint8_t*>(p));
}

struct Cpu::Impl {
  struct Frame {
    uc_context* outer = nullptr;  // registers of the call suspended below this one
    uint32_t resume_pc = 0;
    uint64_t instructions_used = 0;
    const BlockTiming* prev = nullptr;
    bool interrupt = false;
  };
  struct CountedRegion {
    Impl* impl;
    uint32_t base;
    uint64_t bytes;
    PageBuffer data;
  };
  struct MmioBinding {
    Impl* impl;
    uint32_t base;
    uint64_t bytes;
    MmioHandler* handler;
  };
  struct Slot {
    uint64_t key = std::numeric_limits<uint64_t>::max();
    const BlockTiming* block = nullptr;
  };

  CpuOptions options;
  const CoreInfo& info;
  bool riscv;
  uc_engine* uc = nullptr;
  std::unique_ptr<ThumbTiming> thumb;

  std::unordered_map<uint64_t, std::unique_ptr<BlockTiming>> blocks;
  std::vector<Slot> fast = std::vector<Slot>(kFastSlots);
  std::unordered_set<uint32_t> hooked_divides;
  std::unordered_map<uint32_t, DivideSite> divides;
  std::optional<E31Predictor> predictor;  // RISC-V only

  uint64_t cycles = 0;
  uint64_t instructions = 0;
  const BlockTiming* prev = nullptr;
  uint64_t instruction_limit = std::numeric_limits<uint64_t>::max();
  // setPauseInterval(): a call stops (as if requested) once it has run this many instructions
  // since it started or resumed; 0: never. pause_limit is where the current run stops for it.
  uint64_t pause_interval = 0;
  uint64_t pause_limit = std::numeric_limits<uint64_t>::max();
  bool running = false;
  bool stop_requested = false;
  bool stopped_by_request = false;
  bool runaway = false;
  std::string pending_fault;
  // An exception a callback caught, rethrown once the engine has returned.
  std::exception_ptr pending_error;
  int invalid_access_type = -1;
  uint64_t invalid_access_address = 0;

  std::vector<Frame> frames;
  std::vector<std::pair<uint32_t, PageBuffer>> owned;  // by base
  std::vector<std::unique_ptr<CountedRegion>> counted;
  std::vector<std::unique_ptr<MmioBinding>> mmios;
  FlashSystem flash;
  FastPaths paths;

  explicit Impl(const CpuOptions& o)
      : options(o),
        info(coreInfo(o.core)),
        riscv(o.core == Core::kRv32im),
        flash(o.memory.flash, o.memory.flash_wait_states, o.memory.sram_wait_states),
        paths(riscv, cycles, flash) {
    paths.setUnalignedRule(unalignedRule(o.core));
    if (riscv) predictor.emplace(predictorSizes(o));
  }

  // The options' branch predictor, or the core's own when they give none.
  static BranchPredictorOptions predictorSizes(const CpuOptions& o) {
    return o.branch_predictor.history_entries != 0 ? o.branch_predictor
                                                   : coreInfo(o.core).branch_predictor;
  }

  // What an unaligned halfword or word access does on `core` (iss/README.md).
  static FastPaths::UnalignedRule unalignedRule(Core core) {
    FastPaths::UnalignedRule rule;
    switch (core) {
      case Core::kCortexM0Plus:  // Armv6-M: always a HardFault
      case Core::kRv32im:        // the E31 traps (load/store address misaligned)
        rule.faults = true;
        break;
      case Core::kCortexM4F:  // Cortex-M4 TRM, load/store timings: split into aligned parts
      case Core::kCortexM33:  // timed as the Cortex-M4
        rule.word_extra_cycles[1] = rule.word_extra_cycles[3] = 2;  // byte, halfword, byte
        rule.word_extra_cycles[2] = 1;                              // two halfwords
        rule.halfword_extra_cycles[1] = 1;                          // two bytes
        break;
    }
    return rule;
  }

  ~Impl() {
    for (Frame& f : frames)
      if (f.outer) uc_context_free(f.outer);
    if (uc) uc_close(uc);
  }

  [[noreturn]] void engineError(const std::string& what, uc_err err) const {
    throw InputError(what + ": " + uc_strerror(err));
  }

  uint32_t reg(int id) const {
    uint32_t v = 0;
    uc_reg_read(uc, id, &v);
    return v;
  }
  void setReg(int id, uint32_t v) { uc_reg_write(uc, id, &v); }
  int regId(unsigned n) const {
    if (riscv) return UC_RISCV_REG_X0 + int(n);
    if (n < 13) return UC_ARM_REG_R0 + int(n);
    return n == 13 ? UC_ARM_REG_SP : n == 14 ? UC_ARM_REG_LR : UC_ARM_REG_PC;
  }
  uint32_t pc() const { return reg(riscv ? int(UC_RISCV_REG_PC) : int(UC_ARM_REG_PC)); }
  int spId() const { return riscv ? int(UC_RISCV_REG_SP) : int(UC_ARM_REG_SP); }

  // ---- timing -------------------------------------------------------------------------------

  const BlockTiming* block(uint32_t address, uint32_t size) {
    const uint64_t key = uint64_t(address) << 32 | size;
    if (prev != nullptr) {
      BlockTiming::Successor* next = prev->successors;
      if (next[0].key == key) return next[0].block;
      if (next[1].key == key) {
        std::swap(next[0], next[1]);
        return next[0].block;
      }
      next[1] = next[0];
      next[0] = edge(*prev, key, lookup(key, address, size));
      return next[0].block;
    }
    return lookup(key, address, size);
  }

  // Cortex-M: what entering block `b` after block `p` adds to its base cycles: when `b` is not
  // p's fall-through, p's taken-branch refill and b's non-sequential entry.
  static uint32_t armEntryCycles(const BlockTiming& p, const BlockTiming& b, bool sequential) {
    return sequential ? 0 : p.taken_cycles + b.nonseq_entry_cycles;
  }

  // The successor entry of block `b` (found by `key`) after block `p`: on Cortex-M with what
  // following `p` costs, as far as that is known in advance (armBlockHook()).
  BlockTiming::Successor edge(const BlockTiming& p, uint64_t key, const BlockTiming* b) const {
    BlockTiming::Successor e;
    e.key = key;
    e.block = b;
    if (riscv) return e;
    e.sequential = uint32_t(key >> 32) == p.fallthrough;
    e.instructions = b->instructions;
    uint32_t flash_cycles = 0, line_reads = 0;
    FlashSystem::Edge kind =
        flash.edge(p, *b, e.sequential, flash_cycles, line_reads, e.flash_last_line);
    if (line_reads > std::numeric_limits<uint16_t>::max()) {
      kind = FlashSystem::kWalk;
      flash_cycles = line_reads = 0;
    }
    e.flash = kind;
    e.flash_line_reads = uint16_t(line_reads);
    e.cycles = b->base_cycles + flash_cycles + armEntryCycles(p, *b, e.sequential);
    return e;
  }

  const BlockTiming* lookup(uint64_t key, uint32_t address, uint32_t size) {
    Slot& slot = fast[(address >> 1 ^ size) & (kFastSlots - 1)];
    if (slot.key == key) return slot.block;
    auto it = blocks.find(key);
    if (it == blocks.end()) it = blocks.emplace(key, analyze(address, size)).first;
    slot = {key, it->second.get()};
    return slot.block;
  }

  std::unique_ptr<BlockTiming> analyze(uint32_t address, uint32_t size) {
    std::vector<uint8_t> code(size);
    uc_mem_read(uc, address, code.data(), size);
    std::vector<DivideSite> sites;
    const DivideHooked hooked = [this](uint32_t a) { return hooked_divides.count(a) != 0; };
    auto b = std::make_unique<BlockTiming>(
        riscv ? analyzeRiscV(options, address, code.data(), size, hooked, sites)
              : thumb->analyze(address, code.data(), size, hooked, sites));
    for (const DivideSite& s : sites) divides[s.address] = s;
    if (inFlashCode(address)) {
      b->fetch_first_line = flash.lineOf(address);
      b->fetch_lines = flash.lineOf(address + std::max(size, 1u) - 1) - b->fetch_first_line + 1;
    }
    for (uint32_t a : b->literal_addresses) b->literal_lines.push_back(flash.lineOf(a));
    b->uses_flash = b->fetch_lines != 0 || !b->literal_lines.empty();
    b->literal_count = uint16_t(b->literal_lines.size());
    paths.noteCode(address, size);
    return b;
  }

  // A result of the previous block still in flight when this one reads it (E31).
  static uint32_t crossBlockStall(const BlockTiming& p, const BlockTiming& b, uint32_t mask,
                                  uint32_t gap) {
    uint32_t stall = 0;
    for (; mask != 0; mask &= mask - 1) {
      const int r = __builtin_ctz(mask);
      const int32_t s = int32_t(p.tail_cycles[r]) - int32_t(gap) - int32_t(b.head_cycles[r]);
      if (s > int32_t(stall)) stall = uint32_t(s);
    }
    return stall;
  }

  void onBlock(uint32_t address, uint32_t size) {
    if (stop_requested) {
      stop_requested = false;
      stopped_by_request = true;
      uc_emu_stop(uc);
      return;
    }
    const BlockTiming* b = block(address, size);
    if (instructions + b->instructions > instruction_limit) {
      if (instruction_limit == pause_limit)
        stopped_by_request = true;
      else
        runaway = true;
      uc_emu_stop(uc);
      return;
    }
    const bool sequential = prev != nullptr && address == prev->fallthrough;
    // Fetching the block's lines (and its literal loads) through the flash memory system.
    const uint32_t fetch = b->uses_flash ? flash.blockCycles(*b, sequential) : 0;
    uint64_t c = b->base_cycles + (riscv ? 0 : fetch);
    if (const BlockTiming* p = prev) {
      if (riscv) {
        const uint32_t gap = (sequential ? 0 : b->nonseq_entry_cycles) + fetch +
                             predictor->penaltyCycles(*p, address, sequential);
        c += gap;
        if (const uint32_t mask = p->tail_mask & b->head_mask)
          c += crossBlockStall(*p, *b, mask, gap);
      } else {
        c += armEntryCycles(*p, *b, sequential);
      }
    } else if (riscv) {
      c += fetch;
    }
    cycles += c;
    instructions += b->instructions;
    prev = b;
  }

  void onDivide(uint32_t address) {
    auto it = divides.find(address);
    if (it == divides.end()) return;
    const DivideSite& s = it->second;
    const uint32_t dividend = reg(regId(s.dividend_reg)), divisor = reg(regId(s.divisor_reg));
    if (riscv) {
      const uint32_t latency = e31DivideLatency(dividend, divisor, s.is_signed);
      if (latency > s.slack_cycles) cycles += latency - s.slack_cycles;
    } else {
      cycles += armDivideCycles(dividend, divisor, s.is_signed) - 2;
    }
  }

  void fail(const std::string& message) {
    if (pending_fault.empty()) pending_fault = message;
    stop_requested = true;
  }

  // ---- callbacks (C entry points; exceptions must not cross Unicorn) ------------------------

  // Keeps the exception being handled for run() to rethrow, and stops the engine.
  void stopWithCurrentException() noexcept {
    if (!pending_error) pending_error = std::current_exception();
    stop_requested = true;
    uc_emu_stop(uc);
  }

  static void blockHook(uc_engine*, uint64_t address, uint32_t size, void* user) noexcept {
    Impl& s = *static_cast<Impl*>(user);
    try {
      s.onBlock(uint32_t(address), size);
    } catch (...) {
      s.stopWithCurrentException();
    }
  }
  // Cortex-M: a block that follows the previous one as last time costs what their edge says
  // (edge()) and the flash system's part of it not known in advance; every other case is
  // onBlock()'s.
  static void armBlockHook(uc_engine* engine, uint64_t address, uint32_t size,
                           void* user) noexcept {
    Impl& s = *static_cast<Impl*>(user);
    if (const BlockTiming* p = s.prev) {
      // Either successor (a branch that goes both ways keeps both; their order is only which
      // one a new successor replaces).
      const uint64_t key = uint64_t(uint32_t(address)) << 32 | size;
      const BlockTiming::Successor& e =
          p->successors[0].key == key ? p->successors[0] : p->successors[1];
      const uint64_t instructions = s.instructions + e.instructions;
      if (e.key == key && instructions <= s.instruction_limit && !s.stop_requested) {
        uint64_t c = e.cycles;
        bool followed = true;
        switch (e.flash) {
          case FlashSystem::kNoFetch:
            break;
          case FlashSystem::kWalk:
            c += s.flash.blockCycles(*e.block, e.sequential);
            break;
          case FlashSystem::kFixed:
            s.flash.followFixed(e.flash_line_reads);
            break;
          default:
            followed = s.flash.followEdge(*p, *e.block, FlashSystem::Edge(e.flash),
                                          e.flash_line_reads, e.flash_last_line, c);
        }
        if (followed) {
          s.cycles += c;
          s.instructions = instructions;
          s.prev = e.block;
          return;
        }
      }
    }
    otherBlock(engine, address, size, user);
  }
  // Kept out of line, so that armBlockHook() itself stays small.
  [[gnu::noinline]] static void otherBlock(uc_engine* engine, uint64_t address, uint32_t size,
                                           void* user) noexcept {
    blockHook(engine, address, size, user);
  }
  static void divideHook(uc_engine*, uint64_t address, uint32_t, void* user) noexcept {
    Impl& s = *static_cast<Impl*>(user);
    try {
      s.onDivide(uint32_t(address));
    } catch (...) {
      s.stopWithCurrentException();
    }
  }
  static bool invalidHook(uc_engine*, uc_mem_type type, uint64_t address, int, int64_t,
                          void* user) noexcept {
    Impl& s = *static_cast<Impl*>(user);
    s.invalid_access_type = int(type);
    s.invalid_access_address = address;
    return false;
  }
  // A read of the model flash costs what the flash memory system says beyond the SRAM access
  // its block charged.
  static uint64_t countedRead(uc_engine*, uint64_t offset, unsigned size, void* user) noexcept {
    CountedRegion& r = *static_cast<CountedRegion*>(user);
    r.impl->cycles += uint64_t(r.impl->flash.modelLoadCycles(uint32_t(r.base + offset)));
    uint64_t v = 0;
    for (unsigned i = 0; i < size && offset + i < r.bytes; ++i)
      v |= uint64_t(r.data.get()[offset + i]) << (8 * i);
    return v;
  }
  static void countedWrite(uc_engine*, uint64_t offset, unsigned, uint64_t, void* user) noexcept {
    CountedRegion& r = *static_cast<CountedRegion*>(user);
    try {
      r.impl->fail("write to read-only model flash at " + hex(r.base + offset));
    } catch (...) {
      r.impl->stopWithCurrentException();
    }
  }
  // A handler's exception stops the engine and leaves call() or resume() once it has returned.
  static uint64_t mmioRead(uc_engine*, uint64_t offset, unsigned size, void* user) noexcept {
    MmioBinding& m = *static_cast<MmioBinding*>(user);
    try {
      return m.handler->read(uint32_t(offset), size);
    } catch (...) {
      m.impl->stopWithCurrentException();
      return 0;
    }
  }
  static void mmioWrite(uc_engine*, uint64_t offset, unsigned size, uint64_t value,
                        void* user) noexcept {
    MmioBinding& m = *static_cast<MmioBinding*>(user);
    try {
      m.handler->write(uint32_t(offset), size, value);
    } catch (...) {
      m.impl->stopWithCurrentException();
    }
  }

  // ---- faults -------------------------------------------------------------------------------

  // Unicorn reports a memory fault at the start of its block: find the access by its address.
  uint32_t faultingInstruction(uint32_t block_pc, uint64_t fault_address) const {
    if (prev == nullptr || prev->start != block_pc) return block_pc;
    for (const MemoryOperand& m : prev->memory_operands) {
      uint32_t base = reg(regId(uint32_t(m.base)));
      if (!riscv && m.base == 15) base = (m.address + 4) & ~3u;
      uint32_t address = base;
      if (!m.post_indexed) {
        address += uint32_t(m.displacement);
        if (m.index >= 0) address += reg(regId(uint32_t(m.index))) << m.index_shift;
      }
      const uint64_t first = m.descending ? uint64_t(address) - m.bytes : address;
      if (fault_address >= first && fault_address < first + std::max<uint32_t>(m.bytes, 1))
        return m.address;
    }
    return block_pc;
  }

  std::string accessName() const {
    switch (invalid_access_type) {
      case UC_MEM_READ_UNMAPPED:
        return "read of unmapped address";
      case UC_MEM_WRITE_UNMAPPED:
        return "write to unmapped address";
      case UC_MEM_FETCH_UNMAPPED:
        return "instruction fetch from unmapped address";
      case UC_MEM_WRITE_PROT:
        return "write to read-only address";
      case UC_MEM_READ_PROT:
        return "read of unreadable address";
      case UC_MEM_FETCH_PROT:
        return "instruction fetch from non-executable address";
      default:
        return "invalid access to address";
    }
  }

  RunResult faultResult(uc_err err, uint32_t pc_now) {
    RunResult r;
    r.reason = StopReason::kFault;
    r.pc = pc_now;
    switch (err) {
      case UC_ERR_READ_UNMAPPED:
      case UC_ERR_WRITE_UNMAPPED:
      case UC_ERR_READ_PROT:
      case UC_ERR_WRITE_PROT:
        r.pc = faultingInstruction(pc_now, invalid_access_address);
        r.fault = accessName() + " " + hex(invalid_access_address);
        break;
      case UC_ERR_FETCH_UNMAPPED:
      case UC_ERR_FETCH_PROT:
        if (invalid_access_type >= 0) r.pc = uint32_t(invalid_access_address);
        r.fault = accessName() + " " + hex(invalid_access_address);
        break;
      case UC_ERR_INSN_INVALID:
        r.fault = "invalid instruction";
        break;
      case UC_ERR_EXCEPTION:
        if (riscv) {
          // The engine stops past the instruction that trapped.
          r.pc = pc_now - 4;
          uint32_t word = 0;
          uc_mem_read(uc, r.pc, &word, 4);
          r.fault = word == 0x00000073   ? "environment call (ecall)"
                    : word == 0x00100073 ? "breakpoint (ebreak)"
                                         : "CPU exception (illegal instruction or misaligned "
                                           "access)";
        } else {
          r.fault = "CPU exception (SVC, BKPT, UDF or a usage fault)";
        }
        break;
      default:
        r.fault = std::string("engine error: ") + uc_strerror(err);
    }
    return r;
  }

  // An unaligned access the core does not make: the engine stopped with the core's exception.
  RunResult unalignedFaultResult(uint32_t pc_now) const {
    const FastPaths::UnalignedFault& f = paths.unalignedFault();
    RunResult r;
    r.reason = StopReason::kFault;
    // The access is found among its block's by its address; the RISC-V engine stops past it.
    r.pc = prev != nullptr ? faultingInstruction(prev->start, f.address)
           : riscv         ? pc_now - 4
                           : pc_now;
    const std::string access = std::string(f.bytes == 4 ? "word" : "halfword") +
                               (f.store ? " store to " : " load from ") + hex(f.address);
    if (riscv)
      r.fault = std::string(f.store ? "store" : "load") + " address misaligned trap (mcause " +
                (f.store ? "6" : "4") + "): " + access;
    else
      r.fault = "HardFault: unaligned " + access + " (Armv6-M has no unaligned accesses)";
    return r;
  }

  bool stoppedAtWfi(uint32_t pc_now) const {
    if (riscv) {
      uint32_t word = 0;
      return uc_mem_read(uc, pc_now - 4, &word, 4) == UC_ERR_OK && word == 0x10500073;
    }
    uint16_t half[2] = {};
    if (uc_mem_read(uc, pc_now - 2, &half[1], 2) == UC_ERR_OK &&
        (half[1] == 0xbf30 || half[1] == 0xbf20))
      return true;
    return uc_mem_read(uc, pc_now - 4, half, 4) == UC_ERR_OK && half[0] == 0xf3af &&
           (half[1] == 0x8003 || half[1] == 0x8002);
  }

  // Execution ended inside the last block charged (after a WFI the engine may have translated
  // past it; a fault ends it early): take back the instructions from `at` on. Returns true when
  // it did.
  bool unchargeFrom(uint32_t at) {
    if (prev == nullptr || at <= prev->start || at >= prev->start + prev->bytes) return false;
    const auto& addresses = prev->instruction_addresses;
    for (size_t k = 0; k < addresses.size(); ++k) {
      if (addresses[k] != at) continue;
      cycles -= prev->base_cycles - prev->cycles_before[k];
      instructions -= addresses.size() - k;
      return true;
    }
    return false;
  }

  void abandonAllCalls() {
    for (Frame& f : frames)
      if (f.outer) uc_context_free(f.outer);
    frames.clear();
    prev = nullptr;
  }

  // ---- running ------------------------------------------------------------------------------

  RunResult run(uint32_t start_pc) {
    Frame& frame = frames.back();
    const uint64_t cycles_before = cycles, instructions_before = instructions;
    instruction_limit = options.max_instructions == 0
                            ? std::numeric_limits<uint64_t>::max()
                            : instructions + (options.max_instructions - frame.instructions_used);
    // A pause is at least a block's worth of instructions away, so every run makes progress.
    const uint64_t interval = std::max<uint64_t>(pause_interval, 4096);
    pause_limit = pause_interval == 0 || instruction_limit - instructions <= interval
                      ? std::numeric_limits<uint64_t>::max()
                      : instructions + interval;
    instruction_limit = std::min(instruction_limit, pause_limit);
    prev = frame.prev;
    stop_requested = stopped_by_request = runaway = false;
    pending_fault.clear();
    pending_error = nullptr;
    paths.clearUnalignedFault();
    invalid_access_type = -1;
    running = true;
    uc_err err;
    {
      const FastPaths::Running fast(paths);
      err = uc_emu_start(uc, start_pc | (info.thumb ? 1u : 0u), kReturnSentinel, 0, 0);
    }
    running = false;
    if (pending_error) {
      abandonAllCalls();
      std::rethrow_exception(std::exchange(pending_error, nullptr));
    }
    const uint32_t pc_now = pc();

    RunResult r;
    if (!pending_fault.empty()) {
      r.reason = StopReason::kFault;
      r.pc = pc_now;
      r.fault = pending_fault;
    } else if (paths.unalignedFault().raised) {
      r = unalignedFaultResult(pc_now);
    } else if (err != UC_ERR_OK) {
      r = faultResult(err, pc_now);
    } else if (runaway) {
      r.reason = StopReason::kFault;
      r.pc = pc_now;
      r.fault = "runaway: more than " + std::to_string(options.max_instructions) +
                " instructions in one call";
    } else if (pc_now == kReturnSentinel) {
      r.reason = StopReason::kReturned;
      // The return is a taken branch whose refill the next block would have paid; an interrupt
      // handler's return is the exception exit instead.
      if (frame.interrupt)
        cycles += info.exception_exit_cycles;
      else if (prev != nullptr && !riscv)
        cycles += prev->taken_cycles;
      r.return_value = reg(regId(riscv ? 10 : 0));
    } else if (stopped_by_request) {
      r.reason = StopReason::kStopRequested;
    } else if (stoppedAtWfi(pc_now)) {
      r.reason = StopReason::kWaitForInterrupt;
      // The resumed code starts a block of its own without a branch into it.
      if (unchargeFrom(pc_now)) prev = nullptr;
    } else {
      r.reason = StopReason::kFault;
      r.fault = "execution stopped for no known reason";
    }
    if (r.reason != StopReason::kFault) r.pc = pc_now;
    if (r.reason == StopReason::kFault && err != UC_ERR_OK) unchargeFrom(r.pc);
    r.cycles = cycles - cycles_before;
    r.instructions = instructions - instructions_before;

    if (r.reason == StopReason::kFault) {
      abandonAllCalls();
    } else if (r.reason == StopReason::kReturned) {
      uc_context* outer = frame.outer;
      frames.pop_back();
      if (outer) {
        uc_context_restore(uc, outer);
        uc_context_free(outer);
      }
      prev = frames.empty() ? nullptr : frames.back().prev;
    } else {
      frame.resume_pc = pc_now;
      frame.prev = prev;
      frame.instructions_used += r.instructions;
    }
    return r;
  }

  RunResult start(uint32_t entry, std::initializer_list<uint32_t> args, bool interrupt) {
    if (running) throw std::logic_error("Cpu::call from inside a running call");
    const size_t max_args = riscv ? 8 : 4;
    if (args.size() > max_args)
      throw std::logic_error("Cpu::call takes at most " + std::to_string(max_args) +
                             " arguments on this core");
    Frame frame;
    frame.interrupt = interrupt;
    uint32_t sp = kStackTop;
    if (!frames.empty()) {
      if (uc_context_alloc(uc, &frame.outer) != UC_ERR_OK)
        throw std::runtime_error("cannot save the CPU context");
      uc_context_save(uc, frame.outer);
      sp = reg(spId());
    }
    if (interrupt) sp -= riscv ? kRiscVTrapFrameBytes : kArmStackFrameBytes;
    sp &= riscv ? ~15u : ~7u;
    setReg(spId(), sp);
    uint32_t n = 0;
    for (uint32_t a : args) setReg(regId(riscv ? 10 + n : n), a), ++n;
    setReg(riscv ? int(UC_RISCV_REG_RA) : int(UC_ARM_REG_LR),
           kReturnSentinel | (info.thumb ? 1u : 0u));
    frames.push_back(frame);
    if (interrupt) cycles += info.exception_entry_cycles;
    const uint64_t entry_cycles = interrupt ? info.exception_entry_cycles : 0;
    RunResult r = run(entry & ~1u);
    r.cycles += entry_cycles;
    return r;
  }
};

}  // namespace hilsim::iss
