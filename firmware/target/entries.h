#pragma once
// The entries of a hilsim firmware image: what the host's instruction-set simulator calls, with
// the C calling convention of the core (arguments in r0-r3 / a0-a3, result in r0 / a0). Every
// entry returns to its caller; set the return address to hs_halt to stop there. The image has
// no start-up code to run first: segments are loaded at their addresses (.bss zeroed through the
// segment's memory size) and the stack pointer is set to hs_stack_top.

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Prepares the core for the other entries, once: on Cortex-M4F and M33 enables the FPU (CPACR,
// the only system register the firmware touches); does nothing on the other cores.
void hs_cpu_init(void);

// Where the host writes a packed kernel call (hilsim/kernels/abi/words.h) before hs_kernel:
// kCallBufferWords (129) words in .bss.
extern uint32_t hs_call_words[];

// hs_call_payload_words (kernel_entries.cpp, in flash): 78 words, each kernel's payload word
// count as this image lays calls out, indexed by KernelId (entry 0 unused), so a test can check
// that host and image agree; the optimized images also export hs_opt_call_payload_words
// (dispatch_optimized.cpp), the same for the optimized library's calls from
// kOptFullyConnectedInt8 on.

// Runs the packed call `words` (usually hs_call_words) of kernel `id` (abi::KernelId). Returns
// abi::CallStatus: 0 ran, 1 unknown kernel id, 2 payload length not the kernel's.
uint32_t hs_kernel(uint32_t id, const uint32_t* words);

// hs_kernel's dispatch over the image's kernel library (kernels::abi::CallStatus as above).
uint32_t hs_dispatch(uint32_t id, const uint32_t* words);

// Copies `bytes` bytes from `src` to `dst` (the ranges may overlap).
void hs_memcpy(void* dst, const void* src, uint32_t bytes);

// Tells the driver the device's core count (CONFIG), which decides whether CORE_MASK_HI is
// written (hilsim/drv/job_path.h). Until called, 0: devices of up to 32 cores.
void hs_driver_init(uint32_t num_cores);

// Driver::submit's register writes: JOB_TABLE_LO/HI, CORE_MASK_LO(/HI), CTRL = START.
void hs_driver_submit(uint32_t table_lo, uint32_t table_hi, uint32_t mask_lo, uint32_t mask_hi);

// Waits (WFI, interrupts masked around the check) until hs_irq_handler has run since the last
// submit; returns the IRQ_STATUS bits the handler read and cleared.
uint32_t hs_driver_wait(void);

// The accelerator's interrupt handler: reads IRQ_STATUS, writes the bits back to clear them and
// sets the flag hs_driver_wait waits for. An ordinary function: Cortex-M vectors it as IRQ 0; on
// RV32, hs_trap_vector (for mtvec) calls it.
void hs_irq_handler(void);

// Stops: a breakpoint (BKPT / EBREAK) in a loop.
void hs_halt(void);

#ifdef __cplusplus
}
#endif
