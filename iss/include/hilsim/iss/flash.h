#pragma once
// The flash memory system in front of the host MCU's flash: the read width (one flash access
// reads one line), a prefetch buffer, and an instruction and a data cache, as parts put them in
// front of their flash (ST's ART accelerator, the STM32U5 ICACHE, the FE310's instruction cache;
// iss/README.md, "Flash memory system"). Instruction fetches from the flash code region, literal
// loads of it and loads of the model flash go through it.

#include <cstdint>
#include <string>

namespace hilsim::iss {

struct FlashOptions {
  uint32_t line_bytes = 8;  // bytes one flash access reads (a power of two, 4..64)
  // A sequential line is read ahead while the current one executes: an instruction fetch from the
  // line after the last one fetched costs no wait states.
  bool prefetch = false;
  // Instruction cache: lines of line_bytes, set associative with icache_ways ways (LRU); 0 lines:
  // none.
  uint32_t icache_lines = 0;
  uint32_t icache_ways = 1;
  // Data cache for loads from flash (literal pools, constant tables, the model's weights).
  uint32_t dcache_lines = 0;
  uint32_t dcache_ways = 1;
  // Data loads from flash go through the instruction cache (a cache on the core's code bus, as
  // the STM32U5 ICACHE); the data cache is then unused.
  bool data_through_icache = false;

  bool operator==(const FlashOptions& o) const {
    return line_bytes == o.line_bytes && prefetch == o.prefetch && icache_lines == o.icache_lines &&
           icache_ways == o.icache_ways && dcache_lines == o.dcache_lines &&
           dcache_ways == o.dcache_ways && data_through_icache == o.data_through_icache;
  }
};

// Throws hilsim::ConfigError naming the first rule `o` breaks (key names as cpu.flash.*).
void checkFlashOptions(const FlashOptions& o);

// What the flash memory system did: lines read from the flash array (each costs the flash wait
// states unless the prefetch hid it), and cache hits and misses by line.
struct FlashStats {
  uint64_t line_reads = 0;
  uint64_t icache_hits = 0;
  uint64_t icache_misses = 0;
  uint64_t dcache_hits = 0;
  uint64_t dcache_misses = 0;
  // The part of line_reads that loads of the model flash made (the model's weights and
  // constants): each such load that no cache served. Instruction fetches and literal loads of
  // the code region are not in it. Only counted when the model flash has wait states.
  uint64_t model_line_reads = 0;
  FlashStats operator-(const FlashStats& o) const {
    return {line_reads - o.line_reads,       icache_hits - o.icache_hits,
            icache_misses - o.icache_misses, dcache_hits - o.dcache_hits,
            dcache_misses - o.dcache_misses, model_line_reads - o.model_line_reads};
  }
};

}  // namespace hilsim::iss
