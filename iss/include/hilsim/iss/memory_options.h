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
  // per SRAM load, and per SRAM store unless sram_store_waits is false (a part whose SRAM adds its
  // wait state to reads only).
  uint32_t flash_wait_states = 0;
  uint32_t sram_wait_states = 0;
  FlashOptions flash;
  bool sram_store_waits = true;

  // The wait states of one SRAM access.
  uint32_t sramWaitStates(bool store) const {
    return store && !sram_store_waits ? 0 : sram_wait_states;
  }

  bool operator==(const MemoryOptions& o) const {
    return flash_wait_states == o.flash_wait_states && sram_wait_states == o.sram_wait_states &&
           sram_store_waits == o.sram_store_waits && flash == o.flash;
  }
};

}  // namespace hilsim::iss
