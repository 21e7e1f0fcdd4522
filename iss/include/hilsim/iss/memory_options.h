#pragma once
// The host MCU's memories as the ISS times them: the wait states of its flash and SRAM and the
// flash memory system in front of the flash. One struct serves the typical part of each preset
// (core_model.h), the resolved configuration (cpu.flash_wait_states, cpu.sram_wait_states,
// cpu.flash.*) and the simulator's options (cpu.h), so a new memory key is a field here, its row
// in the key table and the code that uses it.

#include <cstdint>

#include "hilsim/iss/flash.h"

namespace hilsim::iss {

struct MemoryOptions {
  // Wait states in core cycles: per flash line read the flash memory system does not hide, and
  // per SRAM load or store.
  uint32_t flash_wait_states = 0;
  uint32_t sram_wait_states = 0;
  FlashOptions flash;

  bool operator==(const MemoryOptions& o) const {
    return flash_wait_states == o.flash_wait_states && sram_wait_states == o.sram_wait_states &&
           flash == o.flash;
  }
};

}  // namespace hilsim::iss
