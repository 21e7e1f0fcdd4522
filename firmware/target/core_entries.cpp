// hs_cpu_init and hs_halt: what the core needs before and after the other entries.

#include "cpu.h"
#include "entries.h"

extern "C" {

void hs_cpu_init(void) {
  enableFpu();
}

void hs_halt(void) {
  for (;;) breakpoint();
}

}  // extern "C"
