#pragma once
// The host MCU running its firmware on the instruction-set simulator: the preset's image
// (images.h) loaded into an iss::Cpu, and the runtime's CPU target on top of it, so that every
// reference kernel executes there on the interpreter's own memory (the arena and the persistent
// pool mapped in place, the model's bytes copied to the model flash once) and its executed cycles
// go to the host clock. The platform adds the accelerator's windows and runs the driver's job
// path on the same CPU (sc_model/host_firmware.h).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hilsim/config/hardware_config.h"
#include "hilsim/iss/cpu.h"
#include "hilsim/iss/elf.h"
#include "hilsim/rt/cpu_target.h"
#include "hilsim/rt/host_clock.h"

namespace hilsim::firmware {

// The instruction-set simulator's options for the configured host CPU: the core of cpu.preset, the
// memories' wait states and the flash memory system (cpu.flash.*). The one place the configuration
// becomes iss::CpuOptions, for every user of the ISS (the simulation, the planner's driver probe,
// `cpu-run`, `calibrate`). Throws ConfigError for a preset without an instruction-set simulator.
iss::CpuOptions hostCpuOptions(const config::CpuConfig& cpu);

class HostMcu final : public rt::CpuTarget {
 public:
  // Loads cpu.preset's image and prepares the core (hs_cpu_init) with hostCpuOptions(cpu). Kernel
  // cycles go to `clock`. Throws ConfigError for a preset without an image, InputError for a
  // missing or bad image.
  HostMcu(const config::CpuConfig& cpu, rt::HostClock& clock);
  ~HostMcu() override;

  iss::Cpu& cpu() { return *cpu_; }
  // The address of one of the image's entries (firmware/target/entries.h).
  uint32_t entry(const char* name) const;

  // rt::CpuTarget
  void mapArena(uint8_t* base, size_t bytes) override;
  void mapPersistent(uint8_t* base, size_t bytes) override;
  void mapModel(const uint8_t* base, size_t bytes) override;
  uint32_t address(const void* host) const override;
  uint64_t run(uint32_t kernel_id, const uint32_t* words, size_t count) override;
  std::optional<iss::FlashStats> flashCounts() const override;

  // Instructions the kernels executed so far.
  uint64_t kernelInstructions() const { return kernel_instructions_; }

 private:
  struct Region {
    const uint8_t* host;
    size_t bytes;
    uint32_t target;
  };
  // Unmaps an earlier interpreter's memory: each interpreter maps its own from mapArena on.
  void forgetMappings();

  std::unique_ptr<iss::Cpu> cpu_;
  iss::ElfImage image_;
  rt::HostClock& clock_;
  uint32_t kernel_entry_ = 0;
  uint32_t call_words_ = 0;
  std::vector<Region> regions_;
  uint32_t next_persistent_ = 0;
  uint64_t kernel_instructions_ = 0;
};

}  // namespace hilsim::firmware
