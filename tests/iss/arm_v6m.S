@ Timing probes for Cortex-M0+ (ARMv6-M Thumb). tests/iss/iss_e2e_test.cpp states the cycles the
@ Cortex-M0+ TRM's Table 3.1 implies for each.
    .syntax unified
    .thumb
    .text

    .macro func name
    .global \name
    .type \name, %function
    .thumb_func
\name:
    .endm

    .align 2
func alu_straight
    adds r0, r0, r1
    eors r0, r0, r1
    lsls r0, r0, #2
    orrs r0, r0, r1
    subs r0, r0, #3
    mov r2, r0
    ands r2, r2, r1
    bics r2, r2, r1
    mvns r3, r2
    cmp r3, r2
    bx lr

@ r0 = the SRAM table (0x20000000)
func loads_pipelined
    ldr r1, [r0]
    ldr r2, [r0, #4]
    ldr r3, [r0, #8]
    str r1, [r0, #12]
    bx lr

func load_store_multiple
    ldm r0!, {r1-r4}
    subs r0, #16
    stm r0!, {r1-r4}
    push {r4-r7}
    pop {r4-r7}
    bx lr

func pop_pc
    push {r4, lr}
    pop {r4, pc}

func branch_not_taken
    movs r1, #0
    cmp r1, #1
    beq 1f
    adds r0, r0, #1
    adds r0, r0, #1
1:  bx lr

func branch_taken
    movs r1, #1
    cmp r1, #1
    beq 1f
    adds r0, r0, #1
    adds r0, r0, #1
1:  bx lr

func call_return
    push {lr}
    bl leaf
    pop {pc}
func leaf
    adds r0, r0, #1
    bx lr

func multiply
    muls r0, r1, r0
    muls r0, r1, r0
    bx lr

@ r0 = iterations (at least 1)
func count_down
1:  subs r0, r0, #1
    bne 1b
    bx lr

@ r0 = an address: one access there (Armv6-M raises a HardFault when it is unaligned)
func load_word
    ldr r0, [r0]
    bx lr

func load_halfword
    ldrh r0, [r0]
    bx lr

@ r1 stored at r0
func store_word
    str r1, [r0]
    bx lr

@ A word 7 bytes below the stack pointer: never aligned
func unaligned_stack_load
    mov r1, sp
    subs r1, #7
    ldr r0, [r1]
    bx lr
