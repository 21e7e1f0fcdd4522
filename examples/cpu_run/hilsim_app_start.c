/* What a program of your own needs on the core before `hilsim cpu-run` calls it: cpu-run calls
   hilsim_app_init once, outside the counted cycles, when the executable defines it. Link this file
   with your code and hilsim_app.ld (README.md "cpu-run"). */

#include <stdint.h>

void hilsim_app_init(void) {
#if defined(__arm__) && defined(__ARM_FP)
  /* Floating-point instructions fault until CPACR grants CP10 and CP11 full access. */
  *(volatile uint32_t*)0xE000ED88u |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
  /* RV32IM has no floating-point unit and needs nothing here. */
}
