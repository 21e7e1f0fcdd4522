#pragma once
// Where the reference kernels' arithmetic runs. Without a target (InterpreterOptions::cpu_target
// is nullptr) each kernel calls its freestanding function on the host; with one, each kernel packs
// its call (hilsim/kernels/abi) into words whose pointers are the target's addresses, and the
// target executes the same arithmetic, e.g. cross-compiled firmware on an instruction-set
// simulator working on the interpreter's own memory.

#include <cstddef>
#include <cstdint>
#include <optional>

#include "hilsim/iss/flash.h"
#include "hilsim/rt/layer_record.h"

namespace hilsim::rt {

class CpuTarget {  // where the reference kernels' arithmetic runs; nullptr: on the host
 public:
  virtual ~CpuTarget() = default;
  // Memory the interpreter hands over, once after allocate(): the arena, each persistent block,
  // and the model's bytes.
  virtual void mapArena(uint8_t* base, size_t bytes) = 0;
  virtual void mapPersistent(uint8_t* base, size_t bytes) = 0;
  virtual void mapModel(const uint8_t* base, size_t bytes) = 0;
  // The target's address of host memory in one of those; throws hilsim::SimulationError if none.
  virtual uint32_t address(const void* host) const = 0;
  // Runs kernel `id` on the packed call, charges the host clock with its cycles and returns them.
  virtual uint64_t run(uint32_t kernel_id, const uint32_t* words, size_t count) = 0;
  // The target's flash memory system counts so far, when it models one.
  virtual std::optional<iss::FlashStats> flashCounts() const { return std::nullopt; }
};

}  // namespace hilsim::rt
