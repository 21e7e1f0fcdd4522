#pragma once
// The host CPU's clock as the runtime sees it. Reference kernels and driver software advance it by
// their modelled cycles; inside the simulator the host bridge implements it on simulated time.

#include <cstdint>

namespace hilsim::rt {

// What the host CPU is doing while time advances (shown in traces).
enum class CpuActivity : uint8_t { kIdle = 0, kKernel = 1, kDriver = 2 };

class HostClock {
 public:
  virtual ~HostClock() = default;
  // Host-CPU cycles since the start of the run.
  virtual uint64_t now() const = 0;
  // Spends `cycles` host cycles doing `activity`.
  virtual void advance(uint64_t cycles, CpuActivity activity) = 0;
  // Host-CPU cycles spent asleep waiting for an interrupt since the start of the run (0 for a
  // clock that never waits).
  virtual uint64_t sleepCycles() const { return 0; }
};

// A clock that only counts: used when no simulated platform is attached.
class CountingClock final : public HostClock {
 public:
  uint64_t now() const override { return cycles_; }
  void advance(uint64_t cycles, CpuActivity) override { cycles_ += cycles; }

 private:
  uint64_t cycles_ = 0;
};

}  // namespace hilsim::rt
