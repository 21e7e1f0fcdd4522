#pragma once
// One simulated host CPU: a Unicorn engine that executes the firmware, with cycle counts from the
// core's published instruction timing (iss/README.md). No SystemC: time is a cycle counter; the
// caller converts it to simulated time and synchronizes at the points where execution stops.
//
// Execution model: call() runs a firmware function until it returns, reaches a WFI, is asked to
// stop, or faults. After a WFI or a stop the call is suspended; the caller may run an interrupt
// handler on top of it (callInterrupt) and then resume() it. Calls nest: a call made while another
// is suspended runs on the same stack below the suspended one's stack pointer, and the suspended
// call's registers are restored when it returns.
//
// Not thread-safe: one thread drives a Cpu. Callbacks (MmioHandler) run synchronously on that
// thread from inside call()/resume().

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>

#include "hilsim/iss/core_model.h"
#include "hilsim/iss/elf.h"
#include "hilsim/iss/flash.h"
#include "hilsim/iss/memory_options.h"

namespace hilsim::iss {

// A memory-mapped device. Offsets are relative to the base given to Cpu::mapMmio; sizes are in
// bytes (1, 2, 4 or 8). Called synchronously while the CPU executes: the handler must not block.
// It may call Cpu::requestStop() so that the caller regains control (to synchronize) and then
// resumes; the stop takes effect at the end of the current basic block.
// An exception it throws stops the engine; call() or resume() rethrows it once the engine has
// returned, abandoning the call and any suspended ones (it never unwinds through the engine).
class MmioHandler {
 public:
  virtual ~MmioHandler() = default;
  virtual uint64_t read(uint32_t offset, unsigned size) = 0;
  virtual void write(uint32_t offset, unsigned size, uint64_t value) = 0;
};

// What the core executes with. The host MCU's come from the configuration in one place
// (firmware::hostCpuOptions); a default-constructed one is a Cortex-M4F with memories that add no
// wait states.
struct CpuOptions {
  Core core = Core::kCortexM4F;
  // The memories' wait states and the flash memory system (cpu.flash_wait_states,
  // cpu.sram_wait_states, cpu.flash.*).
  MemoryOptions memory;
  // The preset's branch predictor sizes (CoreInfo::branch_predictor); all 0: the core's own
  // preset's.
  BranchPredictorOptions branch_predictor;
  // The most instructions one call may execute (across its resumes) before it is stopped as a
  // runaway fault; 0 means no limit.
  uint64_t max_instructions = 0;

  // Every field: options that compare equal time the same program the same.
  bool operator==(const CpuOptions& o) const {
    return core == o.core && memory == o.memory && branch_predictor == o.branch_predictor &&
           max_instructions == o.max_instructions;
  }
};

enum class StopReason {
  kReturned,          // the function returned; return_value holds r0 / a0
  kWaitForInterrupt,  // a WFI executed; pc is the instruction after it
  kStopRequested,     // requestStop() was called; pc is the next instruction
  kFault,             // unmapped or disallowed access, invalid instruction, exception, runaway
};

struct RunResult {
  StopReason reason = StopReason::kReturned;
  uint32_t pc = 0;            // for kFault, the faulting instruction (as precise as known)
  uint32_t return_value = 0;  // r0 / a0 when kReturned
  std::string fault;          // one readable line for kFault: the cause and the address
  uint64_t cycles = 0;        // cycles of this call() or resume() (excluding nested calls)
  uint64_t instructions = 0;  // instructions of this call() or resume()
};

const char* toString(StopReason reason);

class Cpu {
 public:
  // Maps the flash code region (read/execute) and the firmware SRAM (read/write) of the memory
  // map, and the return sentinel. Other regions are mapped by the caller (map* below) or by
  // loadElf. Throws hilsim::Error when the engine cannot be created.
  explicit Cpu(const CpuOptions& options);
  ~Cpu();
  Cpu(const Cpu&) = delete;
  Cpu& operator=(const Cpu&) = delete;

  Core core() const;
  uint32_t flashWaitStates() const;
  uint32_t sramWaitStates() const;
  // The page size of the engine's mappings (4096): bases and sizes given to map* must be
  // multiples of it.
  static constexpr uint32_t kPageBytes = 4096;

  // Writes the image's loadable segments (zero-filling past each segment's file bytes). Segments
  // in flash code or firmware SRAM go into the regions mapped at construction; segments in the
  // model flash region are mapped read-only as by mapBytes; anything else must lie inside memory
  // the caller mapped before. With flash wait states, the flash code pages that hold only the
  // image's read-only data sections (.rodata) are counted like the model flash. Throws
  // hilsim::InputError for a segment outside mapped memory or an image for another architecture.
  // Also finds the image's divide instructions (their cycles depend on the operands) so that they
  // are timed exactly.
  void loadElf(const ElfImage& image);

  // Maps caller-owned host memory at `base`. `host` must be aligned to kPageBytes and stay valid
  // (and hold at least `bytes` rounded up to kPageBytes) for the Cpu's lifetime; the firmware's
  // accesses go straight to it. Readable, and writable when `writable`; never executable.
  void mapHostMemory(uint32_t base, void* host, size_t bytes, bool writable);
  // Copies `bytes` of `data` into a fresh read-only region at `base` (size rounded up to pages).
  // In the model flash region (or the flash code region) with flash wait states, reads go through a
  // counted path that charges the wait states (see iss/README.md); otherwise the region is plain
  // memory.
  void mapBytes(uint32_t base, const void* data, size_t bytes);
  // Zero-filled read/write memory owned by the Cpu (e.g. the persistent pool and the arena).
  void mapZeroed(uint32_t base, size_t bytes);
  // Removes a mapping made by mapHostMemory, mapBytes or mapZeroed (the same base and size), so
  // that its addresses can be mapped again.
  void unmap(uint32_t base, size_t bytes);
  // Routes every access to [base, base + bytes) to `handler`, which must outlive the Cpu.
  void mapMmio(uint32_t base, size_t bytes, MmioHandler& handler);

  // Debug access to mapped memory (no cycles). Throw hilsim::InputError when unmapped.
  void writeMemory(uint32_t address, const void* data, size_t bytes);
  void readMemory(uint32_t address, void* data, size_t bytes) const;
  // Core register n: r0..r15 on Arm, x0..x31 on RISC-V.
  uint32_t readRegister(unsigned n) const;
  // Floating-point register n as its 32 bits: s0..s31 on Arm cores with an FPU. Throws
  // std::logic_error on a core without one (rv32im has no F extension).
  uint32_t readFloatRegister(unsigned n) const;

  // Runs the function at `entry` (Thumb bit optional) with `args` in r0-r3 / a0-a7, the stack
  // pointer at the top of the firmware stack (or below the suspended call's, when nested) and the
  // return sentinel as link register. Throws std::logic_error for too many arguments or when
  // called from inside a callback.
  RunResult call(uint32_t entry, std::initializer_list<uint32_t> args);
  // A nested call of an interrupt handler on top of the suspended call, charging the core's
  // exception entry and exit cycles. Requires a suspended call.
  RunResult callInterrupt(uint32_t handler);
  // Continues the innermost suspended call. Throws std::logic_error when there is none.
  RunResult resume();
  // True while a call is suspended (after kWaitForInterrupt or kStopRequested).
  bool suspended() const;
  // Asks the running call to stop at the end of the current basic block (from an MmioHandler).
  void requestStop();
  // Stops every call or resume after about `instructions` instructions (at a block boundary) with
  // StopReason::kStopRequested, so that the caller can show progress and resume(); timing is the
  // same as without pauses. 0 (the default): never.
  void setPauseInterval(uint64_t instructions);

  // Monotonic totals since construction.
  uint64_t cycles() const;
  uint64_t instructions() const;
  // What the flash memory system did since construction.
  const FlashStats& flashStats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hilsim::iss
