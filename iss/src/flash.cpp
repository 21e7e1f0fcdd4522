// Rules of the flash memory system's options (cpu.flash.*, configs/README.md).

#include "hilsim/iss/flash.h"

#include "hilsim/errors.h"

namespace hilsim::iss {
namespace {

bool powerOfTwo(uint32_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

void checkCache(const char* name, uint32_t lines, uint32_t ways) {
  const std::string key = std::string("cpu.flash.") + name;
  if (lines == 0) return;
  if (ways == 0 || ways > lines || lines % ways != 0 || !powerOfTwo(lines / ways))
    throw ConfigError(key + "_lines = " + std::to_string(lines) + " and " + key +
                      "_ways = " + std::to_string(ways) +
                      ": the lines must split into ways of a power-of-two number of sets");
}

}  // namespace

void checkFlashOptions(const FlashOptions& o) {
  if (!powerOfTwo(o.line_bytes) || o.line_bytes < 4 || o.line_bytes > 64)
    throw ConfigError("cpu.flash.line_bytes = " + std::to_string(o.line_bytes) +
                      " is not a power of two in 4..64");
  checkCache("icache", o.icache_lines, o.icache_ways);
  checkCache("dcache", o.dcache_lines, o.dcache_ways);
  if (o.data_through_icache && o.icache_lines == 0)
    throw ConfigError(
        "cpu.flash.data_through_icache = true needs an instruction cache "
        "(cpu.flash.icache_lines is 0)");
  if (o.data_through_icache && o.dcache_lines != 0)
    throw ConfigError(
        "cpu.flash.data_through_icache = true leaves no use for a data cache "
        "(cpu.flash.dcache_lines is " +
        std::to_string(o.dcache_lines) + ", expected 0)");
}

}  // namespace hilsim::iss
