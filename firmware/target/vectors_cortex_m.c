/* The Cortex-M vector table at address 0: the initial stack pointer, reset (hs_halt: the image
   has no program of its own; the host calls its entries) and IRQ 0, the accelerator's
   interrupt. Other exceptions stop at hs_halt. In C, where an address cast is a constant. */

#include "entries.h"

extern uint32_t hs_stack_top[];

typedef void (*Vector)(void);

__attribute__((section(".vectors"), used)) const Vector hs_vectors[17] = {
    (Vector)hs_stack_top, /* initial SP */
    hs_halt,              /* reset */
    hs_halt,              /* NMI */
    hs_halt,              /* HardFault */
    hs_halt,              /* MemManage */
    hs_halt,              /* BusFault */
    hs_halt,              /* UsageFault */
    0,
    0,
    0,
    0,
    hs_halt, /* SVCall */
    hs_halt, /* DebugMonitor */
    0,
    hs_halt,        /* PendSV */
    hs_halt,        /* SysTick */
    hs_irq_handler, /* IRQ 0: the accelerator */
};
